/**
 * Question-bank imports cost their size (issue 39): the red team's GIFT, Moodle XML and QTI files, each at
 * ten times the size that froze the service, go through the real server's `import_course` while
 * `/api/health` and another user's `get_course` are probed every 100 ms from their own connections.
 * Each file is either imported or refused with an error naming the limit it is past, with nothing
 * written, and neither probe waits more than the bound the test's name states (generous for a loaded
 * 2-core machine; the old readers held the loop for minutes on these files).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { zipSync } from "fflate";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent, AgentToolError } from "./support/mcp-client.ts";
import { assertResponsive, watchResponsiveness, type Responsiveness } from "./support/responsiveness.ts";
import { startTestService, type TestService } from "./support/service.ts";

let service: TestService;
let alice: Agent;
let bob: Agent;
let bobCourseId: string;

const encoder = new TextEncoder();

beforeAll(async () => {
  service = await startTestService();
  alice = await connectAgent(service, await devAccessToken(service, "bank-attacker"));
  bob = await connectAgent(service, await devAccessToken(service, "bank-bystander"));
  bobCourseId = String((await bob.call("create_course", { title: "Bob's course", modules: [{ title: "One", lessons: [{ title: "Only" }] }] })).id);
}, 60_000);

afterAll(async () => {
  await alice?.close();
  await bob?.close();
  await service?.dispose();
});

const courseCount = async (): Promise<number> => ((await alice.call("list_courses", {})) as { courses: unknown[] }).courses.length;

/** Imports `args` as alice while health and bob's get_course are probed; asserts the bound and that a refusal wrote nothing. */
async function importWatched(args: Record<string, unknown>): Promise<Responsiveness<Record<string, unknown>>> {
  const before = await courseCount();
  const seen = await watchResponsiveness(service, alice.call("import_course", args), { secondUser: () => bob.call("get_course", { courseId: bobCourseId }) });
  assertResponsive(seen, 2000);
  if (!seen.outcome.ok) expect(await courseCount()).toBe(before);
  return seen;
}

/** The tool error of a refused import, failing the test if it was not refused. */
function refusal(seen: Responsiveness<unknown>): AgentToolError {
  if (seen.outcome.ok) throw new Error(`the import was expected to be refused: ${JSON.stringify(seen.outcome.value).slice(0, 300)}`);
  if (!(seen.outcome.error instanceof AgentToolError)) throw seen.outcome.error;
  return seen.outcome.error;
}

const megabyte = 1024 * 1024;

describe("GIFT: text read by linear scanners (the red team's 100 KB froze the process 11.7 s)", () => {
  test("1 MB of '<' in an [html] question is refused naming the prompt's limit; health and another user answer with no gap over 2 s", async () => {
    const gift = `::Tags::[html]${"<".repeat(megabyte)} {=yes ~no}`;
    const error = refusal(await importWatched({ format: "gift", content: gift }));
    expect(error.code).toBe("invalid_arguments");
    expect(error.message).toContain('item "Tags" (line 1) cannot be a single_choice question: prompt: must be at most 20000 bytes');
    expect(error.message).toContain("nothing was imported");
  }, 120_000);

  test("1 MB of spaces before a blank's answers is refused naming the field's limit; health and another user answer with no gap over 2 s", async () => {
    const gift = `::Blank:: Fill${" ".repeat(megabyte)}.{=word}`;
    const error = refusal(await importWatched({ format: "gift", content: gift }));
    expect(error.code).toBe("invalid_arguments");
    expect(error.message).toContain('item "Blank" (line 1) cannot be a fill_in_blank question: prompt: must be at most 20000 bytes');
    expect(error.message).toContain("nothing was imported");
  }, 120_000);

  test("a 1 MB file of 500 questions, each with 2 KB of '<' and of spaces, is imported; health and another user answer with no gap over 2 s", async () => {
    const question = (index: number): string => `::Q${index}::[html]<b>Pick</b>${"<".repeat(900)}${" ".repeat(900)}one {=<i>yes</i> ~no}`;
    const gift = Array.from({ length: 500 }, (_, index) => question(index + 1)).join("\n\n");
    expect(gift.length).toBeGreaterThan(900_000);
    const seen = await importWatched({ format: "gift", content: gift, title: "Many small hostile questions" });
    if (!seen.outcome.ok) throw seen.outcome.error;
    expect(seen.outcome.value.pools).toEqual([{ title: "Imported questions", questions: 500 }]);
  }, 120_000);
});

