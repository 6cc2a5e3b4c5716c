/**
 * connect_lrs against learning record stores that misbehave slowly or at length (issue 43, "Bad input"),
 * served by Bun.serve in this test process, while /api/health and a second user's call are probed: a
 * slow store whose pages trickle in is read in full; a 50 MB answer, an endless chain of new `more`
 * links and a store that stops sending halfway through a page are each refused with a clear error naming
 * the LRS and saying nothing was stored, and nothing was; meanwhile the service keeps answering others.
 * (results-lrs.test.ts covers the Statement API itself, allowed hosts, redirects, errors and `more` loops.)
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestService, type TestService } from "./support/service.ts";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { assertResponsive, watchResponsiveness } from "./support/responsiveness.ts";
import { quizCourse, scriptedStatements } from "./support/results-statements.ts";
import { lrsLimits } from "../src/review/results/lrs-read.ts";

type Json = Record<string, unknown>;
type Course = Json & { id: string; version: number };

const secret = "slow-store-secret";
let service: TestService;
let alice: Agent;
let bob: Agent;
let bobCourse: string;
let lrs: ReturnType<typeof Bun.serve>;
let stored: Json[] = [];
let endlessPages = 0;
let stalledOpen = 0;

const encoder = new TextEncoder();
const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A page of the Statement API whose bytes arrive in small pieces, one piece every few milliseconds. */
function trickled(text: string, pieces: number): Response {
  const bytes = encoder.encode(text);
  const size = Math.ceil(bytes.byteLength / pieces);
  let at = 0;
  return new Response(
    new ReadableStream({
      async pull(controller) {
        // The store's slowness, not a wait of the test's.
        await tick(20);
        if (at >= bytes.byteLength) return controller.close();
        controller.enqueue(bytes.slice(at, at + size));
        at += size;
      },
    }),
    { headers: { "content-type": "application/json" } },
  );
}

beforeAll(async () => {
  lrs = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 0,
    fetch(request) {
      const url = new URL(request.url);
      if (request.headers.get("authorization") !== `Basic ${btoa(`key:${secret}`)}`) return new Response("no", { status: 401 });
      if (url.pathname === "/slow/statements") {
        const from = Number(url.searchParams.get("from") ?? "0");
        const next = from + 40 < stored.length ? `/slow/statements?from=${from + 40}` : "";
        return trickled(JSON.stringify({ statements: stored.slice(from, from + 40), more: next }), 25);
      }
      if (url.pathname === "/endless/statements") {
        // Always the same five statements, and always a more link it has never sent before.
        endlessPages += 1;
        return Response.json({ statements: stored.slice(0, 5), more: `/endless/statements?page=${endlessPages}` });
      }
      if (url.pathname === "/huge/statements") {
        let sent = 0;
        const chunk = encoder.encode(`{"statements":[${" ".repeat(1024 * 1024 - 16)}`);
        return new Response(new ReadableStream({ pull(controller) { if (sent++ >= 50) controller.close(); else controller.enqueue(chunk); } }), { headers: { "content-type": "application/json" } });
      }
      if (url.pathname === "/stalled/statements") {
        // Half a page, then nothing more: the connection stays open and silent.
        stalledOpen += 1;
        const half = JSON.stringify({ statements: stored.slice(0, 20), more: "" }).slice(0, 2000);
        let sent = false;
        return new Response(
          new ReadableStream({
            pull(controller) {
              if (sent) return new Promise<void>(() => {});
              sent = true;
              controller.enqueue(encoder.encode(half));
            },
          }),
          { headers: { "content-type": "application/json" } },
        );
      }
      return new Response("not found", { status: 404 });
    },
  });
  service = await startTestService({ LRS_ALLOWED_HOSTS: `127.0.0.1:${lrs.port}` });
  alice = await connectAgent(service, await devAccessToken(service, "alice"));
  bob = await connectAgent(service, await devAccessToken(service, "bob"));
  bobCourse = ((await bob.call("create_course", { title: "Bob's own course" })) as Course).id;
}, 60_000);

