/**
 * A 2025 session's everyday request (a plain JSON-RPC request) is answered beside the SDK transport
 * (`src/mcp/session-transport.ts`); a client must not be able to tell. Checked against the SDK
 * transport's own answer to the same call, on one SQLite process and on three PostgreSQL replicas
 * behind a round-robin balancer: the same headers and SSE framing (a priming event with an id and
 * `retry`, then the answer with an id), the answer resumable with `Last-Event-ID` on another replica,
 * notifications sent during the call streamed before its result, and every request the SDK would
 * refuse still refused by it.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rawSession, sseEvents, startDeployment, type DeploymentKind, type McpDeployment, type RawSession, type SseEvent } from "./support/mcp-deployments.ts";
import { waitFor } from "./support/wait.ts";
import { Server, WebStandardStreamableHTTPServerTransport, type JSONRPCMessage } from "@modelcontextprotocol/server";
import { SessionTransport } from "../src/mcp/session-transport.ts";

type Message = { id?: unknown; method?: string; params?: { level?: string; logger?: string }; result?: { structuredContent?: Record<string, unknown>; isError?: boolean } };

const messageOf = (event: SseEvent) => JSON.parse(event.data) as Message;

async function allEvents(response: Response, what: string): Promise<SseEvent[]> {
  const events = sseEvents(response);
  const seen: SseEvent[] = [];
  for (let event = await waitFor(events.next(), 60_000, what); event; event = await waitFor(events.next(), 60_000, what)) seen.push(event);
  return seen;
}

const streamHeaders = (response: Response) => ({
  status: response.status,
  contentType: response.headers.get("content-type"),
  cacheControl: response.headers.get("cache-control"),
  accelBuffering: response.headers.get("x-accel-buffering"),
  sessionId: response.headers.get("mcp-session-id"),
});

/** An outline whose import logs a warning and an info message to the client. */
const outline = ["# Fire safety", "## Basics", "### Exits", "![Evacuation map](./map.png)", "", "- [x] The stairs", "- [ ] The lift", "", "```{.shell}", "echo drill", "```"].join("\n");

for (const kind of ["sqlite", "replicas"] as DeploymentKind[]) {
  describe(`a plain request in a 2025 session (${kind === "sqlite" ? "one SQLite process" : "three PostgreSQL replicas behind a round-robin balancer"})`, () => {
    let deployment: McpDeployment;
    let alice: RawSession;
    let courseId: string;
    const replica = (index: number) => `${deployment.replicaUrls[index % deployment.replicaUrls.length]}/mcp`;

    beforeAll(async () => {
      deployment = await startDeployment(kind);
      alice = await rawSession(replica(0), await deployment.token("alice"), "2025-11-25");
      courseId = String((await alice.call("create_course", { title: "Plain requests", modules: [{ title: "M", lessons: [{ title: "L" }] }] })).id);
    }, 120_000);

    afterAll(async () => {
      await deployment?.stop();
    });

    test("is answered with the SDK transport's headers and framing, and the same result", async () => {
      // A progress token makes the request one the SDK transport answers itself.
      const viaSdk = await alice.post("tools/call", { name: "get_course", arguments: { courseId }, _meta: { progressToken: "through-the-sdk" } }, replica(0));
      const plain = await alice.post("tools/call", { name: "get_course", arguments: { courseId } }, replica(0));
      expect(streamHeaders(plain)).toEqual(streamHeaders(viaSdk));
      expect(streamHeaders(plain)).toMatchObject({ status: 200, contentType: "text/event-stream", sessionId: alice.sessionId });
      const [sdkEvents, plainEvents] = [await allEvents(viaSdk, "the SDK's answer"), await allEvents(plain, "the plain answer")];
      const shape = (events: SseEvent[]) => events.map((event) => ({ hasId: /^[1-9][0-9]*$/.test(event.id ?? ""), retry: event.retry, event: event.event, empty: event.data === "" }));
      expect(shape(plainEvents)).toEqual(shape(sdkEvents));
      expect(shape(plainEvents)).toEqual([
        { hasId: true, retry: sdkEvents[0]!.retry, event: undefined, empty: true },
        { hasId: true, retry: undefined, event: "message", empty: false },
      ]);
      expect(sdkEvents[0]!.retry).toBeGreaterThan(0);
      const [sdkAnswer, plainAnswer] = [messageOf(sdkEvents[1]!), messageOf(plainEvents[1]!)];
      expect(plainAnswer.result?.isError).toBeFalsy();
      expect(plainAnswer.result).toEqual(sdkAnswer.result!);
    }, 60_000);

    test("its answer is resumed from the priming event with Last-Event-ID on another replica", async () => {
      const plain = await alice.post("tools/call", { name: "get_course", arguments: { courseId } }, replica(0));
      const [priming, answer] = await allEvents(plain, "the plain answer");
      const resumed = await alice.stream(replica(1), priming!.id);
      expect(resumed.status).toBe(200);
      const replayed = (await allEvents(resumed, "the resumed stream")).filter((event) => event.data !== "");
      expect(replayed.map((event) => ({ id: event.id, data: event.data }))).toEqual([{ id: answer!.id, data: answer!.data }]);
    }, 60_000);

    test("notifications sent during the call are streamed before its result, each with an id, as the SDK transport sends them", async () => {
      const call = { name: "import_course", arguments: { content: outline, format: "markdown" } };
      const plain = await alice.post("tools/call", call, replica(0));
      expect(streamHeaders(plain)).toMatchObject({ status: 200, contentType: "text/event-stream" });
      const delivered = (await allEvents(plain, "the import's stream")).filter((event) => event.data !== "");
      const viaSdk = await alice.post("tools/call", { ...call, _meta: { progressToken: "through-the-sdk" } }, replica(0));
      const sdkDelivered = (await allEvents(viaSdk, "the SDK's import stream")).filter((event) => event.data !== "");
      const kinds = (events: SseEvent[]) => events.map(messageOf).map((message) => message.params?.level ?? (message.result ? "result" : message.method));
      expect(kinds(delivered)).toEqual(kinds(sdkDelivered));
      expect(kinds(delivered)).toEqual(["warning", "info", "result"]);
      expect(messageOf(delivered.at(-1)!).result?.isError).toBeFalsy();
      expect(delivered.every((event) => /^[1-9][0-9]*$/.test(event.id ?? ""))).toBe(true);
    }, 60_000);

    test("what the SDK transport would refuse is still refused by it", async () => {
      const body = JSON.stringify({ jsonrpc: "2.0", id: 900, method: "tools/call", params: { name: "get_course", arguments: { courseId } } });
      const jsonOnly = await fetch(replica(0), { method: "POST", headers: { ...alice.headers, Accept: "application/json" }, body });
      expect(jsonOnly.status).toBe(406);
      expect(((await jsonOnly.json()) as { error: { message: string } }).error.message).toContain("Not Acceptable");
      const unknownVersion = await fetch(replica(0), { method: "POST", headers: { ...alice.headers, "Mcp-Protocol-Version": "2024-01-01" }, body });
      expect(unknownVersion.status).toBe(400);
      expect(((await unknownVersion.json()) as { error: { message: string } }).error.message).toContain("Unsupported protocol version");
      const otherSession = await fetch(replica(0), { method: "POST", headers: { ...alice.headers, "Mcp-Session-Id": crypto.randomUUID() }, body });
      expect(otherSession.status).toBe(404);
    }, 60_000);
  });
}

