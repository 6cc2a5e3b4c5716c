/**
 * Resumable MCP event streams, on one SQLite process and on three PostgreSQL replicas behind a
 * round-robin balancer: every stream opens with a priming event (an id and `retry`), every event has
 * an id, and a client that lost a stream mid-export reconnects with `Last-Event-ID` (to another replica)
 * and gets every progress notification and the result it missed, none twice. Another user's event id
 * reveals nothing. The official SDK client resumes by itself. While the event store (PostgreSQL) is
 * out, opening or resuming a stream answers 503 with Retry-After, as the database outage does.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServiceWithCuttableDatabase, type ServiceWithCuttableDatabase } from "./support/database-outage.ts";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult, Progress } from "@modelcontextprotocol/sdk/types.js";
import { rawSession, sseEvents, startDeployment, type DeploymentKind, type McpDeployment, type RawSession, type SseEvent } from "./support/mcp-deployments.ts";
import { waitFor } from "./support/wait.ts";
import type { TcpRelay } from "./support/tcp-proxy.ts";
import type { TestIssuer } from "./support/test-issuer.ts";
import type { TestService } from "./support/service.ts";

type Json = Record<string, unknown>;

/** A course whose HTML package has enough files for the export to send a run of progress notifications. */
const exportedCourse = {
  title: "Resumable export",
  modules: [1, 2, 3, 4, 5].map((module) => ({
    title: `Module ${module}`,
    lessons: [1, 2, 3, 4, 5, 6].map((lesson) => ({
      title: `Lesson ${module}.${lesson}`,
      blocks: [{ type: "text", markdown: `Lesson ${module}.${lesson}: ${"Keep the exits clear. ".repeat(40)}` }],
    })),
  })),
};

const messageOf = (event: SseEvent) => JSON.parse(event.data) as { id?: unknown; method?: string; params?: { progress?: number; total?: number }; result?: CallToolResult };

