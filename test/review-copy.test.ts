/**
 * A Word review copy and its comments back, through the real service: export_course format docx_review
 * anchors every block with a bookmark and shows answers, feedback, quiz pool settings, scenario paths and
 * the course version; a reviewer's comments and tracked changes, made with LibreOffice (the copy is
 * opened as ODF, annotated and changed as LibreOffice records them, and saved as .docx again by soffice),
 * come back with import_review_copy as review comments on their blocks, saying when a block changed or was
 * deleted since. A copy of another course, a viewer, a stranger and a document that is no copy are refused.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { unzipSync } from "fflate";
import { Document, Packer, Paragraph } from "docx";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { libreOfficeConvert } from "./support/office-documents.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { createRichCourse, embeddedBytes, exportPackage } from "./support/transfer.ts";

type Json = Record<string, any>;

let service: TestService;
let alice: Agent;
let bob: Agent;
let carol: Agent;
let dave: Agent;
let courseId: string;
let course: Json;
let copy: Uint8Array;

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const documentXml = (file: Uint8Array) => new TextDecoder().decode(unzipSync(file, { filter: (entry) => entry.name === "word/document.xml" })["word/document.xml"]);

const scenario = {
  type: "scenario",
  title: "A spill at the bench",
  startSceneId: "spill",
  scenes: [
    { id: "spill", markdown: "Acid on the bench.", choices: [{ text: "Wipe it with paper", next: "burn", feedback: "Paper does not neutralise acid." }, { text: "Warn others and use the kit", next: "safe" }] },
    { id: "burn", markdown: "Your glove smokes.", ending: { outcome: "failure" } },
    { id: "safe", markdown: "Contained.", ending: { outcome: "success" } },
  ],
};

async function reviewCopy(agent: Agent, id: string): Promise<Uint8Array> {
  return embeddedBytes((await exportPackage(agent, { courseId: id, format: "docx_review", delivery: "embedded" })).result).bytes;
}

/** Opens the copy in LibreOffice as ODF, applies LibreOffice-shaped annotations and tracked changes, and saves it as .docx with soffice. */
function commentWithLibreOffice(file: Uint8Array, edit: (odf: string) => string): Uint8Array {
  const odf = new TextDecoder().decode(libreOfficeConvert("copy.docx", file, "fodt"));
  return libreOfficeConvert("copy.fodt", edit(odf), "docx:MS Word 2007 XML");
}

const annotation = (name: string, author: string, text: string) =>
  `<office:annotation office:name="${name}"><dc:creator>${author}</dc:creator><dc:date>2026-11-20T10:00:00</dc:date><text:p>${text}</text:p></office:annotation>`;

function annotateParagraph(odf: string, paragraphText: string, name: string, author: string, text: string): string {
  const at = odf.indexOf(`>${paragraphText}<`);
  if (at < 0) throw new Error(`no paragraph "${paragraphText}" in the ODF`);
  return `${odf.slice(0, at + 1)}${annotation(name, author, text)}${paragraphText}<office:annotation-end office:name="${name}"/>${odf.slice(at + 1 + paragraphText.length)}`;
}

/** Comments on the rest of the first paragraph that follows `marker` (a label LibreOffice keeps in its own span, such as "✔ right: "). */
function annotateAfter(odf: string, marker: string, name: string, author: string, text: string): string {
  const at = odf.indexOf(marker);
  if (at < 0) throw new Error(`no "${marker}" in the ODF`);
  const start = at + marker.length;
  const end = odf.indexOf("</text:p>", start);
  return `${odf.slice(0, start)}${annotation(name, author, text)}${odf.slice(start, end)}<office:annotation-end office:name="${name}"/>${odf.slice(end)}`;
}

beforeAll(async () => {
  service = await startTestService();
  const agents = await Promise.all(["alice", "bob", "carol", "dave"].map(async (name) => connectAgent(service, await devAccessToken(service, name))));
  [alice, bob, carol, dave] = agents as [Agent, Agent, Agent, Agent];
  courseId = await createRichCourse(alice);
  course = (await alice.call("get_course", { courseId })) as Json;
  const quiz = course.modules[1].lessons[1];
  await alice.call("add_blocks", { courseId, lessonId: quiz.id, blocks: [scenario] });
  await alice.call("share_course", { courseId, sub: "bob", role: "reviewer" });
  await alice.call("share_course", { courseId, sub: "carol", role: "viewer" });
  course = (await alice.call("get_course", { courseId })) as Json;
  copy = await reviewCopy(alice, courseId);
}, 60_000);

afterAll(async () => {
  await Promise.all([alice, bob, carol, dave].map((agent) => agent?.close()));
  await service?.dispose();
});

