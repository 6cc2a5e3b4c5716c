/**
 * The PDF exports through the real service (issue 46): export_course pdf_handout and pdf_job_aid of a
 * course with every block kind, checked with independent tools (poppler's pdfinfo, pdffonts and
 * pdftotext, and qpdf): tagged, titled, in the course's language with untranslated parts marked,
 * headings, lists, a table and figures with alt text in the structure tree, bookmarks, fonts embedded
 * with Unicode maps, text in reading order, the answer key only when asked; a French translation
 * exports its own handout with French headings; a job aid holds at most two pages and says what it left out.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { devAccessToken } from "./support/dev-login.ts";
import { pixelPng } from "./support/export-course.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { teachingContentBlocks, teachingQuizBlocks } from "./support/teaching-blocks.ts";
import { exportPackage, readExport } from "./support/transfer.ts";

type Json = Record<string, any>;

const scratch = mkdtempSync(join(tmpdir(), "cas-pdf-export-"));
const base64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("base64");
const minimalPdf = "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n";

let service: TestService;
let alice: Agent;
let courseId: string;
let counter = 0;

function run(command: string[]): string {
  const result = Bun.spawnSync(command, { stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`${command.join(" ")} failed: ${result.stderr.toString()}`);
  return result.stdout.toString();
}

function saved(bytes: Uint8Array): string {
  const path = join(scratch, `export-${(counter += 1)}.pdf`);
  writeFileSync(path, bytes);
  return path;
}

async function exportPdf(args: Json): Promise<{ path: string; structured: Json }> {
  const exported = await exportPackage(alice, args);
  const { bytes, mimeType } = await readExport(alice, exported.structured.uri);
  expect(mimeType).toBe("application/pdf");
  return { path: saved(bytes), structured: exported.structured };
}

/** Says which text is missing from a long document without printing the document. */
function expectIn(document: string, text: string): void {
  expect({ text, found: document.includes(text) }).toEqual({ text, found: true });
}

/** Every object of the file as qpdf reads it, one JSON text to search. */
const qpdfJson = (path: string) => run(["qpdf", "--json", path]);

beforeAll(async () => {
  service = await startTestService();
  alice = await connectAgent(service, await devAccessToken(service, "alice"));
  const created = (await alice.call("create_course", {
    title: "Lab safety",
    description: "How to work **safely** in a teaching lab.",
    language: "en-GB",
    objectives: [{ text: "Choose the right protective equipment" }, { text: "Respond to a chemical spill" }],
    modules: [{ title: "Basics", summary: "What every assistant needs on day one.", lessons: [{ title: "Welcome" }] }],
  })) as Json;
  courseId = created.id;
  const image = ((await alice.call("upload_asset", { courseId, filename: "goggles.png", dataBase64: base64(pixelPng) })) as Json).asset.id as string;
  const attachment = ((await alice.call("upload_asset", { courseId, filename: "job-aid.pdf", dataBase64: base64(minimalPdf) })) as Json).asset.id as string;
  await alice.call("add_blocks", {
    courseId,
    lessonId: created.modules[0].lessons[0].id,
    blocks: [
      { type: "heading", text: "Why it matters", level: 2 },
      { type: "text", markdown: "Every accident starts with a *small* shortcut.\n\n- Goggles on\n- Gloves on\n\n| Hazard | Sign |\n|---|---|\n| Flame | Flammable |\n| Skull | Toxic |" },
      { type: "image", assetId: image, alt: "A pair of safety goggles" },
      { type: "callout", variant: "warning", title: "Always", markdown: "Wear goggles when pouring." },
      { type: "quote", text: "Safety is no accident.", attribution: "A lab manager" },
      { type: "accordion", items: [{ title: "Gloves", markdown: "Nitrile for most solvents." }] },
    ],
  });
  await alice.call("add_module", {
    courseId,
    title: "Phishing",
    lessons: [
      { title: "Teaching blocks", blocks: teachingContentBlocks({ image, attachment }) },
      {
        title: "Check",
        kind: "quiz",
        blocks: [
          { type: "single_choice", prompt: "First step at a spill?", choices: [{ text: "Stop and assess", correct: true }, { text: "Mop it up" }], explanation: "Assess first." },
          { type: "fill_in_blank", prompt: "Fill", text: "The {{1}} is blue.", blanks: [{ answers: ["sky"] }] },
          ...teachingQuizBlocks({ image, attachment }),
        ],
      },
    ],
  });
  await alice.call("update_course", { courseId, theme: { primaryColor: "#0f5132", logo: { assetId: image, alt: "Lab logo" } } });
}, 120_000);

afterAll(async () => {
  await alice?.close();
  await service?.dispose();
});