describe("GIFT: a numeric range split without backtracking (found by the regex audit for issue 47)", () => {
  test("1 MB of dots in a numeric answer (quadratic for the old range expression: 20 KB took 0.6 s) is refused as not a number; health and another user answer with no gap over 2 s", async () => {
    const gift = `::Dots::How many? {#1${".".repeat(megabyte)}x}`;
    const error = refusal(await importWatched({ format: "gift", content: gift }));
    expect(error.code).toBe("invalid_arguments");
    expect(error.message).toContain("is not a number, a number:tolerance or a min..max range");
  }, 120_000);

  test("a range and a tolerance still read as before", async () => {
    const gift = "::Range::Pick a value {#1.5..2.5}\n\n::Tolerant::About {#3.2:0.1}\n\n::Negative::Below zero {#-2..-1}";
    const imported = (await alice.call("import_course", { format: "gift", content: gift, title: "Numeric ranges" })) as { course: { id: string } };
    const course = (await alice.call("get_course", { courseId: imported.course.id })) as { modules: { lessons: { blocks: Record<string, unknown>[] }[] }[] };
    const blocks = course.modules.flatMap((module) => module.lessons.flatMap((lesson) => lesson.blocks)).filter((block) => block.type === "numeric");
    expect(blocks.map((block) => [block.min, block.max, block.value, block.tolerance])).toEqual([
      [1.5, 2.5, undefined, undefined],
      [undefined, undefined, 3.2, 0.1],
      [-2, -1, undefined, undefined],
    ]);
  }, 60_000);
});

describe("Moodle XML: the answer picture read by a scanner (the red team's 25 KB froze it 5 s, 40 KB took 48 s)", () => {
  const quiz = (answerHtml: string): string =>
    `<?xml version="1.0" encoding="UTF-8"?><quiz><question type="multichoice"><name><text>Pictures</text></name><questiontext format="html"><text>Which?</text></questiontext>` +
    `<answer fraction="100" format="html"><text><![CDATA[${answerHtml}]]></text></answer><answer fraction="0" format="html"><text>No</text></answer></question></quiz>`;

  test('400 KB of repeated <img" and src="" in an answer is refused naming the choice\'s limit; health and another user answer with no gap over 2 s', async () => {
    const count = 200 * 1024 / 6;
    const xml = quiz(`0${'<img"G'.repeat(count)}<${'src=""'.repeat(count)}`);
    expect(xml.length).toBeGreaterThan(400_000);
    const error = refusal(await importWatched({ format: "moodle_xml", content: xml }));
    expect(error.code).toBe("invalid_arguments");
    expect(error.message).toContain('item 1 "Pictures" cannot be a single_choice question: choices[0].text: must be at most 2000 characters');
    expect(error.message).toContain("nothing was imported");
  }, 120_000);

  test("400 KB of unclosed <img and < tags in an answer is refused naming the choice's limit; health and another user answer with no gap over 2 s", async () => {
    const xml = quiz(`${"<img".repeat(50_000)}${"<".repeat(200_000)}`);
    const error = refusal(await importWatched({ format: "moodle_xml", content: xml }));
    expect(error.code).toBe("invalid_arguments");
    expect(error.message).toContain('item 1 "Pictures" cannot be a single_choice question: choices[0].text: must be at most 2000 characters');
  }, 120_000);

  test("a 400 KB cloze text of unclosed {:A:\\ blanks is refused naming the text's limit; health and another user answer with no gap over 2 s", async () => {
    const cloze = `{1:SA:=done}${"{:A:\\\\".repeat(80_000)}`;
    const xml = `<?xml version="1.0" encoding="UTF-8"?><quiz><question type="cloze"><name><text>Cloze</text></name><questiontext format="moodle_auto_format"><text><![CDATA[${cloze}]]></text></questiontext></question></quiz>`;
    expect(xml.length).toBeGreaterThan(400_000);
    const error = refusal(await importWatched({ format: "moodle_xml", content: xml }));
    expect(error.code).toBe("invalid_arguments");
    expect(error.message).toContain('item 1 "Cloze" cannot be a fill_in_blank question: text: must be at most 20000 bytes');
  }, 120_000);
});

