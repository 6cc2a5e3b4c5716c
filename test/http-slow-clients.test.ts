/**
 * Slow clients cannot hold the service (README, "Slow clients"): connections that send their headers
 * or an /mcp body one byte a second are closed by the documented deadlines, and while they are open
 * health and an MCP tool call still answer. Everything runs on loopback against the real server; the
 * slow connections are bounded in number and end by themselves.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Socket } from "bun";
import { requestDeadlines } from "../src/service.ts";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent } from "./support/mcp-client.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { waitFor } from "./support/wait.ts";

let service: TestService;
let token: string;

beforeAll(async () => {
  service = await startTestService();
  token = await devAccessToken(service);
});

afterAll(async () => {
  await service?.dispose();
});

interface SlowConnection {
  /** Resolves with what the server sent, once it closes the connection. */
  closed: Promise<string>;
  /** Gives up (the test's clean-up if the server never closed it). */
  end(): void;
}

/** Opens a connection that sends `head` at once, then `trickle` one byte a second until the server closes it. */
async function slowConnection(port: number, head: string, trickle: string): Promise<SlowConnection> {
  let received = "";
  let timer: ReturnType<typeof setInterval> | undefined;
  let sent = 0;
  let resolveClosed!: (text: string) => void;
  const closed = new Promise<string>((resolve) => (resolveClosed = resolve));
  const finish = () => {
    clearInterval(timer);
    resolveClosed(received);
  };
  const socket: Socket = await Bun.connect({
    hostname: "127.0.0.1",
    port,
    socket: {
      data(_socket, data) {
        received += new TextDecoder().decode(data);
      },
      close: finish,
      error: finish,
    },
  });
  socket.write(head);
  timer = setInterval(() => {
    if (sent < trickle.length) socket.write(trickle[sent++]!);
  }, 1000);
  return { closed, end: () => socket.end() };
}

const documentedHeadersCloseMs = (requestDeadlines.headersSeconds + 5) * 1000;
const documentedBodyCloseMs = (requestDeadlines.bodySeconds + 5) * 1000;
/** A loaded machine is slower than the documented bound; the wait allows for it, saying what it waited for. */
const slack = 60_000;

describe("slow clients", () => {
  test("connections trickling headers or an /mcp body are closed by the deadlines, while health and MCP answer", async () => {
    const port = Number(new URL(service.url).port);
    const slowHeaders = await Promise.all(
      Array.from({ length: 100 }, () => slowConnection(port, "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n", "X-Slow: " + "a".repeat(200))),
    );
    const bodyHead = [
      "POST /mcp HTTP/1.1",
      "Host: 127.0.0.1",
      `Authorization: Bearer ${token}`,
      "Content-Type: application/json",
      "Accept: application/json, text/event-stream",
      "Content-Length: 100000",
      "",
      "",
    ].join("\r\n");
    const slowBodies = await Promise.all(Array.from({ length: 100 }, () => slowConnection(port, bodyHead, '{"jsonrpc":"2.0"' + " ".repeat(500))));
    const all = [...slowHeaders, ...slowBodies];
    try {
      // While all of them are open, the service answers: health, and a tool call over MCP.
      const health = await waitFor(fetch(`${service.url}/api/health`), 30_000, "health while slow clients are connected");
      expect(health.status).toBe(200);
      const agent = await waitFor(connectAgent(service, token), 30_000, "an MCP session while slow clients are connected");
      try {
        const created = await waitFor(agent.call("create_course", { title: "Answered meanwhile" }), 30_000, "an MCP tool call while slow clients are connected");
        expect(created.title).toBe("Answered meanwhile");
      } finally {
        await agent.close();
      }

      const headerCloses = await waitFor(Promise.all(slowHeaders.map((c) => c.closed)), documentedHeadersCloseMs + slack, "the slow-header connections to be closed");
      expect(headerCloses).toHaveLength(100);
      const bodyCloses = await waitFor(Promise.all(slowBodies.map((c) => c.closed)), documentedBodyCloseMs + slack, "the slow-body connections to be closed");
      // A body that missed its deadline is told so, when the answer can still reach the client.
      const answered = bodyCloses.filter((text) => text.startsWith("HTTP/1.1"));
      for (const text of answered) expect(text).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      for (const connection of all) connection.end();
    }
  }, 180_000);
});
