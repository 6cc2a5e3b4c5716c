/**
 * `subscriptions/listen` streams (2026-07-28) are capped per user like 2025 sessions: at most 100 open
 * at once on a replica, or fewer when MCP_MAX_LISTEN_STREAMS_PER_USER says so. The stream beyond the cap
 * is refused with the revision's JSON-RPC error naming the limit and the setting; another user is not
 * affected; a stream the client closes frees its slot. Streams are opened raw, as a client would.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { devAccessToken } from "./support/dev-login.ts";
import { modernRequest } from "./support/modern-client.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { waitUntil } from "./support/wait.ts";

type Json = Record<string, any>;

interface OpenStream {
  /** Closes the stream from the client's side. */
  close(): void;
}

const services: TestService[] = [];
const streams: OpenStream[] = [];

afterAll(async () => {
  for (const stream of streams) stream.close();
  for (const service of services) await service.dispose();
}, 60_000);

function listenRequest(service: TestService, token: string, id: number, signal?: AbortSignal): Promise<Response> {
  const request = modernRequest("subscriptions/listen", { notifications: { resourceSubscriptions: [] } }, id);
  return fetch(service.mcpUrl, { method: "POST", headers: { ...request.headers, Authorization: `Bearer ${token}` }, body: JSON.stringify(request.body), signal });
}

/** Opens a stream and reads until its acknowledgment arrived, so the server counts it as open. */
async function openStream(service: TestService, token: string, id: number): Promise<OpenStream> {
  const abort = new AbortController();
  const response = await listenRequest(service, token, id, abort.signal);
  expect(response.headers.get("content-type")).toStartWith("text/event-stream");
  const reader = response.body!.getReader();
  let seen = "";
  while (!seen.includes("notifications/subscriptions/acknowledged")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`stream ${id} ended before its acknowledgment: ${seen}`);
    seen += new TextDecoder().decode(value);
  }
  const stream = { close: () => abort.abort() };
  streams.push(stream);
  return stream;
}

/** The JSON-RPC error a refused listen answers with. */
async function refusal(service: TestService, token: string, id: number): Promise<Json> {
  const response = await listenRequest(service, token, id);
  expect(response.headers.get("content-type")).toStartWith("application/json");
  const body = (await response.json()) as Json;
  expect(body.result).toBeUndefined();
  return body.error as Json;
}

async function openMany(service: TestService, token: string, count: number, firstId = 1): Promise<OpenStream[]> {
  const opened: OpenStream[] = [];
  // In groups, so a loaded machine is not asked for a hundred connections at once.
  for (let at = 0; at < count; at += 20) {
    const group = Array.from({ length: Math.min(20, count - at) }, (_, index) => openStream(service, token, firstId + at + index));
    opened.push(...(await Promise.all(group)));
  }
  return opened;
}

describe("listen streams per user", () => {
  test("100 streams are open at once; the 101st is refused naming the limit; another user still opens one", async () => {
    const service = await startTestService();
    services.push(service);
    const alice = await devAccessToken(service, "alice");
    await openMany(service, alice, 100);
    const error = await refusal(service, alice, 101);
    expect(error.code).toBe(-32600);
    expect(error.message).toStartWith("limit_exceeded: you already have 100 subscriptions/listen streams open");
    expect(error.message).toContain("MCP_MAX_LISTEN_STREAMS_PER_USER");
    expect(error.data).toEqual({ code: "limit_exceeded", limit: 100, current: 100, setting: "MCP_MAX_LISTEN_STREAMS_PER_USER" });
    await openStream(service, await devAccessToken(service, "bob"), 1);
  }, 90_000);

  test("with MCP_MAX_LISTEN_STREAMS_PER_USER=3 the fourth is refused, and a closed stream frees its slot", async () => {
    const service = await startTestService({ MCP_MAX_LISTEN_STREAMS_PER_USER: "3" });
    services.push(service);
    const carol = await devAccessToken(service, "carol");
    const [first] = await openMany(service, carol, 3);
    const error = await refusal(service, carol, 4);
    expect([error.code, error.data?.limit]).toEqual([-32600, 3]);
    expect(error.message).toContain("you already have 3 subscriptions/listen streams open");
    first!.close();
    // The server learns of the close when the connection goes; then a new stream is accepted.
    let reopened: OpenStream | undefined;
    await waitUntil(async () => {
      const response = await listenRequest(service, carol, 5);
      if (!response.headers.get("content-type")?.startsWith("text/event-stream")) {
        await response.arrayBuffer();
        return false;
      }
      const abort = response.body!;
      reopened = { close: () => void abort.cancel().catch(() => undefined) };
      streams.push(reopened);
      return true;
    }, "a listen stream accepted once the first of carol's three was closed", 30_000);
    expect(reopened).toBeDefined();
  }, 60_000);

  test("a value above 100 is refused at start-up, naming the variable", async () => {
    const { loadConfig } = await import("../src/config.ts");
    expect(() => loadConfig({ MCP_MAX_LISTEN_STREAMS_PER_USER: "101" })).toThrow("MCP_MAX_LISTEN_STREAMS_PER_USER: must be at most 100");
    expect(loadConfig({}).mcpMaxListenStreamsPerUser).toBe(100);
  });
});