/** A QTI 2.1 package of one item, its body and the rest of the item given. */
function qtiPackage(itemXml: string): string {
  const manifest =
    '<?xml version="1.0" encoding="UTF-8"?><manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" identifier="M"><resources>' +
    '<resource identifier="I1" type="imsqti_item_xmlv2p1" href="items/I1.xml"><file href="items/I1.xml"/></resource></resources></manifest>';
  return Buffer.from(zipSync({ "imsmanifest.xml": encoder.encode(manifest), "items/I1.xml": encoder.encode(itemXml) })).toString("base64");
}

const qtiItem = (inner: string): string =>
  `<?xml version="1.0" encoding="UTF-8"?><assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="Big" title="Big" adaptive="false" timeDependent="false">${inner}</assessmentItem>`;

describe("QTI: feedback indexed by identifier (the red team's 110 KB froze it 8.4 s)", () => {
  test("a 1.1 MB item of 8,000 choices, each with its own feedback, is refused naming the choices' limit; health and another user answer with no gap over 2 s", async () => {
    const count = 8_000;
    const ids = Array.from({ length: count }, (_, index) => `C${index}`);
    const item = qtiItem(
      `<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier"><correctResponse><value>C0</value></correctResponse></responseDeclaration>` +
        `<itemBody><choiceInteraction responseIdentifier="RESPONSE" maxChoices="1">${ids.map((id) => `<simpleChoice identifier="${id}">Choice ${id}</simpleChoice>`).join("")}</choiceInteraction></itemBody>` +
        ids.map((id) => `<modalFeedback outcomeIdentifier="FEEDBACK" identifier="FB_${id}" showHide="show"><p>Feedback for ${id}, which is not it.</p></modalFeedback>`).join(""),
    );
    expect(item.length).toBeGreaterThan(1_100_000);
    const error = refusal(await importWatched({ format: "qti21", contentBase64: qtiPackage(item) }));
    expect(error.code).toBe("invalid_arguments");
    expect(error.message).toContain("item Big (items/I1.xml) cannot be a single_choice question: choices: must have at most 20 choices");
  }, 120_000);

  test("a 1.1 MB item of 6,000 text entries, each with its declaration and match, is refused naming the blanks' limit; health and another user answer with no gap over 2 s", async () => {
    const count = 6_000;
    const ids = Array.from({ length: count }, (_, index) => `R${index}`);
    const item = qtiItem(
      ids.map((id) => `<responseDeclaration identifier="${id}" cardinality="single" baseType="string"><correctResponse><value>a</value></correctResponse></responseDeclaration>`).join("") +
        `<itemBody><p>${ids.map((id) => `<textEntryInteraction responseIdentifier="${id}"/>`).join(" ")}</p></itemBody>` +
        `<responseProcessing>${ids.map((id) => `<responseCondition><responseIf><stringMatch caseSensitive="false"><variable identifier="${id}"/><baseValue baseType="string">a</baseValue></stringMatch></responseIf></responseCondition>`).join("")}</responseProcessing>`,
    );
    expect(item.length).toBeGreaterThan(1_100_000);
    const error = refusal(await importWatched({ format: "qti21", contentBase64: qtiPackage(item) }));
    expect(error.code).toBe("invalid_arguments");
    expect(error.message).toContain("item Big (items/I1.xml) cannot be a fill_in_blank question");
    expect(error.message).toContain("blanks: must have at most 20 blanks");
  }, 120_000);
});

describe("uploads: the SVG sniffer read without backtracking (found by the regex audit for issue 39)", () => {
  test("a 400-byte text file of empty comments, exponential for the old SVG check, is sniffed at once; health and another user answer with no gap over 2 s", async () => {
    const courseId = String((await alice.call("create_course", { title: "Uploads" })).id);
    const text = `<!---->${"\t<!---->\t<!---->".repeat(30)} not a picture`;
    expect(text.length).toBeLessThan(512);
    const seen = await watchResponsiveness(service, alice.call("upload_asset", { courseId, filename: "notes.txt", mediaType: "text/plain", dataBase64: Buffer.from(text).toString("base64") }), {
      secondUser: () => bob.call("get_course", { courseId: bobCourseId }),
    });
    assertResponsive(seen, 2000);
    if (!seen.outcome.ok) throw seen.outcome.error;
    expect((seen.outcome.value.asset as { mediaType: string }).mediaType).toStartWith("text/plain");
  }, 120_000);
});
