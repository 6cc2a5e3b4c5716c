/**
 * `bun run bench slow-clients`: health and an MCP read while 1,000 slow connections (one byte a second)
 * are held open against the service, each ratio against the same scenario with no slow clients. Half
 * trickle their headers, half an /mcp body; each one the server closes is opened again at once, so
 * there are 1,000 for the whole measurement.
 */
import type { Socket } from "bun";
import { obtainAccessTokenByLogin } from "../src/dev-identity-provider/scripted-login.ts";
import { describe, load, openMcpSession, startService, type LoadResult, type Row } from "./support.ts";

const slowCount = Number(process.env.BENCH_SLOW_CLIENTS ?? 1000);

function holdSlowClients(port: number, token: string) {
  let stopped = false;
  const sockets = new Set<Socket>();
  let reopened = 0;
  const bodyHead = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100000\r\n\r\n`;
  const headerHead = "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n";
  const open = async (head: string, byte: string): Promise<void> => {
    if (stopped) return;
    let timer: ReturnType<typeof setInterval> | undefined;
    const socket = await Bun.connect({
      hostname: "127.0.0.1",
      port,
      socket: {
        data() {},
        close(closed) {
          clearInterval(timer);
          sockets.delete(closed);
          reopened++;
          void open(head, byte);
        },
        error() {},
      },
    });
    sockets.add(socket);
    socket.write(head);
    timer = setInterval(() => socket.write(byte), 1000);
  };
  const opened = Promise.all(Array.from({ length: slowCount }, (_, i) => (i % 2 === 0 ? open(headerHead, "a") : open(bodyHead, " "))));
  return {
    opened,
    get open() {
      return sockets.size;
    },
    get reopened() {
      return reopened;
    },
    stop() {
      stopped = true;
      for (const socket of sockets) socket.end();
    },
  };
}

function row(scenario: string, slow: LoadResult, quiet: LoadResult, atLeast: number): Row {
  const ratio = slow.rps / quiet.rps;
  return { scenario, measured: describe(slow), baseline: describe(quiet), ratio, target: `≥ ${atLeast}`, met: ratio >= atLeast };
}

export async function runSlowClientsBench(): Promise<Row[]> {
  const service = await startService({ LOG_LEVEL: "warn" });
  try {
    const { accessToken } = await obtainAccessTokenByLogin({ issuer: service.authUrl, resource: `${service.baseUrl}/mcp`, username: "bench-user" });
    const seed = await openMcpSession(`${service.baseUrl}/mcp`, accessToken);
    await seed.call("create_course", { title: "Phishing awareness", description: "Spot and report phishing.", language: "en" });
    const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream", Authorization: `Bearer ${accessToken}` };
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_courses", arguments: {} } });
    const health = () => load({ url: `${service.baseUrl}/api/health` });
    const mcp = () => load({ url: `${service.baseUrl}/mcp`, method: "POST", headers, body, mcpSession: true });

    console.error("measuring health and list_courses without slow clients …");
    const quietHealth = await health();
    const quietMcp = await mcp();
    console.error(`opening ${slowCount} slow connections …`);
    const slow = holdSlowClients(service.port, accessToken);
    await slow.opened;
    try {
      console.error(`measuring with ${slow.open} slow connections open …`);
      const slowHealth = await health();
      const slowMcp = await mcp();
      console.error(`  slow connections closed by the server (and reopened) meanwhile: ${slow.reopened}`);
      return [
        row(`GET /api/health with ${slowCount} slow clients vs none`, slowHealth, quietHealth, 0.8),
        row(`tools/call list_courses with ${slowCount} slow clients vs none`, slowMcp, quietMcp, 0.8),
      ];
    } finally {
      slow.stop();
    }
  } finally {
    await service.stop();
  }
}