for (const kind of ["sqlite", "replicas"] as DeploymentKind[]) {
  describe(`resumable streams (${kind === "sqlite" ? "one SQLite process" : "three PostgreSQL replicas behind a round-robin balancer"})`, () => {
    let deployment: McpDeployment;
    let alice: RawSession;
    let courseId: string;
    /** An event id of alice's cut export stream, for the isolation test. */
    let aliceEventId: string | undefined;
    const replica = (index: number) => `${deployment.replicaUrls[index % deployment.replicaUrls.length]}/mcp`;

    beforeAll(async () => {
      deployment = await startDeployment(kind);
      alice = await rawSession(replica(0), await deployment.token("alice"));
      courseId = String((await alice.call("create_course", exportedCourse)).id);
    }, 120_000);

    afterAll(async () => {
      await deployment?.stop();
    });

    test("a POST stream and the standalone stream each open with a priming event: an id, retry and no data", async () => {
      const [priming] = alice.initializeEvents;
      expect(priming?.id).toMatch(/^[1-9][0-9]*$/);
      expect(priming?.retry).toBeGreaterThan(0);
      expect(priming?.data).toBe("");
      // Every message after it has an id too.
      expect(alice.initializeEvents.slice(1).every((event) => event.id !== undefined && event.data !== "")).toBe(true);

      const standalone = await alice.stream(replica(1));
      expect(standalone.status).toBe(200);
      const events = sseEvents(standalone);
      const first = await waitFor(events.next(), 20_000, "the standalone stream's priming event");
      expect(first?.id).toMatch(/^[1-9][0-9]*$/);
      expect(first?.retry).toBeGreaterThan(0);
      expect(first?.data).toBe("");
      await events.cut();
    }, 30_000);

    test("a stream cut mid-export and resumed with Last-Event-ID on another replica delivers every progress notification and the result, none twice", async () => {
      const started = await alice.post("tools/call", { name: "export_course", arguments: { courseId, format: "scorm2004" }, _meta: { progressToken: "cut-export" } }, replica(0));
      expect(started.status).toBe(200);
      const before = sseEvents(started);
      const seen: SseEvent[] = [];
      // Read up to the first progress notification, then drop the connection.
      for (;;) {
        const event = await waitFor(before.next(), 60_000, "the export's first progress notification");
        if (!event) throw new Error("the export stream ended before any progress notification");
        seen.push(event);
        if (event.data && messageOf(event).method === "notifications/progress") break;
      }
      await before.cut();
      const lastSeen = seen[seen.length - 1]!.id!;
      aliceEventId = lastSeen;

      const resumed = await alice.stream(replica(1), lastSeen);
      expect(resumed.status).toBe(200);
      const after = sseEvents(resumed);
      // The resumed stream ends by itself once the response is delivered.
      for (let event = await waitFor(after.next(), 120_000, "the resumed export stream"); event; event = await waitFor(after.next(), 120_000, "the resumed export stream")) seen.push(event);

      const delivered = seen.filter((event) => event.data !== "");
      const ids = delivered.map((event) => event.id);
      expect(ids.every((id) => id !== undefined)).toBe(true);
      expect(new Set(ids).size).toBe(ids.length);
      const progress = delivered.map(messageOf).filter((message) => message.method === "notifications/progress");
      const total = progress[0]!.params!.total!;
      expect(total).toBeGreaterThan(3);
      expect(progress.map((message) => message.params!.progress)).toEqual(Array.from({ length: total }, (_, index) => index + 1));
      const answers = delivered.map(messageOf).filter((message) => message.result !== undefined);
      expect(answers).toHaveLength(1);
      expect(answers[0]!.result!.isError).toBeFalsy();
      expect(String((answers[0]!.result!.structuredContent as Json).uri)).toStartWith(`course://${courseId}/exports/`);
      // The result came last.
      expect(messageOf(delivered[delivered.length - 1]!).result).toBeDefined();
    }, 180_000);

    test("another user's Last-Event-ID reveals nothing: answered like an id that never existed", async () => {
      expect(aliceEventId).toBeDefined();
      const mallory = await rawSession(replica(2), await deployment.token("mallory"));
      const foreign = await mallory.stream(replica(2), aliceEventId);
      const madeUp = await mallory.stream(replica(2), "987654321987");
      expect(foreign.status).toBe(404);
      expect(madeUp.status).toBe(404);
      expect(await foreign.text()).toBe(await madeUp.text());
      // Nor can mallory present alice's session with it.
      const hijack = await alice.stream(replica(1), aliceEventId, await deployment.token("mallory"));
      expect(hijack.status).toBe(404);
      expect(await hijack.text()).not.toContain(courseId);
      // Alice herself may resume from it.
      const own = await alice.stream(replica(2), aliceEventId);
      expect(own.status).toBe(200);
      await own.body?.cancel();
    }, 60_000);

    test("the SDK client resumes a cut export stream by itself through the balancer and misses nothing", async () => {
      let cut = false;
      // Passes the export's stream through up to its first progress notification, then fails it as a dropped connection does.
      const cuttingFetch = async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
        const response = await fetch(url, init);
        if (cut || init?.method !== "POST" || !String(init.body).includes('"export_course"')) return response;
        cut = true;
        const reader = response.body!.getReader();
        const decoder = new TextDecoder();
        const encoder = new TextEncoder();
        let text = "";
        const body = new ReadableStream<Uint8Array>({
          async pull(controller) {
            const { done, value } = await reader.read();
            if (done) {
              controller.enqueue(encoder.encode(text));
              return controller.close();
            }
            text += decoder.decode(value, { stream: true });
            const progressAt = text.indexOf("notifications/progress");
            if (progressAt < 0) return;
            const end = text.indexOf("\n\n", progressAt);
            if (end < 0) return;
            controller.enqueue(encoder.encode(text.slice(0, end + 2)));
            await reader.cancel();
            controller.error(new TypeError("network connection lost"));
          },
        });
        return new Response(body, { status: response.status, headers: response.headers });
      };
      const client = new Client({ name: "resuming-agent", version: "1.0.0" });
      const transport = new StreamableHTTPClientTransport(new URL(deployment.mcpUrl), {
        requestInit: { headers: { Authorization: `Bearer ${await deployment.token("alice")}` } },
        fetch: cuttingFetch,
      });
      await client.connect(transport);
      try {
        await client.listTools();
        const progress: Progress[] = [];
        const result = (await client.callTool({ name: "export_course", arguments: { courseId, format: "scorm2004" } }, undefined, {
          onprogress: (update) => progress.push(update),
          timeout: 120_000,
        })) as CallToolResult;
        expect(cut).toBe(true);
        expect(result.isError).toBeFalsy();
        expect(String((result.structuredContent as Json).uri)).toStartWith(`course://${courseId}/exports/`);
        const total = progress[0]!.total!;
        expect(progress.map((update) => update.progress)).toEqual(Array.from({ length: total }, (_, index) => index + 1));
      } finally {
        await transport.terminateSession().catch(() => undefined);
        await client.close();
      }
    }, 180_000);
  });
}

describe("an event store outage", () => {
  let outage: ServiceWithCuttableDatabase;
  let relay: TcpRelay;
  let issuer: TestIssuer;
  let service: TestService;

  beforeAll(async () => {
    outage = await startServiceWithCuttableDatabase();
    ({ relay, issuer, service } = outage);
  }, 60_000);

  afterAll(async () => {
    await outage?.stop();
  });

  test("resuming or opening a stream while the event store is out answers 503 with Retry-After, and works again after", async () => {
    const alice = await rawSession(service.mcpUrl, await issuer.sign({ sub: "alice" }));
    const primingId = alice.initializeEvents[0]!.id!;
    await relay.cut();
    for (const lastEventId of [primingId, undefined]) {
      const refused = await alice.stream(service.mcpUrl, lastEventId);
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("5");
      expect(((await refused.json()) as { error: string }).error).toBe("temporarily_unavailable");
    }
    await relay.restore();
    // The service's own probe notices the database is back; a generous limit names what it waited for.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const resumed = await alice.stream(service.mcpUrl, primingId);
      if (resumed.status === 200) {
        await resumed.body?.cancel();
        break;
      }
      await resumed.body?.cancel();
      if (Date.now() > deadline) throw new Error(`resuming still answered ${resumed.status} 30 s after the database came back`);
      await Bun.sleep(250);
    }
  }, 60_000);
});
