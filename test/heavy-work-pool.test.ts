/**
 * Heavy work runs off the request loop (issue 39, item 1): parsing an imported file happens on a worker
 * thread while `/api/health` and a second user's `get_course` keep answering; a job past its CPU budget
 * (`WORKER_JOB_CPU_MS`, tiny here) is stopped, the caller is told which limit it hit, nothing is written,
 * and the service and the pool keep working; errors a parser throws on its thread arrive as the same
 * tool errors as before.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { zipSync } from "fflate";
import { join } from "node:path";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { assertResponsive, watchResponsiveness } from "./support/responsiveness.ts";
import { startTestService, type TestService } from "./support/service.ts";

type Json = Record<string, unknown>;

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const utf8 = (text: string) => new TextEncoder().encode(text);

/**
 * A legal Word document whose body is one heading, one paragraph and `emptyParagraphs` empty ones: a
 * long parse (every paragraph is read) that writes almost nothing. An empty paragraph with properties
 * (`<w:pPr>`) costs the parser several times more than a bare `<w:p/>`, while every count stays under
 * the Word caps (200,000 paragraphs, 1,000,000 runs).
 */
function longWordDocument(emptyParagraphs: number, empty = "<w:p/>"): Uint8Array {
  const w = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
  const body = [
    '<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Long module</w:t></w:r></w:p>',
    '<w:p><w:pPr><w:pStyle w:val="Heading2"/></w:pPr><w:r><w:t>Long lesson</w:t></w:r></w:p>',
    "<w:p><w:r><w:t>Only this paragraph has words.</w:t></w:r></w:p>",
    empty.repeat(emptyParagraphs),
  ].join("");
  return zipSync({
    "[Content_Types].xml": utf8(
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    "_rels/.rels": utf8(
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
    // Stored, not deflated: so repetitive a part would pass the zip reader's bomb ratio.
    "word/document.xml": [utf8(`<?xml version="1.0" encoding="UTF-8"?><w:document ${w}><w:body>${body}</w:body></w:document>`), { level: 0 }],
  });
}

/** These tests wait for seconds of parsing or rendering on a shared 2-core machine, and one starts a whole process. */
const slowTestMs = 120_000;

const oneQuestionGift = "::Q1:: What is 2 + 2? {=4 ~3 ~5}\n";

/**
 * Text just under a block's 100 KB, dense with inline markup (emphasis, links, code) and words that do not
 * repeat, so it costs real rendering and does not compress to nothing. (Tables are capped at render now.)
 */
function denseMarkdown(seed: number): string {
  let state = seed;
  const word = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state.toString(36).slice(0, 6);
  };
  const parts: string[] = [];
  let length = 0;
  while (length < 95_000) {
    const part = `**${word()}** _${word()}_ [${word()}](https://example.org/${word()}) \`${word()}\` ${word()}.`;
    parts.push(part);
    length += part.length + 1;
  }
  return parts.join(" ");
}

/** A course of many such blocks: its HTML export spends seconds rendering them. */
async function createLongTablesCourse(agent: Agent): Promise<string> {
  const lessons = [0, 1, 2].map((lesson) => ({ title: `Dense ${lesson + 1}`, blocks: [0, 1, 2, 3, 4, 5].map((block) => ({ type: "text", markdown: denseMarkdown(lesson * 10 + block + 1) })) }));
  const course = await agent.call("create_course", { title: "Long tables", modules: [{ title: "Dense text", lessons }] });
  return course.id as string;
}

describe("a pool with the default budget", () => {
  let service: TestService;
  let alice: Agent;
  let bob: Agent;
  let bobsCourse: string;

  beforeAll(async () => {
    service = await startTestService({ WORKER_POOL_SIZE: "1" });
    alice = await connectAgent(service, await devAccessToken(service, "alice"));
    bob = await connectAgent(service, await devAccessToken(service, "bob"));
    bobsCourse = (await bob.call("create_course", { title: "Bob's own course" })).id as string;
  }, slowTestMs);

  afterAll(async () => {
    await alice?.close();
    await bob?.close();
    await service?.dispose();
  });

  test("a Word import of 190,000 paragraphs (just under the 200,000 cap) is parsed on a worker: health and a second user's get_course have no gap over 2 s", async () => {
    const docx = longWordDocument(190_000);
    const work = alice.call("import_course", { format: "docx", contentBase64: base64(docx) });
    const seen = await watchResponsiveness(service, work, { secondUser: () => bob.call("get_course", { courseId: bobsCourse }) });
    if (!seen.outcome.ok) throw seen.outcome.error;
    assertResponsive(seen, 2000);
    const course = (await alice.call("get_course", { courseId: ((seen.outcome.value as Json).course as Json).id })) as Json;
    expect(course.title).toBe("Long module");
  }, slowTestMs);

  test("an HTML export of a course of dense Markdown is rendered and zipped on a worker: health and a second user's get_course have no gap over 2 s", async () => {
    const courseId = await createLongTablesCourse(alice);
    const work = alice.call("export_course", { courseId, format: "html" });
    const seen = await watchResponsiveness(service, work, { secondUser: () => bob.call("get_course", { courseId: bobsCourse }) });
    if (!seen.outcome.ok) throw seen.outcome.error;
    assertResponsive(seen, 2000);
    const exported = seen.outcome.value as Json;
    expect(exported.format).toBe("html");
    expect(exported.size as number).toBeGreaterThan(10_000);
  }, slowTestMs);

  test("errors a parser throws on its thread arrive as the same tool errors: code, message and field", async () => {
    const notGift = await alice.fail("import_course", { format: "gift", content: '{"a": 1}' });
    expect(notGift.code).toBe("invalid_arguments");
    expect(notGift.message).toBe("content: format is gift but the content is JSON, not GIFT text; nothing was imported.");
    expect(notGift.details).toMatchObject({ field: "content", format: "gift" });
    const notXml = await alice.fail("import_course", { format: "moodle_xml", content: "plain words" });
    expect(notXml.message).toContain("format is moodle_xml but the content is not XML");
    // No worker stack trace ever reaches the client.
    const raw = await alice.callRaw("import_course", { format: "gift", content: '{"a": 1}' });
    expect(JSON.stringify(raw.content)).not.toMatch(/worker-entry|stack|\.ts:\d+/);
  });

  test("jobs from several users wait their turn on a one-thread pool and all finish", async () => {
    const imports = await Promise.all(
      [alice, bob, alice, bob].map((agent, index) => agent.call("import_course", { format: "gift", content: oneQuestionGift.replace("Q1", `Q${index}`), title: `Bank ${index}` })),
    );
    expect(imports.map((result) => ((result.course as Json).title as string))).toEqual(["Bank 0", "Bank 1", "Bank 2", "Bank 3"]);
  });
});

describe("a pool with a tiny CPU budget (WORKER_JOB_CPU_MS=200)", () => {
  let service: TestService;
  let alice: Agent;

  beforeAll(async () => {
    service = await startTestService({ WORKER_POOL_SIZE: "1", WORKER_JOB_CPU_MS: "200" });
    alice = await connectAgent(service, await devAccessToken(service, "alice"));
  }, slowTestMs);

  afterAll(async () => {
    await alice?.close();
    await service?.dispose();
  });

  test("a job past its budget is stopped and the caller told the limit; nothing is written; the service and the pool keep working", async () => {
    const before = ((await alice.call("list_courses", {})).courses as Json[]).length;
    // Under every cap, so only the budget can stop it, and far past the budget on any machine: about 2 s
    // of CPU on a fast one. (600,000 bare paragraphs raced the 200,000-paragraph cap: a fast thread
    // reached the cap in 0.24 s, before the budget's watchdog looked.)
    const refused = await alice.fail("import_course", { format: "docx", contentBase64: base64(longWordDocument(150_000, '<w:p><w:pPr><w:jc w:val="left"/></w:pPr></w:p>')) });
    expect(refused.code).toBe("limit_exceeded");
    expect(refused.message).toContain("the import took more than 0.2 s of processing (WORKER_JOB_CPU_MS)");
    expect(refused.message).toContain("nothing was written");
    expect(refused.details).toMatchObject({ limit: "WORKER_JOB_CPU_MS", budgetMs: 200, job: "planImport" });
    expect(((await alice.call("list_courses", {})).courses as Json[]).length).toBe(before);
    expect((await fetch(`${service.url}/api/health`)).status).toBe(200);
    // The stopped thread was replaced: the next job runs on a fresh one.
    const bank = await alice.call("import_course", { format: "gift", content: oneQuestionGift, title: "After the stop" });
    expect((bank.course as Json).title).toBe("After the stop");
  }, slowTestMs);

  test("an export past the budget is stopped and named the same way, and the next export works", async () => {
    const courseId = await createLongTablesCourse(alice);
    const refused = await alice.fail("export_course", { courseId, format: "html" });
    expect(refused.code).toBe("limit_exceeded");
    expect(refused.message).toContain("the export took more than 0.2 s of processing (WORKER_JOB_CPU_MS)");
    expect(refused.details).toMatchObject({ limit: "WORKER_JOB_CPU_MS", job: "buildPackageJob" });
    const json = await alice.call("export_course", { courseId: (await alice.call("create_course", { title: "Small" })).id as string, format: "json" });
    expect(json.format).toBe("json");
  }, slowTestMs);
});

test("a stopped service leaves no worker thread behind: a process that imported and exported through the pool exits by itself", async () => {
  const probe = Bun.spawn([process.execPath, join(import.meta.dir, "support", "heavy-work-exit-probe.ts")], { stdout: "pipe", stderr: "pipe" });
  const [code, out, err] = await Promise.all([probe.exited, new Response(probe.stdout).text(), new Response(probe.stderr).text()]);
  expect({ code, out: out.trim(), err: err.trim().slice(0, 500) }).toEqual({ code: 0, out: "stopped", err: "" });
}, slowTestMs);
