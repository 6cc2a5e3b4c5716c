/**
 * import_course of a PDF through the real service (issue 46), from an uploaded asset: PDFs written by
 * LibreOffice, tagged and untagged, become the course's title, lessons, paragraphs and lists; our own
 * handout comes back with its modules and lessons and without its running footers; a PDF with no text
 * (a scan), a broken one and one that is not a PDF are refused naming the rule, with nothing created,
 * while /api/health keeps answering.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { libreOfficeConvert } from "./support/office-documents.ts";
import { assertResponsive, watchResponsiveness } from "./support/responsiveness.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { exportPackage, pngBase64, readExport } from "./support/transfer.ts";

type Json = Record<string, any>;

let service: TestService;
let alice: Agent;
let uploadsCourse: string;
const base64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("base64");

const manual = `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.text">
<office:body><office:text>
<text:h text:outline-level="1">Fire Safety Manual</text:h>
<text:h text:outline-level="2">Preventing fires</text:h>
<text:p>Fires start when heat, fuel and oxygen meet. Keep them apart.</text:p>
<text:list><text:list-item><text:p>Store solvents in the red cabinet</text:p></text:list-item><text:list-item><text:p>Switch off heaters at night</text:p></text:list-item></text:list>
<text:h text:outline-level="2">When a fire starts</text:h>
<text:p>Raise the alarm first, then leave by the nearest exit.</text:p>
</office:text></office:body></office:document>`;

const tagged = 'pdf:writer_pdf_Export:{"UseTaggedPDF":{"type":"boolean","value":"true"},"ExportBookmarks":{"type":"boolean","value":"true"}}';
const untagged = 'pdf:writer_pdf_Export:{"UseTaggedPDF":{"type":"boolean","value":"false"},"ExportBookmarks":{"type":"boolean","value":"false"}}';

beforeAll(async () => {
  service = await startTestService();
  alice = await connectAgent(service, await devAccessToken(service, "alice"));
  uploadsCourse = (await alice.call("create_course", { title: "Uploads" })).id as string;
});

afterAll(async () => {
  await alice?.close();
  await service?.dispose();
});

async function upload(filename: string, bytes: Uint8Array | string): Promise<string> {
  return ((await alice.call("upload_asset", { courseId: uploadsCourse, filename, dataBase64: base64(bytes) })).asset as Json).id;
}

async function importPdf(filename: string, bytes: Uint8Array): Promise<{ result: Json; course: Json }> {
  const result = await alice.call("import_course", { assetId: await upload(filename, bytes) });
  const course = (await alice.call("get_course", { courseId: (result.course as Json).id })) as Json;
  return { result, course };
}

const lessonsOf = (course: Json) => (course.modules as Json[]).flatMap((module) => module.lessons as Json[]);
const markdownOf = (lesson: Json) => (lesson.blocks as Json[]).map((block) => block.markdown ?? block.text ?? "").join("\n");

describe("PDFs written by LibreOffice", () => {
  for (const [name, filter] of [["tagged", tagged], ["untagged", untagged]] as const) {
    test(`${name}: the title, a lesson per section heading, paragraphs and a list`, async () => {
      const pdf = libreOfficeConvert("manual.fodt", manual, filter);
      const { result, course } = await importPdf(`manual-${name}.pdf`, pdf);
      expect(result.importedFrom).toBe("pdf");
      expect(course.title).toBe("Fire Safety Manual");
      const lessons = lessonsOf(course);
      expect(lessons.map((lesson) => lesson.title)).toEqual(["Preventing fires", "When a fire starts"]);
      expect(markdownOf(lessons[0] as Json)).toContain("Fires start when heat, fuel and oxygen meet.");
      expect(markdownOf(lessons[0] as Json)).toContain("- Store solvents in the red cabinet\n- Switch off heaters at night");
      expect(markdownOf(lessons[1] as Json)).toContain("Raise the alarm first");
    }, 120_000);
  }
});

/** A tagged LibreOffice PDF with a picture whose alt text (the frame's title) is "A red fire extinguisher". */
const pictured = manual
  .replace('office:version="1.2"', 'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" office:version="1.2"')
  .replace(
    "<text:p>Raise the alarm first",
    `<text:p><draw:frame draw:name="Extinguisher" svg:width="4cm" svg:height="4cm" text:anchor-type="as-char"><draw:image><office:binary-data>${pngBase64}</office:binary-data></draw:image><svg:title>A red fire extinguisher</svg:title></draw:frame></text:p><text:p>Raise the alarm first`,
  );

