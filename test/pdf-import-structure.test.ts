/**
 * import_course of a PDF keeps a document's structure (issue 46): one LibreOffice document with headings,
 * a table, a quote, two lists (one nested) and a picture with alt text is written as a Word file and as PDFs (tagged
 * and untagged) during the test, and the PDF's draft course is compared with the Word file's, block by
 * block: the same lessons, the same table (as the Word import writes it: a Markdown table), the same quote
 * block, the same lists, the picture with its alt text where the PDF is tagged. The same document as a
 * web page printed by Chromium (a second, independent writer of tagged PDF) comes back the same way. A
 * table that runs over pages comes back as one table with its header once.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { launchBrowser } from "./support/browser.ts";
import { libreOfficeConvert, redPng } from "./support/office-documents.ts";
import { startTestService, type TestService } from "./support/service.ts";

type Json = Record<string, any>;

let service: TestService;
let alice: Agent;
let uploadsCourse: string;

const namespaces =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" ' +
  'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"';
const cell = (text: string) => `<table:table-cell><text:p>${text}</text:p></table:table-cell>`;
const row = (cells: readonly string[]) => `<table:table-row>${cells.map(cell).join("")}</table:table-row>`;
const table = (header: readonly string[], rows: readonly (readonly string[])[]) =>
  `<table:table table:name="Cabinets"><table:table-column table:number-columns-repeated="${header.length}"/><table:table-header-rows>${row(header)}</table:table-header-rows>${rows.map(row).join("")}</table:table>`;

function document(rows: readonly (readonly string[])[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<office:document ${namespaces} office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.text"><office:body><office:text>
<text:h text:outline-level="1">Chemical Handling</text:h>
<text:h text:outline-level="2">Storage</text:h>
<text:p>Keep every chemical in its labelled place.</text:p>
${table(["Chemical", "Cabinet", "Limit"], rows)}
<text:p text:style-name="Quotations">Safety is not an accident; it is a habit we build every day.</text:p>
<text:list><text:list-item><text:p>Close lids after use</text:p><text:list><text:list-item><text:p>Tighten the cap</text:p></text:list-item><text:list-item><text:p>Check the seal</text:p></text:list-item></text:list></text:list-item><text:list-item><text:p>Wipe spills at once</text:p></text:list-item></text:list>
<text:h text:outline-level="2">Spills</text:h>
<text:p>Contain the spill before you clean it.</text:p>
<text:p><draw:frame draw:name="Kit" svg:width="4cm" svg:height="3cm" text:anchor-type="as-char"><draw:image><office:binary-data>${Buffer.from(redPng).toString("base64")}</office:binary-data></draw:image><svg:title>A red spill kit</svg:title></draw:frame></text:p>
<text:list><text:list-item><text:p>Put on gloves</text:p></text:list-item><text:list-item><text:p>Spread the absorbent</text:p></text:list-item></text:list>
</office:text></office:body></office:document>`;
}

const pdfFilter = (tagged: boolean) => `pdf:writer_pdf_Export:{"UseTaggedPDF":{"type":"boolean","value":"${tagged}"},"ExportBookmarks":{"type":"boolean","value":"${tagged}"}}`;

beforeAll(async () => {
  service = await startTestService();
  alice = await connectAgent(service, await devAccessToken(service, "alice"));
  uploadsCourse = (await alice.call("create_course", { title: "Uploads" })).id as string;
}, 60_000);

afterAll(async () => {
  await alice?.close();
  await service?.dispose();
});

async function importFile(filename: string, bytes: Uint8Array): Promise<{ result: Json; course: Json }> {
  const assetId = ((await alice.call("upload_asset", { courseId: uploadsCourse, filename, dataBase64: Buffer.from(bytes).toString("base64") })).asset as Json).id;
  const result = await alice.call("import_course", { assetId });
  return { result, course: (await alice.call("get_course", { courseId: (result.course as Json).id })) as Json };
}

const lessonsOf = (course: Json) => (course.modules as Json[]).flatMap((module) => module.lessons as Json[]);
/** Each lesson's blocks as what a reader compares: type and text (an image by its alt text, its asset aside). */
const shapeOf = (course: Json) =>
  lessonsOf(course).map((lesson) => ({
    title: lesson.title,
    blocks: (lesson.blocks as Json[]).map((block) => (block.type === "image" ? { type: "image", alt: block.alt } : block.type === "quote" ? { type: "quote", text: block.text } : { type: block.type, markdown: block.markdown })),
  }));