describe("the session transport on its own", () => {
  test("a plain request goes to the server without the SDK transport; anything else goes through it", async () => {
    const sdk = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => "session-1" });
    const transport = new SessionTransport(sdk);
    const server = new Server({ name: "t", version: "1" }, { capabilities: {} });
    await server.connect(transport);
    const through: string[] = [];
    const handle = sdk.handleRequest.bind(sdk);
    sdk.handleRequest = (request, options) => {
      through.push(String((options?.parsedBody as { method?: string }).method));
      return handle(request, options);
    };
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const post = (body: Record<string, unknown>, extra: Record<string, string> = {}) => new Request("http://127.0.0.1/mcp", { method: "POST", headers: { ...headers, ...extra }, body: JSON.stringify(body) });
    const initialize = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "c", version: "1" } } };
    expect((await transport.handleRequest(post(initialize), { parsedBody: initialize })).status).toBe(200);
    const session = { "mcp-session-id": "session-1", "mcp-protocol-version": "2025-06-18" };
    const ping = { jsonrpc: "2.0", id: 1, method: "ping" };
    const answered = await transport.handleRequest(post(ping, session), { parsedBody: ping }, true);
    expect(await answered.text()).toBe('event: message\ndata: {"result":{},"jsonrpc":"2.0","id":1}\n\n');
    expect(through).toEqual(["initialize"]);
    // The same request, not marked plain, or with headers the SDK would refuse, is the SDK transport's.
    await (await transport.handleRequest(post({ ...ping, id: 2 }, session), { parsedBody: { ...ping, id: 2 } })).text();
    const refused = await transport.handleRequest(post({ ...ping, id: 3 }, { ...session, accept: "application/json" }), { parsedBody: { ...ping, id: 3 } }, true);
    expect(refused.status).toBe(406);
    expect(through).toEqual(["initialize", "ping", "ping"]);
    await transport.close();
  });
});

describe("a plain request whose answer takes long", () => {
  test("gets its stream opened (priming event, keep-alive) before the answer, which then arrives on it", async () => {
    const store = new Map<string, JSONRPCMessage>();
    const eventStore = {
      async storeEvent(streamId: string, message: JSONRPCMessage) {
        const id = String(store.size + 1);
        store.set(id, message);
        return `${id}`;
      },
      async replayEventsAfter() {
        return "";
      },
    };
    const sdk = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => "session-2", eventStore, retryInterval: 1000 });
    const transport = new SessionTransport(sdk, { eventStore, retryInterval: 1000 });
    const server = new Server({ name: "t", version: "1" }, { capabilities: { tools: {} } });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    server.setRequestHandler("tools/call", async () => {
      await released;
      return { content: [{ type: "text", text: "done" }] };
    });
    await server.connect(transport);
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const post = (body: Record<string, unknown>, extra: Record<string, string> = {}) => new Request("http://127.0.0.1/mcp", { method: "POST", headers: { ...headers, ...extra }, body: JSON.stringify(body) });
    const initialize = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } } };
    await (await transport.handleRequest(post(initialize), { parsedBody: initialize })).text();
    const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "slow", arguments: {} } };
    const answer = await waitFor(
      transport.handleRequest(post(call, { "mcp-session-id": "session-2", "mcp-protocol-version": "2025-11-25" }), { parsedBody: call }, true),
      60_000,
      "the slow call's stream to open before its answer",
    );
    expect(answer.headers.get("content-type")).toBe("text/event-stream");
    const events = sseEvents(answer);
    const priming = await waitFor(events.next(), 30_000, "the priming event");
    expect(priming).toMatchObject({ retry: 1000, data: "" });
    expect(priming?.id).toMatch(/^[0-9]+$/);
    release();
    const result = await waitFor(events.next(), 30_000, "the answer on the opened stream");
    expect(JSON.parse(result!.data)).toEqual({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "done" }] } });
    expect(await waitFor(events.next(), 30_000, "the stream's end")).toBeUndefined();
    await transport.close();
  }, 90_000);
});