describe("the review copy", () => {
  test("every module, lesson and block is anchored by a bookmark named by its ID; the cover names the course and its version", () => {
    const xml = documentXml(copy);
    const ids = [course.id, ...course.modules.flatMap((module: Json) => [module.id, ...module.lessons.flatMap((lesson: Json) => [lesson.id, ...lesson.blocks.map((block: Json) => block.id)])])];
    for (const id of ids) expect(xml).toMatch(new RegExp(`w:bookmarkStart w:id="\\d+" w:name="${id}_[0-9a-f]{8}"`));
    expect(xml).toContain(`Course ${course.id}, version ${course.version} (draft)`);
  });

  test("questions show their answers, feedback and explanation; quizzes their pool settings; scenarios every path", () => {
    const xml = documentXml(copy);
    expect(xml).toContain("✔ right: </w:t>");
    expect(xml).toContain("Stop and assess");
    expect(xml).toContain("✘ wrong: ");
    expect(xml).toContain("Right.");
    expect(xml).toContain("Assess before acting.");
    expect(xml).toContain("Answer: </w:t>");
    expect(xml).toContain("Quiz: passing score 70%; attempts 3; questions drawn per attempt 2; drawn across objectives");
    expect(xml).toContain("spill [“Wipe it with paper”] → burn → ending (failure)");
    expect(xml).toContain("spill [“Warn others and use the kit”] → safe → ending (success)");
    expect(xml).toContain("Paper does not neutralise acid.");
  });
});