const shortRows = [["Acetone", "Red", "20 litres"], ["Bleach", "Blue", "10 litres"]];

describe("a document with headings, a table, a quote, lists and a picture", () => {
  let word: ReturnType<typeof shapeOf>;
  beforeAll(async () => {
    const { course } = await importFile("chemicals.docx", libreOfficeConvert("chemicals.fodt", document(shortRows), "docx:MS Word 2007 XML"));
    word = shapeOf(course);
  }, 120_000);

  test("the Word file, as the reference: a Markdown table and a quote block", () => {
    const blocks = word.flatMap((lesson) => lesson.blocks);
    expect(blocks).toContainEqual({ type: "text", markdown: "| Chemical | Cabinet | Limit |\n| --- | --- | --- |\n| Acetone | Red | 20 litres |\n| Bleach | Blue | 10 litres |" });
    expect(blocks).toContainEqual({ type: "quote", text: "Safety is not an accident; it is a habit we build every day." });
    expect(blocks).toContainEqual({ type: "text", markdown: "- Close lids after use\n   - Tighten the cap\n   - Check the seal\n- Wipe spills at once" });
  });

  test("tagged PDF: the same lessons and blocks as the Word file, the picture with its alt text", async () => {
    const { course, result } = await importFile("chemicals-tagged.pdf", libreOfficeConvert("chemicals.fodt", document(shortRows), pdfFilter(true)));
    expect(course.title).toBe("Chemical Handling");
    // LibreOffice 7.4 writes the picture's svg:title to neither descr nor title in .docx, so the Word import has only its placeholder; the PDF's Figure has the alt text.
    const withAlt = word.map((lesson) => ({ ...lesson, blocks: lesson.blocks.map((block) => (block.type === "image" ? { type: "image", alt: "A red spill kit" } : block)) }));
    expect(shapeOf(course)).toEqual(withAlt);
    const report = JSON.stringify(result.report);
    expect(report).toContain("1 table(s) from the PDF's tags");
    expect(report).toContain("1 quote(s) from the PDF's tags");
  }, 120_000);

  test("untagged PDF: the table from its aligned columns, the quote as a paragraph, the picture with a placeholder, each said in the report", async () => {
    const { course, result } = await importFile("chemicals-untagged.pdf", libreOfficeConvert("chemicals.fodt", document(shortRows), pdfFilter(false)));
    const expected = word.map((lesson) => ({
      ...lesson,
      blocks: lesson.blocks.map((block) => (block.type === "quote" ? { type: "text", markdown: block.text } : block.type === "image" ? { type: "image", alt: "Picture 1" } : block)),
    }));
    expect(shapeOf(course)).toEqual(expected);
    const report = JSON.stringify(result.report);
    expect(report).toContain("1 table(s) found from text aligned in columns");
    expect(report).toContain("quotes are read as paragraphs");
  }, 120_000);
});

describe("a table cell of two paragraphs", () => {
  test("tagged: the cell's paragraphs kept apart with <br>, as the Word import writes them", async () => {
    const source = document(shortRows).replace("<text:p>Red</text:p>", "<text:p>Red</text:p><text:p>Top shelf</text:p>");
    const fromWord = (await importFile("cell.docx", libreOfficeConvert("cell.fodt", source, "docx:MS Word 2007 XML"))).course;
    const fromPdf = (await importFile("cell.pdf", libreOfficeConvert("cell.fodt", source, pdfFilter(true)))).course;
    const tableOf = (course: Json) => shapeOf(course).flatMap((lesson) => lesson.blocks).find((block) => String(block.markdown ?? "").startsWith("| Chemical"));
    expect(tableOf(fromWord)).toEqual({ type: "text", markdown: "| Chemical | Cabinet | Limit |\n| --- | --- | --- |\n| Acetone | Red<br>Top shelf | 20 litres |\n| Bleach | Blue | 10 litres |" });
    expect(tableOf(fromPdf)).toEqual(tableOf(fromWord));
  }, 120_000);
});

