/**
 * A TCP relay in front of PostgreSQL that a test can cut and restore, to stage a database outage
 * without touching the real server: `cut()` drops every relayed connection and refuses new ones,
 * `restore()` relays again on the same port.
 */
import { createConnection, createServer, type Server, type Socket } from "node:net";

export interface TcpRelay {
  port: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  stop(): Promise<void>;
}

export async function startTcpRelay(targetHost: string, targetPort: number): Promise<TcpRelay> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;

  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = createConnection({ host: targetHost, port: targetPort });
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on("close", () => sockets.delete(socket));
          socket.on("error", () => socket.destroy());
        }
        client.pipe(upstream);
        upstream.pipe(client);
        client.on("close", () => upstream.destroy());
        upstream.on("close", () => client.destroy());
      });
      server.listen(port, "127.0.0.1", () => {
        port = (server!.address() as { port: number }).port;
        resolve();
      });
    });

  const close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      if (!server) return resolve();
      server.close(() => resolve());
      server = undefined;
    });

  await listen();
  return {
    get port() {
      return port;
    },
    cut: close,
    restore: listen,
    stop: close,
  };
}
