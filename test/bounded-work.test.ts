/**
 * Nothing freezes the server: while a large course is previewed or exported, /api/health keeps
 * answering. Proved by order of events, not by time: health requests are sent one after another from
 * the moment the long call is sent, and at least one for every two blocks of the course must be
 * answered before the long call's own answer arrives. A render that held the event loop would answer
 * only those that came before it started.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { startTestService, type TestService } from "./support/service.ts";

let service: TestService;
let alice: Agent;
let courseId: string;
const blockCount = 40;
/**
 * The renderer gives way at least once per heavy block, so a sliced render answers about one health
 * check per block (48 of 40 measured); rendering in one pass answered 7, all before it started.
 */
const answeredWhileRendering = blockCount / 2;

/** Markdown that is expensive to render: every few characters open and close an inline element (about 9 MB of HTML in all, under the largest result cap). */
const markupHeavy = "**bold** _it_ `code` [link](https://example.com/a) <tag> & ".repeat(1000);

beforeAll(async () => {
  // The preview is a resource read, bounded by the result cap: this test raises the cap to its maximum.
  service = await startTestService({ MCP_RESULT_MAX_BYTES: "10000000" });
  alice = await connectAgent(service, await devAccessToken(service, "heavy-alice"));
  const course = await alice.call("create_course", { title: "Heavy", modules: [{ title: "Module", lessons: [{ title: "One long lesson" }] }] });
  courseId = String(course.id);
  const lessonId = (course.modules as { lessons: { id: string }[] }[])[0]!.lessons[0]!.id;
  await alice.call("add_blocks", { courseId, lessonId, blocks: Array.from({ length: blockCount }, (_, index) => ({ type: "text", markdown: `${index} ${markupHeavy}` })) });
}, 60_000);

afterAll(async () => {
  await alice?.close();
  await service?.dispose();
});

/** Sends health checks one after another until `longCall` settles; returns how many were answered before it. */
async function healthAnsweredDuring(longCall: Promise<unknown>): Promise<{ answeredBefore: number; statuses: number[] }> {
  let settled = false;
  const finished = longCall.finally(() => (settled = true));
  let answeredBefore = 0;
  const statuses: number[] = [];
  while (!settled) {
    const response = await fetch(`${service.url}/api/health`);
    await response.arrayBuffer();
    statuses.push(response.status);
    if (!settled) answeredBefore++;
  }
  await finished;
  return { answeredBefore, statuses };
}

describe("long renders give way to other requests", () => {
  test("/api/health is answered while a large course preview is rendered", async () => {
    const preview = alice.client.readResource({ uri: `course://${courseId}/preview` });
    const { answeredBefore, statuses } = await healthAnsweredDuring(preview);
    const result = await preview;
    expect(String((result.contents[0] as { text?: string }).text)).toEndWith("</html>\n");
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(answeredBefore).toBeGreaterThanOrEqual(answeredWhileRendering);
  }, 60_000);

  test("/api/health is answered while a large course is packaged as SCORM", async () => {
    const exported = alice.call("export_course", { courseId, format: "scorm2004" });
    const { answeredBefore, statuses } = await healthAnsweredDuring(exported);
    expect((await exported).size).toBeGreaterThan(0);
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(answeredBefore).toBeGreaterThanOrEqual(answeredWhileRendering);
  }, 60_000);
});