describe("pdf_handout", () => {
  let path: string;
  let structured: Json;
  beforeAll(async () => {
    ({ path, structured } = await exportPdf({ courseId, format: "pdf_handout", answerKey: true }));
  }, 120_000);

  test("is a tagged PDF with the course's title and language, bookmarks and fonts embedded with Unicode maps; qpdf finds no error", () => {
    expect(structured.fileName).toBe("lab-safety-handout.pdf");
    const info = run(["pdfinfo", path]);
    expect(info).toMatch(/^Tagged:\s+yes$/m);
    expect(info).toMatch(/^Title:\s+Lab safety$/m);
    expect(run(["qpdf", "--check", path])).toContain("No syntax or stream encoding errors");
    const json = qpdfJson(path);
    expectIn(json, '"/Lang": "u:en-GB"');
    expectIn(json, '"/DisplayDocTitle": true');
    expect(/"\/Outlines": "\d+ 0 R"/.test(json)).toBe(true);
    const fonts = run(["pdffonts", path]).split("\n").slice(2).filter((line) => line.trim());
    expect(fonts.length).toBeGreaterThan(0);
    // name, type, encoding, then emb sub uni: every font embedded and mapped to Unicode.
    for (const line of fonts) expect(line).toMatch(/\s+yes\s+yes\s+yes\s+\d+\s+\d+$/);
  });

  test("the structure tree has headings, lists, a table, figures with alt text and linked contents", () => {
    const tree = run(["pdfinfo", "-struct-text", path]);
    for (const tag of ["H1", "H2", "H3", "P", "L", "LI", "LBody", "Table", "TR", "TH", "TD", "Figure", "TOC", "TOCI", "BlockQuote"]) expect(tree).toMatch(new RegExp(`^\\s*${tag}\\b`, "m"));
    const json = qpdfJson(path);
    expectIn(json, '"/Alt": "u:A pair of safety goggles"');
    expectIn(json, '"/Alt": "u:A phishing email with its warning signs marked"');
    expectIn(json, '"/Alt": "u:Lab logo"');
    expectIn(json, '"/S": "/Link"');
  });

  test("the text reads in the course's order: cover, contents, modules and lessons, printable blocks, the answer key last", () => {
    const text = run(["pdftotext", path, "-"]);
    const order = ["Lab safety", "Choose the right protective equipment", "Contents", "Module 1: Basics", "Why it matters", "Goggles on", "Flammable", "Wear goggles when pouring.", "Nitrile for most solvents.", "Module 2: Phishing", "Teaching blocks", "1. Sender", "The domain is misspelt.", "1. Do not click", "Day 1", "Paths through the scenario", "Question 1", "First step at a spill?", "(1) __________", "Answer key", "Stop and assess", "sky"];
    let at = -1;
    for (const words of order) {
      const found = text.indexOf(words, at + 1);
      expect({ words, found: found > at }).toEqual({ words, found: true });
      at = found;
    }
    expect(text).toMatch(/Page 1 of \d+/);
  });

  test("without answerKey the handout is a worksheet: no answer key; answerKey on another format is refused naming the field", async () => {
    const { path: worksheet } = await exportPdf({ courseId, format: "pdf_handout" });
    const text = run(["pdftotext", worksheet, "-"]);
    expect(text).toContain("Question 1");
    expect(text).not.toContain("Answer key");
    const refused = await alice.client.callTool({ name: "export_course", arguments: { courseId, format: "html", answerKey: true } });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain("answerKey: only pdf_handout");
  }, 120_000);

  test("a page renders: the first page has ink on it", async () => {
    run(["pdftoppm", "-r", "40", "-f", "1", "-l", "1", "-png", path, join(scratch, "page")]);
    const png = await Bun.file(join(scratch, "page-01.png")).exists() ? join(scratch, "page-01.png") : join(scratch, "page-1.png");
    expect((await Bun.file(png).arrayBuffer()).byteLength).toBeGreaterThan(2_000);
  });
});

describe("a translation exports its own handout", () => {
  test("in French, with French headings, and the untranslated blocks marked as English", async () => {
    const translation = (await alice.call("create_translation", { courseId, language: "fr" })) as Json;
    const { path, structured } = await exportPdf({ courseId: translation.courseId, format: "pdf_handout" });
    const json = qpdfJson(path);
    expectIn(json, '"/Lang": "u:fr"');
    expectIn(json, '"/Lang": "u:en-GB"');
    const text = run(["pdftotext", path, "-"]);
    expect(text).toContain("Sommaire");
    expect(text).toMatch(/Page 1 sur \d+/);
    expect(structured.notices.join(" ")).toContain("not translated yet");
  }, 120_000);
});

describe("pdf_job_aid", () => {
  test("the objectives and each lesson's key points on at most two tagged pages", async () => {
    const { path } = await exportPdf({ courseId, format: "pdf_job_aid" });
    const info = run(["pdfinfo", path]);
    expect(info).toMatch(/^Tagged:\s+yes$/m);
    expect(Number(/^Pages:\s+(\d+)$/m.exec(info)?.[1])).toBeLessThanOrEqual(2);
    const text = run(["pdftotext", path, "-"]);
    for (const words of ["Job aid: Lab safety", "Objectives", "Respond to a chemical spill", "Wear goggles when pouring.", "Do not click", "Report", "The lure"]) expect(text).toContain(words);
    expect(text).not.toContain("Question 1");
  }, 120_000);

  test("a course too large for two pages says what it left out, in the PDF and in the notices", async () => {
    const big = (await alice.call("create_course", {
      title: "Big manual",
      language: "en",
      modules: Array.from({ length: 6 }, (_, module) => ({
        title: `Part ${module + 1}`,
        lessons: Array.from({ length: 5 }, (_, lesson) => ({
          title: `Procedure ${module + 1}.${lesson + 1}`,
          blocks: [{ type: "process", steps: Array.from({ length: 5 }, (_, step) => ({ title: `Step ${step + 1} of procedure ${module + 1}.${lesson + 1}`, markdown: "Do it." })) }],
        })),
      })),
    })) as Json;
    const { path, structured } = await exportPdf({ courseId: big.id, format: "pdf_job_aid" });
    expect(Number(/^Pages:\s+(\d+)$/m.exec(run(["pdfinfo", path]))?.[1])).toBeLessThanOrEqual(2);
    expect(run(["pdftotext", path, "-"])).toMatch(/\d+ more key points? did not fit/);
    expect(structured.notices.join(" ")).toMatch(/part\(s\) left out: Procedure \d\.\d; .* and \d+ more\./);
  }, 120_000);
});
