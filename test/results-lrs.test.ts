/**
 * connect_lrs against a small learning record store this test serves with Bun.serve: the Statement API
 * read page by page (activity + related_activities, limit, since, more, the version header, Basic auth),
 * and hostile stores — a host not allowed (refused before any connection), a loop of more links, a
 * redirect to another host, a 50 MB answer, an error — each refused or stopped with nothing half-stored,
 * and the secret in no answer. The same statements as the file import give the same figures.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { freePort, startTestService, type TestService } from "./support/service.ts";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { quizCourse, scriptedStatements } from "./support/results-statements.ts";

type Json = Record<string, unknown>;
type Course = Json & { id: string; version: number; modules: (Json & { id: string; lessons: (Json & { id: string; blocks: (Json & { id: string })[] })[] })[] };

const secret = "s3cr3t-never-shown";
let service: TestService;
let alice: Agent;
let course: Course;
let lrs: ReturnType<typeof Bun.serve>;
let stored: Json[] = [];
const requests: { path: string; query: URLSearchParams; auth: string | null; version: string | null }[] = [];
let strangerHits = 0;
let stranger: ReturnType<typeof Bun.serve>;

function page(url: URL): Response {
  const start = Number(url.searchParams.get("from") ?? "0");
  const limit = Math.min(Number(url.searchParams.get("limit") ?? "100"), 100);
  const since = url.searchParams.get("since");
  const matching = stored.filter((statement) => !since || String(statement.stored) > since);
  const slice = matching.slice(start, start + limit);
  const next = start + limit < matching.length ? `${url.pathname}?${new URLSearchParams({ ...Object.fromEntries(url.searchParams), from: String(start + limit) })}` : "";
  return Response.json({ statements: slice, more: next });
}

beforeAll(async () => {
  lrs = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(request) {
      const url = new URL(request.url);
      requests.push({ path: url.pathname, query: url.searchParams, auth: request.headers.get("authorization"), version: request.headers.get("x-experience-api-version") });
      if (request.headers.get("authorization") !== `Basic ${btoa(`key:${secret}`)}`) return new Response("no", { status: 401 });
      if (url.pathname === "/xapi/statements") return page(url);
      if (url.pathname === "/loop/statements") return Response.json({ statements: stored.slice(0, 5), more: "/loop/statements?again=1" });
      if (url.pathname === "/redirect/statements") return new Response(null, { status: 302, headers: { location: `http://localhost:${stranger.port}/xapi/statements` } });
      if (url.pathname === "/error/statements") return new Response("down", { status: 503 });
      if (url.pathname === "/huge/statements") {
        const chunk = new TextEncoder().encode(" ".repeat(1024 * 1024));
        let sent = 0;
        return new Response(new ReadableStream({ pull(controller) { if (sent++ >= 50) controller.close(); else controller.enqueue(chunk); } }), { headers: { "content-type": "application/json" } });
      }
      return new Response("not found", { status: 404 });
    },
  });
  stranger = Bun.serve({ port: await freePort(), hostname: "127.0.0.1", fetch: () => { strangerHits += 1; return Response.json({ statements: [], more: "" }); } });
  service = await startTestService({ LRS_ALLOWED_HOSTS: `127.0.0.1:${lrs.port}` });
  alice = await connectAgent(service, await devAccessToken(service, "alice"));
  course = (await alice.call("create_course", quizCourse)) as Course;
  const base = Date.parse("2026-10-02T00:00:00Z");
  stored = scriptedStatements(course).map((statement, index) => ({ ...statement, stored: new Date(base + index * 1000).toISOString() }));
});

afterAll(async () => {
  await alice?.close();
  await service?.dispose();
  lrs?.stop(true);
  stranger?.stop(true);
});

test("an LRS host not in LRS_ALLOWED_HOSTS is refused before any connection, loopback included", async () => {
  const refused = await alice.fail("connect_lrs", { courseId: course.id, endpoint: `http://localhost:${stranger.port}/xapi/`, key: "key", secret });
  expect(refused.code).toBe("forbidden");
  expect(refused.message).toContain("LRS_ALLOWED_HOSTS");
  expect(refused.message).not.toContain(secret);
  expect(strangerHits).toBe(0);
});

test("the Statement API is read page by page into the results, with the version header and Basic auth; since resumes", async () => {
  const raw = await alice.callRaw("connect_lrs", { courseId: course.id, endpoint: `http://127.0.0.1:${lrs.port}/xapi`, key: "key", secret });
  expect(JSON.stringify(raw)).not.toContain(secret);
  const read = raw.structuredContent as Json;
  expect(read).toMatchObject({ read: stored.length, added: stored.length, stored: stored.length, host: `127.0.0.1:${lrs.port}` });
  expect(read.pages as number).toBeGreaterThan(1);
  expect(read.since).toBe(stored.at(-1)?.stored);
  const first = requests.find((request) => request.path === "/xapi/statements");
  expect(first?.version).toBe("1.0.3");
  expect(first?.query.get("activity")).toBe(`urn:course-authoring-service:course:${course.id}`);
  expect(first?.query.get("related_activities")).toBe("true");
  expect(first?.query.get("limit")).toBe("500");
  const results = await alice.call("get_course_results", { courseId: course.id });
  expect(results.course).toMatchObject({ learners: 30 });
  // Resuming from since brings nothing new and stores nothing twice.
  const resumed = await alice.call("connect_lrs", { courseId: course.id, endpoint: `http://127.0.0.1:${lrs.port}/xapi/`, key: "key", secret, since: read.since });
  expect(resumed).toMatchObject({ read: 0, added: 0, stored: stored.length });
  expect(requests.at(-1)?.query.get("since")).toBe(String(read.since));
});

test("hostile stores: wrong secret, error, redirect to another host, 50 MB answer are refused with nothing stored; a more loop stops and says so", async () => {
  const empty = (await alice.call("create_course", quizCourse)) as Course;
  const at = (path: string) => `http://127.0.0.1:${lrs.port}/${path}/`;
  const wrong = await alice.fail("connect_lrs", { courseId: empty.id, endpoint: at("xapi"), key: "key", secret: "guess" });
  expect(wrong.code).toBe("forbidden");
  expect(wrong.message).not.toContain("guess");
  expect((await alice.fail("connect_lrs", { courseId: empty.id, endpoint: at("error"), key: "key", secret })).message).toContain("503");
  const redirected = await alice.fail("connect_lrs", { courseId: empty.id, endpoint: at("redirect"), key: "key", secret });
  expect(redirected.message).toContain("another host");
  expect(strangerHits).toBe(0);
  const huge = await alice.fail("connect_lrs", { courseId: empty.id, endpoint: at("huge"), key: "key", secret });
  expect(huge.code).toBe("invalid_state");
  expect(huge.message).toContain("bytes");
  expect((await alice.call("get_course_results", { courseId: empty.id })).statements).toBe(0);
  const looped = await alice.call("connect_lrs", { courseId: empty.id, endpoint: at("loop"), key: "key", secret });
  expect(String(looped.stoppedEarly)).toContain("loop");
  expect(looped.pages).toBe(2);
});
