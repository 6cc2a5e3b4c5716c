/**
 * The teaching blocks of issue 20 through the real service and the official MCP SDK client: handouts
 * uploaded and recognised from their bytes (disguised ones refused), a course with every new block
 * built in one create_course and read back as sent, exported in every format with the handout inside,
 * JSON export → import → export unchanged, duplicate_course carrying them, broken scenarios and
 * sortings refused on the exact path with nothing written, and describe_blocks teaching each type.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { strToU8, unzipSync, zipSync } from "fflate";
import { devAccessToken } from "./support/dev-login.ts";
import { pixelPng } from "./support/export-course.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { phishingScenario, phishingSorting, teachingContentBlocks, teachingQuizBlocks } from "./support/teaching-blocks.ts";
import { comparable, exportPackage, readExport } from "./support/transfer.ts";
import { ClassName, DataName } from "../src/page-contract/markup-names.ts";

type Json = Record<string, unknown>;
type Course = Json & { id: string; version: number; modules: { id: string; lessons: { id: string; blocks: (Json & { id: string })[] }[] }[] };

let service: TestService;
let alice: Agent;
let courseId: string;
const assetIds = { image: "", attachment: "" };

const base64 = (bytes: Uint8Array | string): string => Buffer.from(typeof bytes === "string" ? strToU8(bytes) : bytes).toString("base64");
const minimalPdf = "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n";

function office(mainPart: string, mainContentType: string): Uint8Array {
  const types = `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/${mainPart}" ContentType="${mainContentType}"/></Types>`;
  return zipSync({ "[Content_Types].xml": strToU8(types), "_rels/.rels": strToU8("<Relationships/>"), [mainPart]: strToU8("<root/>") });
}

const officeFiles = {
  docx: office("word/document.xml", "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"),
  xlsx: office("xl/workbook.xml", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"),
  pptx: office("ppt/presentation.xml", "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"),
};

async function upload(filename: string, bytes: Uint8Array | string, mediaType?: string): Promise<Json & { id: string; mediaType: string }> {
  const result = await alice.call("upload_asset", { courseId, filename, dataBase64: base64(bytes), ...(mediaType ? { mediaType } : {}) });
  return result.asset as Json & { id: string; mediaType: string };
}

async function getCourse(id = courseId): Promise<Course> {
  return (await alice.call("get_course", { courseId: id })) as Course;
}

const withoutIds = (blocks: (Json & { id: string })[]): Json[] => blocks.map(({ id: _id, ...block }) => block);

beforeAll(async () => {
  // The course's page carries the grading (and here teaching-block) scripts and styles, over the default
  // 60 KB cap for a whole-course preview; the cap is set explicitly so the preview reads in one answer.
  service = await startTestService({ MCP_RESULT_MAX_BYTES: String(128 * 1024) });
  alice = await connectAgent(service, await devAccessToken(service, "alice"));
  const created = (await alice.call("create_course", { title: "Recognising phishing", modules: [{ title: "Phishing", lessons: [{ title: "Drafts" }] }] })) as { id: string };
  courseId = created.id;
  assetIds.image = (await upload("email.png", pixelPng)).id;
  assetIds.attachment = (await upload("job-aid.pdf", minimalPdf)).id;
});
afterAll(async () => {
  await alice?.close();
  await service?.dispose();
});

describe("handouts for attachment blocks", () => {
  test("upload_asset accepts PDF, DOCX, XLSX, PPTX, plain text and CSV, each recognised from its bytes", async () => {
    expect((await upload("policy.docx", officeFiles.docx)).mediaType).toBe("application/vnd.openxmlformats-officedocument.wordprocessingml.document");
    expect((await upload("register.xlsx", officeFiles.xlsx)).mediaType).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    expect((await upload("briefing.pptx", officeFiles.pptx)).mediaType).toBe("application/vnd.openxmlformats-officedocument.presentationml.presentation");
    expect((await upload("checklist.txt", "1. Check the sender\n2. Hover over links\n")).mediaType).toBe("text/plain");
    expect((await upload("examples.csv", "message,verdict\nInvoice.zip,phish\nTeam lunch,not phish\n")).mediaType).toBe("text/csv");
    expect((await upload("job-aid-2.pdf", minimalPdf, "application/pdf")).mediaType).toBe("application/pdf");
  });

  test("a hostile file disguised as a PDF or an Office document is refused by its bytes", async () => {
    const disguised: [string, Uint8Array | string, string][] = [
      ["invoice.pdf", "<html><script>fetch('https://evil.example')</script></html>", "dataBase64: the content is not a recognised file"],
      ["invoice.pdf", `%PDF-1.4\n1 0 obj<</OpenAction<</S/JavaScript/JS(app.launchURL('https://evil.example'))>>>>endobj\n%%EOF`, "active content (/JavaScript)"],
      ["report.docx", office("word/document.xml", "application/vnd.ms-word.document.macroEnabled.main+xml"), "macros"],
      ["report.docx", zipSync({ "payload.exe": new Uint8Array([0x4d, 0x5a, 0x90, 0x00]) }), "dataBase64: the content is not a recognised file"],
      ["numbers.xlsx", new Uint8Array([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00]), "dataBase64: the content is not a recognised file"],
      ["slides.pptx", officeFiles.docx, "filename: ends in .pptx but the content is application/vnd.openxmlformats-officedocument.wordprocessingml.document"],
    ];
    const before = (await getCourse()).version;
    for (const [filename, bytes, message] of disguised) {
      const error = await alice.fail("upload_asset", { courseId, filename, dataBase64: base64(bytes) });
      expect(error.code).toBe("invalid_arguments");
      expect(error.message).toContain(message);
    }
    expect((await getCourse()).version).toBe(before);
  });
});

describe("a course with every teaching block", () => {
  let built: Course;

  test("create_course takes every new block and get_course gives each field back as sent, defaults filled in", async () => {
    const content = teachingContentBlocks(assetIds);
    const quiz = teachingQuizBlocks(assetIds);
    // Assets belong to one course, so the blocks go into the course that holds the uploads, as one nested add_module.
    await alice.call("add_module", {
      courseId,
      title: "Phishing",
      lessons: [{ title: "Spotting phishing", blocks: content }, { title: "Phishing check", kind: "quiz", passingScore: 60, blocks: quiz }],
    });
    built = await getCourse();
    built = { ...built, modules: [built.modules.at(-1)!] };
    // create_course takes them too (pictures by URL, as a new course has no uploads yet).
    const urlPictures = JSON.parse(JSON.stringify(quiz).replaceAll(`"assetId":"${assetIds.image}"`, '"url":"https://example.com/icon.png"')) as Json[];
    const created = (await alice.call("create_course", { title: "Phishing check", modules: [{ title: "Check", lessons: [{ title: "Quiz", kind: "quiz", blocks: urlPictures }] }] })) as Course;
    expect(withoutIds((await getCourse(created.id)).modules[0]!.lessons[0]!.blocks)).toEqual(urlPictures);
    const full = built;
    const [learn, check] = full.modules[0]!.lessons;
    const stored = withoutIds(learn!.blocks);
    expect(stored.length).toBe(content.length);
    stored.forEach((block, index) => expect(block).toMatchObject(content[index]!));
    // No label given, none stored: the page takes the course language's word (issue 41).
    expect(stored[7]).toEqual({ type: "continue", requireCompletion: true });
    expect(withoutIds(check!.blocks)).toEqual(quiz);
    expect(full.modules[0]!.lessons[0]).toMatchObject({ estimatedMinutesIsSet: false });
    expect((full.modules[0]!.lessons[0] as unknown as { estimatedMinutes: number }).estimatedMinutes).toBeGreaterThanOrEqual(2);
  });

  test("update_block, add_blocks and edit_course accept them too", async () => {
    const lessonId = built.modules[0]!.lessons[0]!.id;
    const added = (await alice.call("add_blocks", { courseId: built.id, lessonId, blocks: [phishingSorting()] })) as { blocks: { id: string }[] };
    const sortingId = added.blocks[0]!.id;
    const renamed = { ...phishingSorting(), prompt: "Phish or not?" };
    await alice.call("update_block", { courseId: built.id, blockId: sortingId, block: renamed });
    await alice.call("edit_course", { courseId: built.id, operations: [{ op: "add_blocks", lessonId, blocks: [{ type: "timeline", events: [{ date: "2019", title: "A", markdown: "a" }, { date: "2020", title: "B", markdown: "b" }] }] }] });
    const blocks = (await getCourse(built.id)).modules.at(-1)!.lessons[0]!.blocks;
    expect(blocks.find((block) => block.id === sortingId)).toMatchObject({ type: "sorting", prompt: "Phish or not?" });
    expect(blocks.at(-1)).toMatchObject({ type: "timeline", events: [{ date: "2019" }, { date: "2020" }] });
  });

  test("every export format packs the blocks, the handout as a download, and JSON export → import → export is unchanged", async () => {
    const notices: string[] = [];
    for (const format of ["html", "scorm12", "scorm2004", "cmi5", "imscc"] as const) {
      for (const scoMode of format === "scorm12" || format === "scorm2004" ? ["course", "module"] : [undefined]) {
        const { result, structured } = await exportPackage(alice, { courseId: built.id, format, ...(scoMode ? { scoMode } : {}) });
        const text = result.content.find((item) => item.type === "text");
        if (text?.type === "text" && text.text.includes("Notes:")) notices.push(text.text);
        const files = unzipSync((await readExport(alice, structured.uri)).bytes);
        const names = Object.keys(files);
        expect(names.some((name) => name.endsWith("job-aid.pdf"))).toBe(true);
        const pages = names.filter((name) => name.endsWith(".html")).map((name) => new TextDecoder().decode(files[name]));
        const all = pages.join("\n");
        for (const marker of [`data-${DataName.scenario}`, `data-${DataName.labeledGraphic}`, `data-${DataName.process}`, `class="${ClassName.timelineEvents}"`, `data-${DataName.sorting}`, `data-${DataName.continue}`, `class="${ClassName.attachmentLink}"`, `class="${ClassName.choiceImage}"`]) {
          expect({ format, scoMode, marker, found: all.includes(marker) }).toEqual({ format, scoMode, marker, found: true });
        }
        expect(all).toMatch(new RegExp(`<a class="${ClassName.attachmentLink}" href="[^"]*job-aid\\.pdf" download>`));
      }
    }
    expect(notices.join(" ")).toContain("also included as web content");

    const exportJson = async (id: string): Promise<Json> => JSON.parse(new TextDecoder().decode((await readExport(alice, (await exportPackage(alice, { courseId: id, format: "json" })).structured.uri)).bytes)) as Json;
    const original = await exportJson(built.id);
    const imported = (await alice.call("import_course", { format: "json", content: JSON.stringify(original) })) as unknown as { course: { id: string } };
    expect(comparable(await exportJson(imported.course.id))).toEqual(comparable(original));
  });

  test("preview_course renders every teaching block, the handout as a data: download", async () => {
    const preview = (await alice.call("preview_course", { courseId: built.id })) as { previewUri: string };
    const page = (await alice.client.readResource({ uri: preview.previewUri })).contents[0] as { text: string };
    for (const marker of [`data-${DataName.scenario}`, `data-${DataName.labeledGraphic}`, `data-${DataName.process}`, `class="${ClassName.timelineEvents}"`, `data-${DataName.sorting}`, `data-${DataName.continue}`, `class="${ClassName.choiceImage}"`]) expect(page.text).toContain(marker);
    expect(page.text).toMatch(new RegExp(`<a class="${ClassName.attachmentLink}" href="data:application/pdf;base64,[A-Za-z0-9+/=]+" download>`));
    expect(page.text.includes(`class="${ClassName.block} ${ClassName.blockUnavailable}"`)).toBe(false);
  });

  test("duplicate_course carries every teaching block", async () => {
    const copy = (await alice.call("duplicate_course", { courseId: built.id })) as { id: string };
    const source = await getCourse(built.id);
    const duplicate = await getCourse(copy.id);
    const blocksOf = (course: Course) => course.modules.flatMap((module) => module.lessons.flatMap((lesson) => withoutIds(lesson.blocks)));
    expect(comparable(blocksOf(duplicate))).toEqual(comparable(blocksOf(source)));
  });
});

describe("bad input names the path and writes nothing", () => {
  test("broken scenarios and sortings are refused with the scene, choice or item named", async () => {
    const lessonId = (await getCourse()).modules[0]!.lessons[0]!.id;
    const before = (await getCourse()).version;
    const scenario = phishingScenario() as Json & { scenes: Json[] };
    const scenes = scenario.scenes;
    const cases: [Json, string][] = [
      [{ ...scenario, scenes: [scenes[0], scenes[1], scenes[2], { ...scenes[3], ending: undefined, choices: [{ text: "Escalate", next: "esc" }] }] }, `blocks[2].scenes[3].choices[0].next: no scene "esc"`],
      [{ ...scenario, scenes: [...scenes, { id: "orphan", markdown: "Never shown.", ending: { outcome: "neutral" } }] }, 'blocks[2].scenes[4]: scene "orphan" cannot be reached'],
      [{ ...scenario, scenes: [{ ...scenes[0], choices: [{ text: "Loop", next: "loop" }, { text: "End", next: "bought" }] }, { id: "loop", markdown: "Round again.", choices: [{ text: "Again", next: "loop" }] }, scenes[3]] }, 'blocks[2].scenes[1]: from scene "loop" no ending can be reached'],
      [{ ...scenario, scenes: scenes.map((scene) => (scene.ending ? { ...scene, ending: undefined, choices: [{ text: "Restart", next: "inbox" }] } : scene)) }, "blocks[2].scenes: no scene has an ending"],
      [{ ...scenario, startSceneId: "nowhere" }, 'blocks[2].startSceneId: no scene "nowhere"'],
      [{ ...phishingSorting(), items: [{ text: "a", category: "Phish" }, { text: "b", category: "Spam" }] }, 'blocks[2].items[1].category: no category "Spam"'],
    ];
    for (const [block, message] of cases) {
      const error = await alice.fail("add_blocks", { courseId, lessonId, blocks: [{ type: "divider" }, { type: "text", markdown: "x" }, JSON.parse(JSON.stringify(block))] });
      expect(error.code).toBe("invalid_arguments");
      expect(error.message).toContain(message);
    }
    const marker = await alice.fail("add_blocks", { courseId, lessonId, blocks: [{ type: "labeled_graphic", image: { assetId: assetIds.image }, alt: "x", markers: [{ x: 120, y: 5, title: "Off the edge" }] }] });
    expect(marker.message).toContain("blocks[0].markers[0].x: must be between 0 and 100");
    const pdfAsPicture = await alice.fail("add_blocks", { courseId, lessonId, blocks: [{ type: "process", steps: [{ title: "A", markdown: "a", image: { assetId: assetIds.attachment } }, { title: "B", markdown: "b" }] }] });
    expect(pdfAsPicture.message).toContain("steps[0].image.assetId");
    expect((await getCourse()).version).toBe(before);
  });

  test("describe_blocks gives the full schema of each new type", async () => {
    const described = (await alice.call("describe_blocks", { types: ["scenario", "sorting", "labeled_graphic", "process", "timeline", "attachment", "continue", "single_choice"] })) as { blocks: { type: string; schema: Json }[] };
    const properties = (type: string) => Object.keys((described.blocks.find((block) => block.type === type)?.schema.properties ?? {}) as Json);
    expect(properties("scenario")).toEqual(expect.arrayContaining(["title", "markdown", "character", "startSceneId", "scenes", "points"]));
    expect(properties("sorting")).toEqual(expect.arrayContaining(["prompt", "categories", "items", "points", "explanation", "objectiveIds"]));
    expect(properties("labeled_graphic")).toEqual(expect.arrayContaining(["image", "alt", "markers"]));
    expect(properties("attachment")).toEqual(expect.arrayContaining(["assetId", "title", "description"]));
    expect(properties("continue")).toEqual(expect.arrayContaining(["label", "requireCompletion"]));
    expect(JSON.stringify(described.blocks.find((block) => block.type === "single_choice")?.schema)).toContain('"image"');
  });
});
