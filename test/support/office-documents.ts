/**
 * Word and PowerPoint files for import tests, from three independent writers: LibreOffice (soffice
 * --headless converting HTML or a flat ODF presentation we generate), the npm `docx` library and
 * pptxgenjs. LibreOffice runs with its own profile folder per call, so parallel runs do not share one.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unzipSync, zipSync, zlibSync } from "fflate";

/** A 40×30 red PNG. */
export const redPng = Uint8Array.from(
  Buffer.from("iVBORw0KGgoAAAANSUhEUgAAACgAAAAeCAIAAADRv8uKAAAAK0lEQVR4nO3NMQ0AAAgDsCmZfynIQgYcTfo3056IWCwWi8VisVgsFov/xgvk2cL9h1Oh3gAAAABJRU5ErkJggg==", "base64"),
);

/** Converts `source` (named `name`) with LibreOffice to `target` (docx, pptx, …) and returns the bytes. */
export function libreOfficeConvert(name: string, source: string | Uint8Array, target: string): Uint8Array {
  const folder = mkdtempSync(join(tmpdir(), "office-"));
  try {
    writeFileSync(join(folder, name), source);
    const run = Bun.spawnSync(
      ["soffice", `-env:UserInstallation=file://${folder}/profile`, "--headless", "--convert-to", target, "--outdir", join(folder, "out"), join(folder, name)],
      { stdout: "pipe", stderr: "pipe", timeout: 120_000 },
    );
    const output = join(folder, "out", `${name.replace(/\.[^.]+$/, "")}.${target.split(":")[0]}`);
    try {
      return new Uint8Array(readFileSync(output));
    } catch {
      throw new Error(`soffice did not write ${output}: ${run.stderr.toString()} ${run.stdout.toString()}`);
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

export function wordFromHtml(html: string): Uint8Array {
  return libreOfficeConvert("document.html", html, 'docx:MS Word 2007 XML');
}

export interface SlideSpec {
  title?: string;
  /** Body lines, as a bulleted outline. */
  bullets?: string[];
  picture?: { description: string };
  table?: string[][];
  notes?: string;
}

const odfNamespaces =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ' +
  'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" ' +
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"';

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** A flat ODF presentation: a title slide (title and subtitle) and the given slides. */
export function flatPresentation(title: string, subtitle: string, slides: readonly SlideSpec[]): string {
  const box = (y: number, inner: string) => `<draw:frame svg:x="2cm" svg:y="${y}cm" svg:width="20cm" svg:height="3cm"><draw:text-box>${inner}</draw:text-box></draw:frame>`;
  const pages = slides.map((slide, index) => {
    const parts: string[] = [];
    if (slide.title) parts.push(box(1, `<text:p>${escapeXml(slide.title)}</text:p>`));
    if (slide.bullets) parts.push(box(5, `<text:list>${slide.bullets.map((line) => `<text:list-item><text:p>${escapeXml(line)}</text:p></text:list-item>`).join("")}</text:list>`));
    if (slide.table) {
      const rows = slide.table.map((row) => `<table:table-row>${row.map((cell) => `<table:table-cell><text:p>${escapeXml(cell)}</text:p></table:table-cell>`).join("")}</table:table-row>`);
      parts.push(`<draw:frame svg:x="2cm" svg:y="9cm" svg:width="20cm" svg:height="4cm"><table:table><table:table-column table:number-columns-repeated="${slide.table[0]?.length ?? 1}"/>${rows.join("")}</table:table></draw:frame>`);
    }
    if (slide.picture) {
      parts.push(`<draw:frame svg:x="2cm" svg:y="14cm" svg:width="4cm" svg:height="3cm"><draw:image><office:binary-data>${Buffer.from(redPng).toString("base64")}</office:binary-data></draw:image><svg:desc>${escapeXml(slide.picture.description)}</svg:desc></draw:frame>`);
    }
    const notes = slide.notes ? `<presentation:notes>${box(14, `<text:p>${escapeXml(slide.notes)}</text:p>`)}</presentation:notes>` : "";
    return `<draw:page draw:name="page${index + 2}" draw:master-page-name="Default">${parts.join("")}${notes}</draw:page>`;
  });
  const cover = `<draw:page draw:name="page1" draw:master-page-name="Default">${box(2, `<text:p>${escapeXml(title)}</text:p>`)}${box(6, `<text:p>${escapeXml(subtitle)}</text:p>`)}</draw:page>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<office:document ${odfNamespaces} office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.presentation">
<office:styles/><office:automatic-styles/><office:master-styles><style:master-page style:name="Default"/></office:master-styles>
<office:body><office:presentation>${cover}${pages.join("")}</office:presentation></office:body></office:document>`;
}

export function deckFromLibreOffice(title: string, subtitle: string, slides: readonly SlideSpec[]): Uint8Array {
  return libreOfficeConvert("deck.fodp", flatPresentation(title, subtitle, slides), "pptx");
}

/** A package with some parts replaced or added (a string is UTF-8 XML), re-zipped. */
export function withParts(file: Uint8Array, parts: Record<string, string | Uint8Array | null>): Uint8Array {
  const entries: Record<string, Uint8Array> = unzipSync(file);
  for (const [name, content] of Object.entries(parts)) {
    if (content === null) delete entries[name];
    else entries[name] = typeof content === "string" ? new TextEncoder().encode(content) : content;
  }
  return zipSync(entries);
}

export function partText(file: Uint8Array, name: string): string {
  const part = unzipSync(file, { filter: (entry) => entry.name === name })[name];
  if (!part) throw new Error(`no part ${name}`);
  return new TextDecoder().decode(part);
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (crcTable[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** A PNG of one colour, `width`×`height`: different colours make different pictures (writers merge identical ones). */
export function solidPng(width: number, height: number, [red, green, blue]: readonly [number, number, number]): Uint8Array {
  const chunk = (type: string, data: Uint8Array) => {
    const body = new Uint8Array([...new TextEncoder().encode(type), ...data]);
    const out = new Uint8Array(12 + data.length);
    const view = new DataView(out.buffer);
    view.setUint32(0, data.length);
    out.set(body, 4);
    view.setUint32(8 + data.length, crc32(body));
    return out;
  };
  const header = new Uint8Array(13);
  const headerView = new DataView(header.buffer);
  headerView.setUint32(0, width);
  headerView.setUint32(4, height);
  header.set([8, 2, 0, 0, 0], 8);
  const row = [0, ...Array.from({ length: width }, () => [red, green, blue]).flat()];
  const raw = new Uint8Array(Array.from({ length: height }, () => row).flat());
  const parts = [new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]), chunk("IHDR", header), chunk("IDAT", zlibSync(raw)), chunk("IEND", new Uint8Array())];
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
