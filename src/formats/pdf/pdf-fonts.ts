/**
 * The fonts every exported PDF embeds (subset, with a Unicode map, so its text copies and reads aloud):
 * Atkinson Hyperlegible from `@fontsource/atkinson-hyperlegible` (SIL Open Font License), regular, bold
 * and italic, each as its Latin and Latin Extended files (the package splits them by script). pdfkit
 * reads WOFF2 itself. Imported as files so `bun build --compile` carries them inside the binary.
 */
import { readFileSync } from "node:fs";
import boldExt from "@fontsource/atkinson-hyperlegible/files/atkinson-hyperlegible-latin-ext-700-normal.woff" with { type: "file" };
import bold from "@fontsource/atkinson-hyperlegible/files/atkinson-hyperlegible-latin-700-normal.woff" with { type: "file" };
import italicExt from "@fontsource/atkinson-hyperlegible/files/atkinson-hyperlegible-latin-ext-400-italic.woff" with { type: "file" };
import italic from "@fontsource/atkinson-hyperlegible/files/atkinson-hyperlegible-latin-400-italic.woff" with { type: "file" };
import regularExt from "@fontsource/atkinson-hyperlegible/files/atkinson-hyperlegible-latin-ext-400-normal.woff" with { type: "file" };
import regular from "@fontsource/atkinson-hyperlegible/files/atkinson-hyperlegible-latin-400-normal.woff" with { type: "file" };

export type FaceName = "regular" | "bold" | "italic";

/** Each face's files, the Latin one first: a character missing from it is looked up in the next. */
const files: Record<FaceName, readonly string[]> = { regular: [regular, regularExt], bold: [bold, boldExt], italic: [italic, italicExt] };

let loaded: Record<FaceName, readonly Uint8Array[]> | null = null;

/** The font files' bytes, read once per thread. */
export function pdfFontFiles(): Record<FaceName, readonly Uint8Array[]> {
  loaded ??= {
    regular: files.regular.map((file) => new Uint8Array(readFileSync(file))),
    bold: files.bold.map((file) => new Uint8Array(readFileSync(file))),
    italic: files.italic.map((file) => new Uint8Array(readFileSync(file))),
  };
  return loaded;
}