describe("the same document from another writer: Chromium printing a web page as tagged PDF", () => {
  test("the same lessons, table, quote, lists and picture alt text as the LibreOffice PDF", async () => {
    const png = Buffer.from(redPng).toString("base64");
    const browser = await launchBrowser();
    let pdf: Uint8Array;
    try {
      const page = await browser.newPage();
      await page.setContent(`<!doctype html><html lang="en"><head><title>Chemical Handling</title></head><body>
<h1>Chemical Handling</h1><h2>Storage</h2><p>Keep every chemical in its labelled place.</p>
<table><thead><tr><th>Chemical</th><th>Cabinet</th><th>Limit</th></tr></thead><tbody><tr><td>Acetone</td><td>Red</td><td>20 litres</td></tr><tr><td>Bleach</td><td>Blue</td><td>10 litres</td></tr></tbody></table>
<blockquote>Safety is not an accident; it is a habit we build every day.</blockquote><ul><li>Close lids after use<ul><li>Tighten the cap</li><li>Check the seal</li></ul></li><li>Wipe spills at once</li></ul>
<h2>Spills</h2><p>Contain the spill before you clean it.</p><p><img src="data:image/png;base64,${png}" alt="A red spill kit" width="120"></p><ol><li>Put on gloves</li><li>Spread the absorbent</li></ol>
</body></html>`);
      pdf = new Uint8Array(await page.pdf({ tagged: true, outline: true }));
    } finally {
      await browser.close();
    }
    const { course, result } = await importFile("chemicals-chromium.pdf", pdf);
    expect(shapeOf(course)).toEqual([
      {
        title: "Storage",
        blocks: [
          { type: "text", markdown: "Keep every chemical in its labelled place." },
          { type: "text", markdown: "| Chemical | Cabinet | Limit |\n| --- | --- | --- |\n| Acetone | Red | 20 litres |\n| Bleach | Blue | 10 litres |" },
          { type: "quote", text: "Safety is not an accident; it is a habit we build every day." },
          { type: "text", markdown: "- Close lids after use\n   - Tighten the cap\n   - Check the seal\n- Wipe spills at once" },
        ],
      },
      {
        title: "Spills",
        blocks: [
          { type: "text", markdown: "Contain the spill before you clean it." },
          { type: "image", alt: "A red spill kit" },
          { type: "text", markdown: "1. Put on gloves\n2. Spread the absorbent" },
        ],
      },
    ]);
    expect(JSON.stringify(result.report)).toContain("1 table(s) from the PDF's tags");
  }, 120_000);
});

describe("a table over several pages", () => {
  const longRows = [...shortRows, ...Array.from({ length: 70 }, (_, index) => [`Item ${index + 1}`, `Shelf ${(index % 7) + 1}`, `${index + 1} kg`])];
  const expected = ["| Chemical | Cabinet | Limit |", "| --- | --- | --- |", ...longRows.map((cells) => `| ${cells.join(" | ")} |`)].join("\n");

  for (const tagged of [true, false]) {
    test(`${tagged ? "tagged" : "untagged"}: one table, every row once, the repeated header row left out`, async () => {
      const pdf = libreOfficeConvert("inventory.fodt", document(longRows), pdfFilter(tagged));
      const { course } = await importFile(`inventory-${tagged}.pdf`, pdf);
      const tables = lessonsOf(course).flatMap((lesson) => lesson.blocks as Json[]).filter((block) => String(block.markdown ?? "").startsWith("| Chemical"));
      expect(tables.map((block) => block.markdown)).toEqual([expected]);
    }, 120_000);
  }
});