afterAll(async () => {
  await alice?.close();
  await bob?.close();
  await service?.dispose();
  lrs?.stop(true);
});

/** A fresh course, and the statements of its 30 scripted learners as the stores serve them. */
async function courseFor(): Promise<string> {
  const course = (await alice.call("create_course", quizCourse)) as Parameters<typeof scriptedStatements>[0];
  const base = Date.parse("2026-10-02T00:00:00Z");
  stored = scriptedStatements(course).map((statement, index) => ({ ...statement, stored: new Date(base + index * 1000).toISOString() }));
  return course.id;
}

const read = (courseId: string, path: string) => alice.callRaw("connect_lrs", { courseId, endpoint: `http://127.0.0.1:${lrs.port}/${path}/`, key: "key", secret });
const refusal = (result: Awaited<ReturnType<typeof read>>): string => (result.isError ? String((result.content[0] as { text?: string }).text) : "");
const storedIn = async (courseId: string): Promise<number> => (await alice.call("get_course_results", { courseId })).statements as number;

test("a slow store whose pages trickle in is read in full while /api/health and another user keep answering", async () => {
  const courseId = await courseFor();
  const seen = await watchResponsiveness(service, read(courseId, "slow"), { secondUser: () => bob.call("get_course", { courseId: bobCourse }) });
  assertResponsive(seen, 3000);
  expect(seen.outcome.ok).toBe(true);
  const result = seen.outcome.ok ? seen.outcome.value : null;
  expect(result?.isError).toBeFalsy();
  expect(result?.structuredContent).toMatchObject({ read: stored.length, added: stored.length, stored: stored.length, pages: Math.ceil(stored.length / 40) });
  expect(seen.health.answers).toBeGreaterThan(0);
  expect(seen.secondUser!.answers).toBeGreaterThan(0);
  expect(await storedIn(courseId)).toBe(stored.length);
}, 120_000);

test("a 50 MB answer is refused with a clear error while others are served, and nothing is stored", async () => {
  const courseId = await courseFor();
  const seen = await watchResponsiveness(service, read(courseId, "huge"), { secondUser: () => bob.call("get_course", { courseId: bobCourse }) });
  assertResponsive(seen, 3000);
  const message = seen.outcome.ok ? refusal(seen.outcome.value) : "";
  expect(message).toContain(`sent more than ${lrsLimits.maxAnswerBytes} bytes in one answer`);
  expect(message).toContain("Nothing was stored");
  expect(message).not.toContain(secret);
  expect(await storedIn(courseId)).toBe(0);
}, 120_000);

test(`an endless chain of new more links stops at ${lrsLimits.maxPages} pages with a clear error while others are served, and nothing is half-imported`, async () => {
  const courseId = await courseFor();
  endlessPages = 0;
  const seen = await watchResponsiveness(service, read(courseId, "endless"), { secondUser: () => bob.call("get_course", { courseId: bobCourse }) });
  assertResponsive(seen, 3000);
  const message = seen.outcome.ok ? refusal(seen.outcome.value) : "";
  expect(message).toContain(`needed more than ${lrsLimits.maxPages} pages`);
  expect(message).toContain("Nothing was stored");
  expect(endlessPages).toBe(lrsLimits.maxPages);
  // Every page held five good statements, and not one of them was kept.
  expect(await storedIn(courseId)).toBe(0);
}, 180_000);

test(`a store that goes silent halfway through a page is given up after ${lrsLimits.requestMs / 1000} s with a clear error, others served meanwhile, nothing stored`, async () => {
  const courseId = await courseFor();
  const seen = await watchResponsiveness(service, read(courseId, "stalled"), { secondUser: () => bob.call("get_course", { courseId: bobCourse }) });
  assertResponsive(seen, 3000);
  expect(stalledOpen).toBe(1);
  const message = seen.outcome.ok ? refusal(seen.outcome.value) : String(seen.outcome.error);
  expect(message).toContain("The LRS");
  expect(message).toContain(`${lrsLimits.requestMs / 1000} s`);
  expect(message).toContain("Nothing was stored");
  expect(await storedIn(courseId)).toBe(0);
}, 120_000);