describe("pictures", () => {
  test("a LibreOffice PDF's picture becomes an image asset where it stood, with the alt text of its Figure", async () => {
    const pdf = libreOfficeConvert("pictured.fodt", pictured, tagged);
    const { course, result } = await importPdf("pictured.pdf", pdf);
    const lesson = lessonsOf(course)[1] as Json;
    const image = (lesson.blocks as Json[]).find((block) => block.type === "image");
    // LibreOffice draws the picture as an artefact and writes its Figure (with /Alt) without content; the Figure's /Pg places it.
    expect(image).toMatchObject({ alt: "A red fire extinguisher" });
    expect((lesson.blocks as Json[]).indexOf(image as Json)).toBe(0);
    const assets = (await alice.call("list_assets", { courseId: course.id })) as Json;
    expect(JSON.stringify(assets)).toContain(image?.assetId);
    expect(JSON.stringify(result.report)).toContain("picture(s) as PNG assets");
  }, 120_000);

  test("the same PDF re-saved by qpdf with its objects in compressed object streams keeps the alt text", async () => {
    const folder = mkdtempSync(join(tmpdir(), "pdf-objstm-"));
    let pdf: Uint8Array;
    try {
      writeFileSync(join(folder, "in.pdf"), libreOfficeConvert("pictured.fodt", pictured, tagged));
      const run = Bun.spawnSync(["qpdf", "--object-streams=generate", join(folder, "in.pdf"), join(folder, "out.pdf")], { stderr: "pipe" });
      if (run.exitCode !== 0) throw new Error(`qpdf failed: ${run.stderr.toString()}`);
      pdf = new Uint8Array(readFileSync(join(folder, "out.pdf")));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
    expect(new TextDecoder("latin1").decode(pdf)).toContain("/ObjStm");
    const { course } = await importPdf("pictured-objstm.pdf", pdf);
    const image = (lessonsOf(course)[1]?.blocks as Json[]).find((block) => block.type === "image");
    expect(image).toMatchObject({ alt: "A red fire extinguisher" });
  }, 120_000);

  test("untagged, the same picture keeps a placeholder alt text validate_course reports", async () => {
    const pdf = libreOfficeConvert("pictured.fodt", pictured, untagged);
    const { course } = await importPdf("pictured-untagged.pdf", pdf);
    const image = (lessonsOf(course)[1]?.blocks as Json[]).find((block) => block.type === "image");
    expect(image).toMatchObject({ alt: "Picture 1" });
    const validation = (await alice.call("validate_course", { courseId: course.id })) as Json;
    expect(JSON.stringify(validation)).toContain("image.unhelpful_alt");
  }, 120_000);
});

describe("our own handout", () => {
  test("comes back with its modules and lessons, without its running footers and page numbers", async () => {
    const source = (await alice.call("create_course", {
      title: "Ladder safety",
      language: "en",
      modules: [
        { title: "Before you climb", lessons: [{ title: "Inspect the ladder", blocks: [{ type: "text", markdown: "Check the feet and the rungs for damage.\n\n- Feet\n- Rungs\n- Locks" }] }] },
        { title: "On the ladder", lessons: [{ title: "Three points of contact", blocks: [{ type: "text", markdown: "Keep two hands and a foot, or two feet and a hand, on the ladder." }] }] },
      ],
    })) as Json;
    const picture = ((await alice.call("upload_asset", { courseId: source.id, filename: "ladder.png", dataBase64: pngBase64 })) as Json).asset.id as string;
    await alice.call("add_blocks", { courseId: source.id, lessonId: source.modules[0].lessons[0].id, blocks: [{ type: "image", assetId: picture, alt: "A ladder with its feet on a mat" }] });
    const exported = await exportPackage(alice, { courseId: source.id, format: "pdf_handout" });
    const { bytes } = await readExport(alice, exported.structured.uri);
    const { course, result } = await importPdf("ladder.pdf", bytes);
    const titles = lessonsOf(course).map((lesson) => lesson.title);
    expect(titles).toEqual(expect.arrayContaining(["Inspect the ladder", "Three points of contact"]));
    const text = lessonsOf(course).map(markdownOf).join("\n");
    expect(text).toContain("Check the feet and the rungs for damage.");
    expect(text).toContain("- Feet");
    // The tagged figure's alt text comes back with its picture.
    const image = lessonsOf(course).flatMap((lesson) => lesson.blocks as Json[]).find((block) => block.type === "image");
    expect(image).toMatchObject({ alt: "A ladder with its feet on a mat" });
    // The handout's footers are artefacts: never read as text.
    expect(text).not.toMatch(/Page \d+ of \d+/);
    expect(result.importedFrom).toBe("pdf");
  }, 120_000);
});

/** Three pages under one running header and a footer with the page number, written by LibreOffice without tags. */
const pagedManual = `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.text">
<office:automatic-styles><style:style style:name="Break" style:family="paragraph"><style:paragraph-properties fo:break-before="page"/></style:style><style:page-layout style:name="PL"><style:page-layout-properties fo:page-width="21cm" fo:page-height="29.7cm"/><style:header-style/><style:footer-style/></style:page-layout></office:automatic-styles>
<office:master-styles><style:master-page style:name="Standard" style:page-layout-name="PL"><style:header><text:p>Acme Corp · Warehouse handbook</text:p></style:header><style:footer><text:p>Page <text:page-number text:select-page="current">1</text:page-number></text:p></style:footer></style:master-page></office:master-styles>
<office:body><office:text>
<text:h text:outline-level="1">Warehouse handbook</text:h>
<text:h text:outline-level="2">Forklifts</text:h><text:p>Only trained staff drive forklifts.</text:p>
<text:p text:style-name="Break"/><text:h text:outline-level="2">Racking</text:h><text:p>Never climb the racking.</text:p>
<text:p text:style-name="Break"/><text:h text:outline-level="2">Loading bays</text:h><text:p>Chock the wheels of every trailer.</text:p>
</office:text></office:body></office:document>`;

describe("running headers and footers", () => {
  test("the header and the page numbers on every page are dropped and reported", async () => {
    const pdf = libreOfficeConvert("handbook.fodt", pagedManual, untagged);
    const { course, result } = await importPdf("handbook.pdf", pdf);
    expect(lessonsOf(course).map((lesson) => lesson.title)).toEqual(["Forklifts", "Racking", "Loading bays"]);
    const text = lessonsOf(course).map(markdownOf).join("\n");
    expect(text).toContain("Chock the wheels of every trailer.");
    expect(text).not.toContain("Acme Corp");
    expect(text).not.toMatch(/Page \d/);
    expect(JSON.stringify(result.report)).toContain("running header, footer and page-number line(s)");
  }, 120_000);
});

describe("refused, naming the rule, with nothing created", () => {
  const courseCount = async () => ((await alice.call("list_courses", {})).courses as Json[]).length;

  test("a PDF without text (a scan) says so; /api/health answers meanwhile", async () => {
    const scan = libreOfficeConvert("blank.fodt", manual.replace(/<text:(h|p)[^>]*>[^<]*<\/text:\1>/g, "").replace(/<text:list>.*<\/text:list>/s, ""), untagged);
    const assetId = await upload("scan.pdf", scan);
    const before = await courseCount();
    const seen = await watchResponsiveness(service, alice.client.callTool({ name: "import_course", arguments: { assetId } }));
    assertResponsive(seen, 5_000);
    expect(seen.outcome.ok).toBe(true);
    const result = (seen.outcome as { ok: true; value: Json }).value;
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("scan.pdf: has no text to import: it looks like a scanned document");
    expect(await courseCount()).toBe(before);
  }, 120_000);

  test("a broken PDF names the broken cross-reference table", async () => {
    const assetId = await upload("broken.pdf", "%PDF-1.7\n1 0 obj <</Type /Catalog /Pages 9 0 R>> endobj\nxref\n0 1\nzzzz\ntrailer <</Root 1 0 R>>\n%%EOF\n");
    const result = await alice.client.callTool({ name: "import_course", arguments: { assetId } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("broken.pdf: has a broken cross-reference table (rule: cross-reference table)");
  }, 60_000);
});