describe("comments back", () => {
  let result: Json;
  let commented: Uint8Array;
  let assetId: string;

  beforeAll(async () => {
    commented = commentWithLibreOffice(copy, (odf) => {
      let edited = annotateParagraph(odf, "What do you do first when you see a spill?", "c1", "Sam SME", "Should this be a multiple choice?");
      edited = annotateParagraph(edited, "Goggles are optional when pouring.", "c2", "Sam SME", "Reword: never optional.");
      edited = annotateParagraph(edited, "3. Contain the spill.", "c3", "Pat Expert", "Add the kit's location.");
      edited = annotateAfter(edited, "✔ right: </text:span>", "c5", "Lee Lab", "Right answer, but say why first.");
      edited = annotateParagraph(edited, "• spill [“Wipe it with paper”] → burn → ending (failure)", "c4", "Lee Lab", "Paper is what people really grab; keep this path.");
      const changes =
        '<text:tracked-changes text:track-changes="true">' +
        '<text:changed-region xml:id="ct1" text:id="ct1"><text:insertion><office:change-info><dc:creator>Pat Expert</dc:creator><dc:date>2026-11-20T10:05:00</dc:date></office:change-info></text:insertion></text:changed-region>' +
        '<text:changed-region xml:id="ct2" text:id="ct2"><text:deletion><office:change-info><dc:creator>Pat Expert</dc:creator><dc:date>2026-11-20T10:06:00</dc:date></office:change-info><text:p>small </text:p></text:deletion></text:changed-region>' +
        "</text:tracked-changes>";
      edited = edited.replace(/<office:text( [^>]*)?>/, (open) => `${open}${changes}`);
      // "*small*" is italic in the copy, in a span of its own.
      return edited.replace(/Every accident starts with a <text:span text:style-name="[^"]+">small<\/text:span> shortcut\./, 'Every accident starts with a <text:change text:change-id="ct2"/><text:change-start text:change-id="ct1"/>careless <text:change-end text:change-id="ct1"/>shortcut.');
    });
    assetId = ((await alice.call("upload_asset", { courseId, filename: "lab-safety-reviewed.docx", dataBase64: base64(commented) })).asset as Json).id;
    // After the copy was made: the true/false question is reworded and the spill steps are removed.
    const quizBlocks = course.modules[1].lessons[1].blocks as Json[];
    const trueFalse = quizBlocks.find((block) => block.type === "true_false") as Json;
    await alice.call("update_block", { courseId, blockId: trueFalse.id, changes: { prompt: "Goggles are never optional when pouring." } });
    await alice.call("remove_block", { courseId, blockId: course.modules[1].lessons[0].blocks[0].id });
    result = await bob.call("import_review_copy", { courseId, assetId });
  }, 120_000);

  test("each comment lands on its block, authored as in the file, marked as from a review copy of its version", async () => {
    const quizBlocks = course.modules[1].lessons[1].blocks as Json[];
    const choice = quizBlocks.find((block) => block.type === "single_choice") as Json;
    expect(result.copyVersion).toBe(course.version);
    const onChoice = (result.imported as Json[]).find((note) => note.targetId === choice.id) as Json;
    expect(onChoice).toMatchObject({ kind: "comment", author: "Sam SME", partState: "unchanged" });
    const comments = ((await alice.call("list_comments", { courseId, targetId: choice.id })).comments as Json[]).map((comment) => [comment.author.name, comment.body]);
    expect(comments.filter(([author]) => author === "Sam SME")).toEqual([
      ["Sam SME", `From a Word review copy of version ${course.version}, by Sam SME, 2026-11-20:\n\nShould this be a multiple choice?\n\nOn the passage “What do you do first when you see a spill?”.`],
    ]);
  });

  test("a comment on a block changed or deleted since says so", async () => {
    const quizBlocks = course.modules[1].lessons[1].blocks as Json[];
    const trueFalse = quizBlocks.find((block) => block.type === "true_false") as Json;
    const removed = course.modules[1].lessons[0].blocks[0] as Json;
    const choice = quizBlocks.find((block) => block.type === "single_choice") as Json;
    const states = Object.fromEntries((result.imported as Json[]).filter((note) => note.kind === "comment").map((note) => [note.targetId, note.partState]));
    const scenarioBlock = quizBlocks.find((block) => block.type === "scenario") as Json;
    expect(states).toEqual({ [choice.id]: "unchanged", [trueFalse.id]: "changed", [removed.id]: "deleted", [scenarioBlock.id]: "unchanged" });
    const [changed] = (await alice.call("list_comments", { courseId, targetId: trueFalse.id })).comments as [Json];
    expect(changed.body).toContain(`This block has changed since version ${course.version}.`);
    const [deleted] = (await alice.call("list_comments", { courseId, targetId: removed.id })).comments as [Json];
    expect(deleted.targetRemoved).toBe(true);
    expect(deleted.body).toContain(`This block was deleted after version ${course.version}.`);
    expect(deleted.author.name).toBe("Pat Expert");
  });

  test("a comment on a scenario path lands on the scenario; three reviewers keep their own names", async () => {
    const scenarioBlock = (course.modules[1].lessons[1].blocks as Json[]).find((block) => block.type === "scenario") as Json;
    const [onPath] = (await alice.call("list_comments", { courseId, targetId: scenarioBlock.id })).comments as [Json];
    expect(onPath.author.name).toBe("Lee Lab");
    expect(onPath.body).toContain("Paper is what people really grab; keep this path.");
    expect(onPath.body).toContain("spill [“Wipe it with paper”] → burn → ending (failure)");
    // The SME sees the answers and comments on one: it lands on its question.
    const choice = (course.modules[1].lessons[1].blocks as Json[]).find((block) => block.type === "single_choice") as Json;
    const onAnswer = ((await alice.call("list_comments", { courseId, targetId: choice.id })).comments as Json[]).find((comment) => comment.author.name === "Lee Lab") as Json;
    expect(onAnswer.body).toContain("Right answer, but say why first.");
    expect(onAnswer.body).toContain("Stop and assess");
    const authors = new Set((result.imported as Json[]).map((note) => note.author));
    expect(authors).toEqual(new Set(["Sam SME", "Pat Expert", "Lee Lab"]));
  });

  test("tracked changes come back as comments quoting the suggested text", async () => {
    const textBlock = course.modules[0].lessons[0].blocks.find((block: Json) => block.type === "text") as Json;
    const [suggestion] = (await alice.call("list_comments", { courseId, targetId: textBlock.id })).comments as [Json];
    expect(suggestion.author.name).toBe("Pat Expert");
    expect(suggestion.body).toContain("(tracked change)");
    expect(suggestion.body).toContain("Suggested change: replace “small” with “careless”");
  });

  test("bringing the same copy back again adds nothing", async () => {
    const again = await bob.call("import_review_copy", { courseId, assetId });
    expect(again.imported).toEqual([]);
    expect(again.alreadyImported).toBe((result.imported as Json[]).length);
  });

  test("a viewer cannot bring comments back, and a stranger does not see the course", async () => {
    const before = (await alice.call("list_comments", { courseId })).counts;
    expect((await carol.fail("import_review_copy", { courseId, assetId })).code).toBe("forbidden");
    expect((await dave.fail("import_review_copy", { courseId, assetId })).code).toBe("not_found");
    expect((await alice.call("list_comments", { courseId })).counts).toEqual(before);
  });
});

describe("refused copies", () => {
  test("a review copy of another course, and a Word file that is no review copy", async () => {
    const otherId = await createRichCourse(alice, "Other course");
    const otherCopy = await reviewCopy(alice, otherId);
    const before = (await alice.call("list_comments", { courseId })).counts;
    const wrongId = ((await alice.call("upload_asset", { courseId, filename: "other.docx", dataBase64: base64(otherCopy) })).asset as Json).id;
    const wrong = await alice.fail("import_review_copy", { courseId, assetId: wrongId });
    expect(wrong.code).toBe("invalid_arguments");
    expect(wrong.message).toContain(`is a review copy of course ${otherId}, not of ${courseId}`);
    const plain = new Uint8Array(await Packer.toBuffer(new Document({ sections: [{ children: [new Paragraph("Just a memo.")] }] })));
    const plainId = ((await alice.call("upload_asset", { courseId, filename: "memo.docx", dataBase64: base64(plain) })).asset as Json).id;
    const notCopy = await alice.fail("import_review_copy", { courseId, assetId: plainId });
    expect(notCopy.message).toContain("memo.docx: is not a review copy made by export_course");
    expect((await alice.call("list_comments", { courseId })).counts).toEqual(before);
  }, 60_000);
});
