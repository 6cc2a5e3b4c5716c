/**
 * Nothing from a document lost silently (issue 41): the pictures of a Word document written by LibreOffice
 * become assets wherever LibreOffice puts them (a plain picture, a captioned picture in a frame, a picture
 * in a table cell); an objectives section or slide (in English, Spanish, French or German words) becomes
 * the course's objectives, not a lesson, and the report says so; imported into a course that has
 * objectives, the document's are added after the course's own, none replaced; a shape without text (a
 * drawn star) is named in the report as dropped. Through the real service over MCP.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Document, HeadingLevel, Packer, Paragraph } from "docx";
import PptxGenJS from "pptxgenjs";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { deckFromLibreOffice, libreOfficeConvert, solidPng } from "./support/office-documents.ts";
import { startTestService, type TestService } from "./support/service.ts";

type Json = Record<string, any>;

let service: TestService;
let alice: Agent;
let uploadsCourse: string;

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

beforeAll(async () => {
  service = await startTestService();
  alice = await connectAgent(service, await devAccessToken(service, "alice"));
  uploadsCourse = (await alice.call("create_course", { title: "Uploads" })).id as string;
}, 60_000);

afterAll(async () => {
  await alice?.close();
  await service?.dispose();
});

async function upload(filename: string, bytes: Uint8Array): Promise<string> {
  return ((await alice.call("upload_asset", { courseId: uploadsCourse, filename, dataBase64: base64(bytes) })).asset as Json).id;
}

async function importFile(filename: string, bytes: Uint8Array, extra: Json = {}): Promise<{ result: Json; course: Json }> {
  const result = await alice.call("import_course", { assetId: await upload(filename, bytes), ...extra });
  const course = (await alice.call("get_course", { courseId: (result.course as Json | undefined)?.id ?? (result.into as Json).courseId })) as Json;
  return { result, course };
}

const lessonsOf = (course: Json) => (course.modules as Json[]).flatMap((module) => module.lessons as Json[]);
const reportItems = (result: Json, outcome: string) => ((result.report as Json).items as Json[]).filter((item) => item.outcome === outcome).map((item) => String(item.item));

const odt = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
<office:body><office:text>${body}</office:text></office:body></office:document>`;

const picture = (name: string, png: Uint8Array, anchor = "as-char") =>
  `<draw:frame draw:name="${name}" text:anchor-type="${anchor}" svg:width="4cm" svg:height="3cm"><draw:image><office:binary-data>${base64(png)}</office:binary-data></draw:image><svg:desc>${name}</svg:desc></draw:frame>`;

describe("a Word document written by LibreOffice", () => {
  test("its pictures become assets: plain, captioned in a frame, and in a table cell; a drawn star is reported as dropped; Spanish objectives become the course's", async () => {
    const document = odt(`
      <text:h text:outline-level="1">Higiene de manos</text:h>
      <text:h text:outline-level="2">Objetivos de aprendizaje</text:h>
      <text:list><text:list-item><text:p>Nombrar los cinco momentos</text:p></text:list-item><text:list-item><text:p>Frotar durante veinte segundos</text:p></text:list-item></text:list>
      <text:h text:outline-level="2">Los cinco momentos</text:h>
      <text:h text:outline-level="3">Antes del paciente</text:h>
      <text:p>Texto.</text:p>
      <text:p>${picture("Plain", solidPng(40, 30, [200, 0, 0]), "paragraph")}</text:p>
      <text:p><draw:frame draw:name="Frame1" text:anchor-type="paragraph" svg:width="5cm"><draw:text-box><text:p>${picture("Captioned", solidPng(30, 40, [0, 150, 0]))}Figura 1: gel en la palma</text:p></draw:text-box></draw:frame></text:p>
      <table:table><table:table-column table:number-columns-repeated="2"/><table:table-row><table:table-cell><text:p>Paso</text:p></table:table-cell><table:table-cell><text:p>${picture("InTable", solidPng(20, 20, [0, 0, 200]))}</text:p></table:table-cell></table:table-row></table:table>
      <text:p>Una estrella: <draw:custom-shape draw:name="Estrella" text:anchor-type="as-char" svg:width="2cm" svg:height="2cm"><draw:enhanced-geometry draw:type="star5"/></draw:custom-shape></text:p>`);
    const { result, course } = await importFile("higiene.docx", libreOfficeConvert("higiene.fodt", document, "docx:MS Word 2007 XML"));
    expect(course.title).toBe("Higiene de manos");
    expect((course.objectives as Json[]).map((objective) => objective.text)).toEqual(["Nombrar los cinco momentos", "Frotar durante veinte segundos"]);
    expect(lessonsOf(course).map((lesson) => lesson.title)).toEqual(["Antes del paciente"]);
    const images = (lessonsOf(course)[0]?.blocks as Json[]).filter((block) => block.type === "image");
    expect(images.length).toBe(3);
    expect(new Set(images.map((image) => image.assetId)).size).toBe(3);
    expect(images[1]?.caption).toBe("Figura 1: gel en la palma");
    const assets = (await alice.call("list_assets", { courseId: course.id })).assets as Json[];
    expect(assets.map((asset) => asset.mediaType)).toEqual(["image/png", "image/png", "image/png"]);
    expect(reportItems(result, "dropped").join("\n")).toContain("a shape without text (Estrella, star5)");
    const changed = reportItems(result, "changed").join("\n");
    expect(changed).toContain('"Objetivos de aprendizaje" and its list became 2 of the course\'s objectives');
    expect(changed).toContain("became its caption");
  }, 180_000);
});

describe("objectives from a document", () => {
  test("a docx-library document's \"By the end of this course\" section becomes the objectives; into a course with objectives they are added after its own", async () => {
    const document = new Document({
      sections: [
        {
          children: [
            new Paragraph({ text: "Glove use", heading: HeadingLevel.TITLE }),
            new Paragraph({ text: "By the end of this course, you will be able to:", heading: HeadingLevel.HEADING_1 }),
            new Paragraph({ text: "Choose the right gloves", bullet: { level: 0 } }),
            new Paragraph({ text: "Clean hands at the five moments", bullet: { level: 0 } }),
            new Paragraph({ text: "Putting gloves on", heading: HeadingLevel.HEADING_1 }),
            new Paragraph({ text: "Step by step", heading: HeadingLevel.HEADING_2 }),
            new Paragraph({ text: "Clean hands first." }),
          ],
        },
      ],
    });
    const bytes = new Uint8Array(await Packer.toBuffer(document));
    const alone = await importFile("gloves.docx", bytes);
    expect((alone.course.objectives as Json[]).map((objective) => objective.text)).toEqual(["Choose the right gloves", "Clean hands at the five moments"]);
    expect(lessonsOf(alone.course).map((lesson) => lesson.title)).toEqual(["Step by step"]);
    expect(reportItems(alone.result, "changed").join("\n")).toContain("became 2 of the course's objectives");

    const target = await alice.call("create_course", { title: "Hand hygiene", objectives: [{ text: "Clean hands at the five moments" }, { text: "Know when to wash with soap" }] });
    const courseId = String((target.course as Json | undefined)?.id ?? target.id);
    const before = (await alice.call("get_course", { courseId })) as Json;
    const into = await importFile("gloves.docx", bytes, { into: { courseId } });
    expect((into.course.objectives as Json[]).map((objective) => objective.text)).toEqual(["Clean hands at the five moments", "Know when to wash with soap", "Choose the right gloves"]);
    expect((into.course.objectives as Json[]).slice(0, 2)).toEqual(before.objectives);
    expect(into.course.title).toBe("Hand hygiene");
  }, 120_000);

  test("a deck's \"Learning objectives\" slide becomes the objectives, not a lesson; a drawn star and a line are named as dropped", async () => {
    const pptx = new PptxGenJS();
    pptx.addSlide().addText("Hand hygiene for new nurses", { x: 0.5, y: 1, w: 9, h: 1 });
    const objectives = pptx.addSlide();
    objectives.addText("Learning objectives", { x: 0.5, y: 0.3, w: 9, h: 0.8 });
    objectives.addText(
      [
        { text: "Name the five moments", options: { bullet: true, breakLine: true } },
        { text: "Rub for twenty seconds", options: { bullet: true } },
      ],
      { x: 0.5, y: 1.5, w: 9, h: 2 },
    );
    const lesson = pptx.addSlide();
    lesson.addText("Why it matters", { x: 0.5, y: 0.3, w: 9, h: 0.8 });
    lesson.addText("Hands carry germs.", { x: 0.5, y: 1.5, w: 9, h: 1 });
    lesson.addShape(pptx.ShapeType.star5, { x: 6, y: 3, w: 1.5, h: 1.5, fill: { color: "FFC000" } });
    lesson.addShape(pptx.ShapeType.line, { x: 1, y: 4, w: 3, h: 0, line: { color: "000000", width: 2 } });
    const bytes = (await pptx.write({ outputType: "uint8array" })) as Uint8Array;
    const { result, course } = await importFile("hygiene.pptx", bytes);
    expect((course.objectives as Json[]).map((objective) => objective.text)).toEqual(["Name the five moments", "Rub for twenty seconds"]);
    expect(lessonsOf(course).map((lesson) => lesson.title)).toEqual(["Why it matters"]);
    const dropped = reportItems(result, "dropped").join("\n");
    expect(dropped).toMatch(/a shape without text on slide 3 \([^)]*star5\)/);
    expect(dropped).toMatch(/slide 3 \([^)]*line\)/);
    expect(reportItems(result, "changed").join("\n")).toContain('slide 2: "Learning objectives" and its list became 2 of the course\'s objectives');
  }, 120_000);

  test("a LibreOffice deck's French \"Objectifs pédagogiques\" slide becomes the objectives; its speaker notes are named, not lost", async () => {
    const deck = deckFromLibreOffice("Hygiène des mains", "Pour les nouveaux infirmiers", [
      { title: "Objectifs pédagogiques", bullets: ["Nommer les cinq moments", "Frictionner pendant vingt secondes"], notes: "Lire les objectifs à voix haute." },
      { title: "Pourquoi", bullets: ["Les mains transportent les germes."] },
    ]);
    const { result, course } = await importFile("hygiene.pptx", deck);
    expect((course.objectives as Json[]).map((objective) => objective.text)).toEqual(["Nommer les cinq moments", "Frictionner pendant vingt secondes"]);
    expect(lessonsOf(course).map((lesson) => lesson.title)).toEqual(["Pourquoi"]);
    expect(reportItems(result, "changed").join("\n")).toContain('"Objectifs pédagogiques" and its list became 2 of the course\'s objectives');
    expect(reportItems(result, "dropped").join("\n")).toContain("the speaker notes of slide 2");
  }, 120_000);
});
