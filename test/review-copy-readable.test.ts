/**
 * A review copy a reviewer can read (issue 41): export_course format docx_review, opened with LibreOffice
 * and read as text, writes every teaching block as a person reads it: a sorting as a table of categories
 * and items, a labelled graphic as its picture (embedded, its numbered markers drawn on it) and a numbered
 * list of the markers' texts, a process as numbered steps, an accordion's headings with its text still
 * bold and italic, a scenario as scenes and paths, objectives by their text; every uploaded picture is in
 * word/media, referenced from the document, with its alt text as the picture's description. Comments made
 * in LibreOffice on a table cell and on a step still come back on their blocks.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unzipSync } from "fflate";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { libreOfficeConvert, solidPng } from "./support/office-documents.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { embeddedBytes, exportPackage } from "./support/transfer.ts";

type Json = Record<string, any>;

let service: TestService;
let alice: Agent;
let courseId: string;
let blocks: Json[];
let copy: Uint8Array;
let files: Record<string, Uint8Array>;
let lines: string[];

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const decode = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes ?? new Uint8Array());

async function uploadPicture(filename: string, png: Uint8Array): Promise<string> {
  return ((await alice.call("upload_asset", { courseId, filename, dataBase64: base64(png) })).asset as Json).id;
}

beforeAll(async () => {
  service = await startTestService();
  alice = await connectAgent(service, await devAccessToken(service, "alice"));
  const created = await alice.call("create_course", { title: "Hand hygiene", objectives: [{ text: "Name the five moments for hand hygiene" }] });
  courseId = String((created.course as Json | undefined)?.id ?? created.id);
  const course = (await alice.call("get_course", { courseId })) as Json;
  const objectiveId = course.objectives[0].id as string;
  const poster = await uploadPicture("poster.png", solidPng(200, 100, [200, 30, 30]));
  const hands = await uploadPicture("hands.png", solidPng(120, 90, [30, 30, 200]));
  const module = await alice.call("add_module", { courseId, title: "The five moments" });
  const moduleId = String((module.module as Json | undefined)?.id ?? module.id);
  const lesson = await alice.call("add_lesson", { courseId, moduleId, title: "Moments" });
  const lessonId = String((lesson.lesson as Json | undefined)?.id ?? lesson.id);
  await alice.call("add_blocks", {
    courseId,
    lessonId,
    blocks: [
      { type: "image", assetId: poster, alt: "A poster of the five moments", caption: "The ward poster" },
      { type: "image", url: "https://example.org/moments.png", alt: "The WHO poster" },
      {
        type: "labeled_graphic",
        image: { assetId: hands },
        alt: "Two hands with the places germs hide",
        markers: [
          { x: 20, y: 10, title: "Fingertips", markdown: "Rub them in the palm." },
          { x: 60, y: 50, title: "Thumbs", markdown: "Turn each thumb in the other hand." },
          { x: 85, y: 90, title: "Wrists", markdown: "Finish at the wrists." },
        ],
      },
      {
        type: "process",
        steps: [
          { title: "Wet your hands", markdown: "Use clean running water." },
          { title: "Apply soap", markdown: "Enough to cover all surfaces.", image: { assetId: poster, alt: "Soap on a palm" } },
          { title: "Rub", markdown: "For twenty seconds." },
        ],
      },
      {
        type: "accordion",
        items: [
          { title: "Before touching a patient", markdown: "Clean hands **every time**, even *with* gloves.\n\n- at the door\n- at the bed" },
          { title: "After body fluids", markdown: "Right after, before anything else." },
        ],
      },
      {
        type: "sorting",
        prompt: "Sort each moment: before or after the patient?",
        points: 2,
        objectiveIds: [objectiveId],
        categories: [{ title: "Before" }, { title: "After" }],
        items: [
          { text: "Before an aseptic task", category: "Before" },
          { text: "Touching a patient's bed", category: "After", feedback: "Surroundings count too." },
          { text: "Entering the room", category: "Before" },
        ],
      },
      {
        type: "scenario",
        title: "A call bell rings",
        startSceneId: "bell",
        scenes: [
          { id: "bell", markdown: "You have just left a patient.", image: { assetId: hands, alt: "A nurse at a door" }, choices: [{ text: "Go straight in", next: "germs" }, { text: "Rub your hands first", next: "clean" }] },
          { id: "germs", markdown: "You carried germs in.", ending: { outcome: "failure" } },
          { id: "clean", markdown: "Well done.", ending: { outcome: "success" } },
        ],
      },
    ],
  });
  blocks = ((await alice.call("get_course", { courseId })) as Json).modules[0].lessons[0].blocks as Json[];
  copy = embeddedBytes((await exportPackage(alice, { courseId, format: "docx_review", delivery: "embedded" })).result).bytes;
  files = unzipSync(copy);
  lines = decode(libreOfficeConvert("copy.docx", copy, "txt:Text (encoded):UTF8"))
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}, 180_000);

afterAll(async () => {
  await alice?.close();
  await service?.dispose();
});

const after = (start: string, count: number) => {
  const at = lines.indexOf(start);
  if (at < 0) throw new Error(`no line "${start}" in:\n${lines.join("\n")}`);
  return lines.slice(at + 1, at + 1 + count);
};

describe("the review copy read as text in LibreOffice", () => {
  test("a sorting is a table of its categories and their items; objectives by their text", () => {
    const table = after("Sort each moment: before or after the patient?", 12).join("\n");
    expect(table).toContain("Before");
    expect(table).toContain("After");
    // Categories head the columns; each row holds one item of each category.
    const text = lines.join("\n");
    expect(text.indexOf("Before an aseptic task")).toBeLessThan(text.indexOf("Touching a patient's bed"));
    expect(text.indexOf("Touching a patient's bed")).toBeLessThan(text.indexOf("Entering the room"));
    expect(text).toContain("Feedback: Surroundings count too.");
    expect(text).toContain("Objectives: Name the five moments for hand hygiene");
    expect(text).not.toMatch(/items \d+ ›|category: |assetId|ast_[0-9a-z]{6,}/);
  });

  test("a labelled graphic is its picture, then its markers numbered as on the picture", () => {
    expect(lines).toContain("Alt text: Two hands with the places germs hide");
    expect(after("Markers, numbered as on the picture:", 6)).toEqual(["1. Fingertips", "Rub them in the palm.", "2. Thumbs", "Turn each thumb in the other hand.", "3. Wrists", "Finish at the wrists."]);
  });

  test("a process is numbered steps; an accordion its headings and text; a scenario its scenes and paths", () => {
    expect(lines).toContain("Step 1 of 3: Wet your hands");
    expect(lines).toContain("Step 2 of 3: Apply soap");
    expect(lines).toContain("Alt text: Soap on a palm");
    expect(lines).toContain("1. Before touching a patient");
    expect(lines).toContain("Clean hands every time, even with gloves.");
    expect(lines).toContain("• at the door");
    expect(lines).toContain("A call bell rings");
    expect(lines).toContain("• bell [“Rub your hands first”] → clean → ending (success)");
    expect(lines).toContain("Alt text: A nurse at a door");
  });

  test("bold and italic stay bold and italic, not Markdown marks", () => {
    const xml = decode(files["word/document.xml"]);
    expect(xml).toMatch(/<w:r>\s*<w:rPr>\s*<w:b\/>\s*<\/w:rPr>\s*<w:t xml:space="preserve">every time<\/w:t>/);
    expect(xml).toMatch(/<w:r>\s*<w:rPr>\s*<w:i\/>\s*<\/w:rPr>\s*<w:t xml:space="preserve">with<\/w:t>/);
    expect(xml).not.toContain("**every time**");
  });

  test("every picture is in word/media and referenced, its alt text as its description; the markers are drawn on the graphic", () => {
    const media = Object.keys(files).filter((name) => name.startsWith("word/media/"));
    expect(media.length).toBe(2);
    const relationships = decode(files["word/_rels/document.xml.rels"]);
    const xml = decode(files["word/document.xml"]);
    for (const name of media) {
      const id = new RegExp(`Id="([^"]+)" Type="[^"]+/image" Target="${name.slice("word/".length)}"`).exec(relationships)?.[1];
      expect(id).toBeDefined();
      expect(xml).toContain(`r:embed="${id}"`);
    }
    expect(xml).toContain('descr="A poster of the five moments"');
    expect(xml).toContain('descr="Two hands with the places germs hide"');
    expect((xml.match(/name="Marker \d"/g) ?? []).length).toBe(3);
    expect(xml).not.toContain("Picture. Alt text");
    // A picture on the web is not fetched: the copy says where it is.
    expect(lines).toContain("Picture not shown in this copy: it is on the web at https://example.org/moments.png.");
    expect(lines).toContain("Alt text: The WHO poster");
    const types = decode(files["[Content_Types].xml"]);
    expect(types).toContain('Extension="png"');
  });

  test("LibreOffice draws the pictures and the numbered markers on the graphic when it prints the copy", () => {
    const pdf = libreOfficeConvert("copy.docx", copy, "pdf");
    const folder = mkdtempSync(join(tmpdir(), "review-pdf-"));
    try {
      writeFileSync(join(folder, "copy.pdf"), pdf);
      const text = Bun.spawnSync(["pdftotext", "-layout", join(folder, "copy.pdf"), "-"], { stdout: "pipe" }).stdout.toString();
      // The three markers' numbers stand on their own between the graphic's label and its alt text.
      const graphic = text.slice(text.indexOf("Labeled graphic"), text.indexOf("Alt text: Two hands"));
      expect(graphic.split(/\s+/).filter((word) => /^\d$/.test(word))).toEqual(["1", "2", "3"]);
      const images = new TextDecoder("latin1").decode(pdf).match(/\/Subtype\s*\/Image/g) ?? [];
      expect(images.length).toBeGreaterThanOrEqual(2);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 120_000);
});

describe("comments on the new layout come back on their blocks", () => {
  test("a comment on a sorting table cell and one on a process step", async () => {
    const odf = decode(libreOfficeConvert("copy.docx", copy, "fodt"));
    const annotate = (source: string, paragraphText: string, name: string, text: string) => {
      const at = source.indexOf(`>${paragraphText}<`);
      if (at < 0) throw new Error(`no paragraph "${paragraphText}" in the ODF`);
      const note = `<office:annotation office:name="${name}"><dc:creator>Sam SME</dc:creator><dc:date>2026-11-20T10:00:00</dc:date><text:p>${text}</text:p></office:annotation>`;
      return `${source.slice(0, at + 1)}${note}${paragraphText}<office:annotation-end office:name="${name}"/>${source.slice(at + 1 + paragraphText.length)}`;
    };
    let edited = annotate(odf, "Entering the room", "c1", "This is a before moment, right?");
    edited = annotate(edited, "Enough to cover all surfaces.", "c2", "Say how much soap.");
    const commented = libreOfficeConvert("copy.fodt", edited, "docx:MS Word 2007 XML");
    const assetId = ((await alice.call("upload_asset", { courseId, filename: "hygiene-reviewed.docx", dataBase64: base64(commented) })).asset as Json).id;
    await alice.call("import_review_copy", { courseId, assetId });
    const comments = (await alice.call("list_comments", { courseId })).comments as Json[];
    const on = (type: string) => comments.filter((comment) => comment.target.id === blocks.find((block) => block.type === type)?.id).map((comment) => comment.body).join("\n");
    expect(on("sorting")).toContain("This is a before moment, right?");
    expect(on("process")).toContain("Say how much soap.");
  }, 180_000);
});
