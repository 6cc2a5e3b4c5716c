/**
 * Hostile PDFs given to import_course (issue 46, within issue 28's bounds): 5,000 pages, a decompression
 * bomb (a 4 MB FlateDecode stream that inflates to 4 GB), arrays and dictionaries nested 100,000 deep, a
 * cross-reference table that lies, encrypted files (with and without a password to open them), and
 * script, launch actions, embedded files and XFA forms. Each is refused with an error naming the file and
 * the rule, no course is created and an existing course is unchanged, and /api/health answers while the
 * import runs. The PDFs are written here byte by byte (and encrypted with qpdf), not kept as fixtures.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { deflateRawSync, constants } from "node:zlib";
import { devAccessToken } from "./support/dev-login.ts";
import { probeHealthWhile } from "./support/health-probe.ts";
import { AgentToolError, connectAgent, type Agent } from "./support/mcp-client.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

type Json = Record<string, any>;
type Part = string | Uint8Array;

let service: TestService;
let alice: Agent;
let uploads: string;

const latin1 = (text: string) => Uint8Array.from(text, (char) => char.charCodeAt(0));
const concat = (parts: readonly Uint8Array[]) => new Uint8Array(Buffer.concat(parts));

/** A PDF of numbered objects (1 is the catalog) with a true cross-reference table, unless `xrefShift` moves its offsets. */
function pdf(objects: readonly Part[][], options: { xrefShift?: number } = {}): Uint8Array {
  const parts: Uint8Array[] = [latin1("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")];
  let length = parts[0]?.length ?? 0;
  const offsets: number[] = [];
  for (const [index, object] of objects.entries()) {
    offsets.push(length);
    for (const part of [`${index + 1} 0 obj\n`, ...object, "\nendobj\n"]) {
      const bytes = typeof part === "string" ? latin1(part) : part;
      parts.push(bytes);
      length += bytes.length;
    }
  }
  const entries = offsets.map((offset) => `${String(offset + (options.xrefShift ?? 0)).padStart(10, "0")} 00000 n \n`).join("");
  parts.push(latin1(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${entries}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`));
  return concat(parts);
}

const font = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>";
const text = (words: string) => {
  const content = `BT /F1 12 Tf 72 700 Td (${words}) Tj ET`;
  return `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;
};
/** One page (object 3) drawing object 4 with the font in object 5; `extra` goes into the page's dictionary. */
const onePage = (content: Part[], extra = "") => pdf([["<< /Type /Catalog /Pages 2 0 R >>"], ["<< /Type /Pages /Kids [3 0 R] /Count 1 >>"], [`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >>${extra} >>`], content, [font]]);
const readable = onePage([text("Fire doors must be kept closed at all times.")]);

/** zlib data inflating to `gigabytes` GB of zeros: one byte-aligned deflate block of 1 MB repeated (every match reaches only zeros), then an empty last block. */
function bomb(gigabytes: number): Uint8Array {
  const block = deflateRawSync(new Uint8Array(1024 * 1024), { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
  const blocks = gigabytes * 1024;
  const total = blocks * 1024 * 1024;
  const adler = (((total % 65521) << 16) | 1) >>> 0;
  return concat([Uint8Array.of(0x78, 0xda), ...Array.from({ length: blocks }, () => block), Uint8Array.of(0x03, 0x00, adler >>> 24, (adler >>> 16) & 0xff, (adler >>> 8) & 0xff, adler & 0xff)]);
}

/** `qpdf --encrypt` of `bytes` with the given passwords (AES-256). */
function encrypted(bytes: Uint8Array, user: string, owner: string): Uint8Array {
  const folder = mkdtempSync(join(tmpdir(), "pdf-encrypt-"));
  try {
    writeFileSync(join(folder, "in.pdf"), bytes);
    const run = Bun.spawnSync(["qpdf", "--encrypt", user, owner, "256", "--", join(folder, "in.pdf"), join(folder, "out.pdf")], { stderr: "pipe" });
    if (run.exitCode !== 0) throw new Error(`qpdf failed: ${run.stderr.toString()}`);
    return new Uint8Array(readFileSync(join(folder, "out.pdf")));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  service = await startTestService();
  alice = await connectAgent(service, await devAccessToken(service, "alice"));
  uploads = (await alice.call("create_course", { title: "Uploads" })).id as string;
}, 60_000);

afterAll(async () => {
  await alice?.close();
  await service?.dispose();
});

const courseCount = async () => ((await alice.call("list_courses", {})).courses as Json[]).length;

/**
 * Uploads `bytes` as `filename` (or gives them inline when the upload scan would refuse them first),
 * imports them while probing /api/health, and returns the refusal after checking nothing was created.
 */
async function refusedImport(filename: string, bytes: Uint8Array, options: { inline?: boolean; long?: boolean } = {}): Promise<AgentToolError> {
  const source = options.inline
    ? { contentBase64: Buffer.from(bytes).toString("base64"), format: "pdf" }
    : { assetId: ((await alice.call("upload_asset", { courseId: uploads, filename, dataBase64: Buffer.from(bytes).toString("base64") })).asset as Json).id };
  const before = await courseCount();
  const { outcome, answered, answeredWhilePending } = await probeHealthWhile(service.url, alice.fail("import_course", source));
  expect(answered).toBeGreaterThan(0);
  if (options.long) expect(answeredWhilePending).toBeGreaterThan(0);
  if (!outcome.ok) throw outcome.error;
  expect(await courseCount()).toBe(before);
  if (!options.inline) expect(outcome.value.message).toStartWith(`${filename}: `);
  expect(outcome.value.message).toEndWith("nothing was imported.");
  return outcome.value;
}

/** A page in Helvetica whose /ToUnicode maps the printable ASCII codes to the run starting at `first` (hex): a font that lies about its glyphs. */
function lyingFont(first: string): Uint8Array {
  const cmap = `/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Lie def 1 begincodespacerange <00> <FF> endcodespacerange 1 beginbfrange <20> <7E> <${first}> endbfrange endcmap CMapName currentdict /CMap defineresource pop end end`;
  const content = "BT /F1 12 Tf 72 700 Td (Fire doors must be kept closed at all times.) Tj 0 -20 Td (Report every blocked exit to the warden at once.) Tj ET";
  return pdf([
    ["<< /Type /Catalog /Pages 2 0 R >>"],
    ["<< /Type /Pages /Kids [3 0 R] /Count 1 >>"],
    ["<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>"],
    [`<< /Length ${content.length} >>\nstream\n${content}\nendstream`],
    ["<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>"],
    [`<< /Length ${cmap.length} >>\nstream\n${cmap}\nendstream`],
  ]);
}

describe("the generator's own PDF, as a control", () => {
  test("a well-formed one-page PDF imports", async () => {
    const assetId = ((await alice.call("upload_asset", { courseId: uploads, filename: "control.pdf", dataBase64: Buffer.from(readable).toString("base64") })).asset as Json).id;
    const course = (await alice.call("get_course", { courseId: ((await alice.call("import_course", { assetId })).course as Json).id })) as Json;
    expect(JSON.stringify(course)).toContain("Fire doors must be kept closed at all times.");
  }, 60_000);
});

describe("refused by rule, nothing written, health answering", () => {
  test("5,000 pages (limit: pages)", async () => {
    const kids = Array.from({ length: 5000 }, (_, index) => `${index + 6} 0 R`).join(" ");
    const pages = Array.from({ length: 5000 }, () => ["<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>"]);
    const bytes = pdf([["<< /Type /Catalog /Pages 2 0 R >>"], [`<< /Type /Pages /Kids [${kids}] /Count 5000 >>`], ["<< >>"], [text("A page of the long manual.")], [font], ...pages]);
    const error = await refusedImport("long-manual.pdf", bytes);
    expect(error.code).toBe("limit_exceeded");
    expect(error.message).toContain("long-manual.pdf: has 5000 pages; at most 2000 are imported at once (limit: pages)");
  }, 120_000);

  test("a decompression bomb: 4 MB of FlateDecode that inflates to 4 GB (limit: decompressed bytes), into an existing course left unchanged", async () => {
    const data = bomb(4);
    const bytes = onePage([`<< /Length ${data.length} /Filter /FlateDecode >>\nstream\n`, data, "\nendstream"]);
    expect(bytes.length).toBeLessThan(8 * 1024 * 1024);
    const target = (await alice.call("create_course", { title: "Kept as it is", modules: [{ title: "One", lessons: [{ title: "Lesson", blocks: [{ type: "text", markdown: "Before." }] }] }] })) as Json;
    const before = await alice.call("get_course", { courseId: target.id });
    const assetId = ((await alice.call("upload_asset", { courseId: uploads, filename: "bomb.pdf", dataBase64: Buffer.from(bytes).toString("base64") })).asset as Json).id;
    const { outcome, answeredWhilePending } = await probeHealthWhile(service.url, alice.fail("import_course", { assetId, into: { courseId: target.id } }));
    expect(answeredWhilePending).toBeGreaterThan(0);
    if (!outcome.ok) throw outcome.error;
    expect(outcome.value.code).toBe("limit_exceeded");
    expect(outcome.value.message).toContain("bomb.pdf: holds a stream (object 4 0) that decompresses to more than 128 MB (limit: decompressed bytes)");
    expect(await alice.call("get_course", { courseId: target.id })).toEqual(before);
    // And as a new course: none is created.
    const again = await refusedImport("bomb.pdf", bytes, { long: true });
    expect(again.details.rule).toBe("decompressedBytes");
  }, 180_000);

  test("an object stream that says it holds two million objects (limit: objects)", async () => {
    const list = "7 0 ";
    const bytes = pdf([
      ["<< /Type /Catalog /Pages 2 0 R >>"],
      ["<< /Type /Pages /Kids [3 0 R] /Count 1 >>"],
      ["<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>"],
      [text("Many objects.")],
      [font],
      [`<< /Type /ObjStm /N 2000000 /First ${list.length} /Length ${list.length} >>\nstream\n${list}\nendstream`],
    ]);
    const error = await refusedImport("many-objects.pdf", bytes);
    expect(error.code).toBe("limit_exceeded");
    expect(error.message).toContain("many-objects.pdf: defines more than 1,000,000 objects (limit: objects)");
  }, 60_000);

  test("arrays and dictionaries nested 100,000 deep (rule: nesting)", async () => {
    const depth = 100_000;
    const arrays = await refusedImport("deep-arrays.pdf", onePage([text("Nested deep.")], ` /Deep ${"[".repeat(depth)}${"]".repeat(depth)}`));
    expect(arrays.message).toContain("deep-arrays.pdf: nests arrays or dictionaries deeper than can be read (rule: nesting)");
    const dictionaries = await refusedImport("deep-dictionaries.pdf", onePage([text("Nested deep.")], ` /Deep ${"<< /A ".repeat(depth)}${" >>".repeat(depth)}`));
    expect(dictionaries.message).toContain("deep-dictionaries.pdf: nests arrays or dictionaries deeper than can be read (rule: nesting)");
  }, 120_000);

  test("a cross-reference table that lies, or that startxref does not lead to (rule: cross-reference table)", async () => {
    const shifted = await refusedImport("shifted.pdf", pdf([["<< /Type /Catalog /Pages 2 0 R >>"], ["<< /Type /Pages /Kids [3 0 R] /Count 1 >>"], ["<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>"], [text("Shifted.")], [font]], { xrefShift: 9000 }));
    expect(shifted.message).toContain("shifted.pdf: has a broken cross-reference table (rule: cross-reference table): object 1 is not where its cross-reference table says");
    const nowhere = latin1(new TextDecoder("latin1").decode(readable).replace(/startxref\n\d+/, "startxref\n99999999"));
    const lost = await refusedImport("nowhere.pdf", nowhere);
    expect(lost.message).toContain("nowhere.pdf: has a broken cross-reference table (rule: cross-reference table): its startxref points outside the file");
  }, 120_000);

  test("encrypted, with a password to open it and with only an owner password (rule: encrypted)", async () => {
    for (const [name, user] of [["locked.pdf", "secret"], ["restricted.pdf", ""]] as const) {
      const error = await refusedImport(name, encrypted(readable, user, "owner-secret"));
      expect(error.message).toContain(`${name}: is encrypted (rule: encrypted)`);
      expect(error.details.rule).toBe("encrypted");
    }
  }, 120_000);

  test("fonts that lie about their glyphs: mapped to private use, or shifted onto control characters (rule: font text mappings)", async () => {
    const privateUse = await refusedImport("private-use.pdf", lyingFont("E020"));
    expect(privateUse.message).toContain("private-use.pdf: has fonts that map their glyphs to characters no text has (rule: font text mappings)");
    // Shifted by one (a space becomes U+0001, "Fire" becomes "'JSF"): the control characters give it away.
    const shifted = await refusedImport("shifted-font.pdf", lyingFont("0001"));
    expect(shifted.message).toContain("shifted-font.pdf: has fonts that map their glyphs to characters no text has (rule: font text mappings)");
  }, 120_000);

  test("script, a launch action, an embedded file and an XFA form (rule: active content), given inline since an upload refuses them first", async () => {
    const cases: [string, Uint8Array, string][] = [
      ["script", pdf([["<< /Type /Catalog /Pages 2 0 R /OpenAction << /S /JavaScript /JS (app.alert(1)) >> >>"], ["<< /Type /Pages /Kids [3 0 R] /Count 1 >>"], ["<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>"]]), "(/JavaScript)"],
      ["launch", onePage([text("Click here.")], " /Annots [<< /Type /Annot /Subtype /Link /Rect [0 0 100 100] /A << /S /Launch /F (calc.exe) >> >>]"), "(/Launch)"],
      ["embedded file", pdf([["<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles << /Names [(a.exe) 4 0 R] >> >> >>"], ["<< /Type /Pages /Kids [3 0 R] /Count 1 >>"], ["<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>"], ["<< /Type /Filespec /F (a.exe) >>"]]), "(/EmbeddedFiles)"],
      ["XFA form", pdf([["<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [] /XFA 4 0 R >> >>"], ["<< /Type /Pages /Kids [3 0 R] /Count 1 >>"], ["<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>"], [text("<xdp/>")]]), "(/XFA)"],
    ];
    for (const [what, bytes, name] of cases) {
      const upload = await alice.fail("upload_asset", { courseId: uploads, filename: `${what}.pdf`, dataBase64: Buffer.from(bytes).toString("base64") });
      expect({ what, message: upload.message }).toEqual({ what, message: expect.stringContaining(`active content ${name}`) });
      const error = await refusedImport(`${what}.pdf`, bytes, { inline: true });
      expect({ what, message: error.message }).toEqual({ what, message: expect.stringContaining(`the file in contentBase64: holds ${name}`) });
      expect(error.details.rule).toBe("activeContent");
    }
  }, 120_000);
});
