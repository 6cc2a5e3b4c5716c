/**
 * Markdown outlines and JSON exports are read within bounds through the real server's import_course:
 * JSON nesting is checked flat before any parser or schema recurses into it; Markdown is parsed section
 * by section (block structure only, inline markup only where short), with its length, the length of one
 * unsplittable section and the nesting of lists and quotes limited. Each worst shape answers its
 * specific error while /api/health keeps answering from another connection, and nothing is written.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { devAccessToken } from "./support/dev-login.ts";
import { probeHealthWhile } from "./support/health-probe.ts";
import { connectAgent, type Agent, type AgentToolError } from "./support/mcp-client.ts";
import { startTestService, type TestService } from "./support/service.ts";

let service: TestService;
let alice: Agent;

beforeAll(async () => {
  service = await startTestService();
  alice = await connectAgent(service, await devAccessToken(service, "alice"));
}, 60_000);

afterAll(async () => {
  await alice?.close();
  await service?.dispose();
});

async function courseCount(): Promise<number> {
  return ((await alice.call("list_courses", { limit: 100 })).courses as unknown[]).length;
}

/** import_course's tool error for `args`, with health probed while it runs and no course written. */
async function refusedWhileHealthAnswers(args: Record<string, unknown>, work: "quick" | "long" = "quick"): Promise<AgentToolError> {
  const before = await courseCount();
  const { outcome, answeredWhilePending, answered } = await probeHealthWhile(service.url, alice.fail("import_course", args));
  // Only long work can be overlapped; a quick refusal must still leave health answering.
  expect(work === "long" ? answeredWhilePending : answered).toBeGreaterThan(0);
  if (!outcome.ok) throw outcome.error;
  expect(await courseCount()).toBe(before);
  return outcome.value;
}

const outline = (body: string) => `# Course\n\n## Module\n\n### Lesson\n\n${body}`;

describe("JSON", () => {
  test("an export nesting a million arrays deep is refused at depth 64, before it is parsed", async () => {
    const depth = 1_000_000;
    const content = `{"format":"course-authoring-service/course","formatVersion":1,"course":{"title":"Deep","tags":${"[".repeat(depth)}${"]".repeat(depth)}}}`;
    const error = await refusedWhileHealthAnswers({ format: "json", content });
    expect(error.code).toBe("limit_exceeded");
    expect(error.message).toContain("content: the JSON nests objects and arrays more than 64 deep");
    expect(error.details).toMatchObject({ field: "content", limit: "maxDepth", max: 64 });
  }, 60_000);

  test("deep objects inside a block are refused the same way", async () => {
    let block = '"end"';
    for (let level = 0; level < 100_000; level++) block = `{"a":${block}}`;
    const content = `{"format":"course-authoring-service/course","formatVersion":1,"course":{"title":"Deep","modules":[{"title":"M","lessons":[{"title":"L","blocks":[{"type":"text","markdown":"x","extra":${block}}]}]}]}}`;
    const error = await refusedWhileHealthAnswers({ content });
    expect(error.code).toBe("limit_exceeded");
    expect(error.message).toContain("(maxDepth)");
  }, 60_000);
});

describe("Markdown", () => {
  test("quotes nested 50,000 deep are refused at the nesting limit", async () => {
    const error = await refusedWhileHealthAnswers({ format: "markdown", content: outline(`${"> ".repeat(50_000)}deep\n`) });
    expect(error.code).toBe("limit_exceeded");
    expect(error.message).toContain("lists and quotes nest more than 32 levels of markup deep at line 7");
    expect(error.details).toMatchObject({ limit: "maxNesting" });
  }, 60_000);

  test("lists nested by indentation are refused at the nesting limit", async () => {
    const lists = Array.from({ length: 300 }, (_, level) => `${"  ".repeat(level)}- item ${level}`).join("\n");
    const error = await refusedWhileHealthAnswers({ format: "markdown", content: outline(`${lists}\n`) });
    expect(error.code).toBe("limit_exceeded");
    expect(error.details).toMatchObject({ limit: "maxNesting" });
  }, 60_000);

  test("an outline over 2 MiB is refused by length before it is parsed", async () => {
    const error = await refusedWhileHealthAnswers({ format: "markdown", content: outline("Words and more words.\n\n".repeat(100_000)) });
    expect(error.code).toBe("limit_exceeded");
    expect(error.details).toMatchObject({ limit: "maxLength" });
  }, 60_000);

  test("one list of 300 KB (a section that cannot be split) is refused, naming its lines", async () => {
    const error = await refusedWhileHealthAnswers({ format: "markdown", content: outline(`${"- an item of a very long list\n".repeat(10_000)}`) });
    expect(error.code).toBe("limit_exceeded");
    expect(error.message).toContain("lines 1 to 10007 hold");
    expect(error.details).toMatchObject({ limit: "maxSectionLength", line: 1 });
  }, 60_000);

  test("an outline just under the limit is parsed section by section while health answers: its 25,000 paragraphs pass the block limit", async () => {
    const paragraphs = Array.from({ length: 25_000 }, (_, index) => `${index % 400 === 0 ? `### Lesson ${index / 400}\n\n` : ""}Paragraph ${index}: *emphasis*, a [link](https://example.org/${index}), \`code\`.`);
    const content = `# Course\n\n## Module\n\n${paragraphs.join("\n\n")}`;
    expect(content.length).toBeGreaterThan(1_800_000);
    expect(content.length).toBeLessThan(2 * 1024 * 1024);
    const error = await refusedWhileHealthAnswers({ format: "markdown", content }, "long");
    expect(error.code).toBe("limit_exceeded");
    expect(error.message).toContain("LIMIT_COURSE_BLOCKS");
  }, 120_000);

  test("120,000 unmatched brackets in a paragraph are read as text at block speed, then refused as too long for one text block", async () => {
    const error = await refusedWhileHealthAnswers({ format: "markdown", content: outline(`${"[".repeat(120_000)}\n`) });
    expect(error.code).toBe("invalid_arguments");
    expect(error.message).toContain("blocks[0].markdown (line 7, in lesson \"Lesson\"): must be at most 100000 bytes");
  }, 60_000);
});
