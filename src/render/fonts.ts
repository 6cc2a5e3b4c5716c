/**
 * The bundled open fonts a theme may pick, embedded as WOFF2 `data:` URLs so a package stays offline
 * and works from `file://`. The files come from `@fontsource/atkinson-hyperlegible` (SIL Open Font
 * License), read once when first used.
 */
import { readFileSync } from "node:fs";
// Imported as files so `bun build --compile` embeds them in the binary; the import yields a readable path.
import atkinsonBold from "@fontsource/atkinson-hyperlegible/files/atkinson-hyperlegible-latin-700-normal.woff2" with { type: "file" };
import atkinsonRegular from "@fontsource/atkinson-hyperlegible/files/atkinson-hyperlegible-latin-400-normal.woff2" with { type: "file" };

const atkinsonFiles = { 400: atkinsonRegular, 700: atkinsonBold } as const;

function base64Of(bytes: Uint8Array): string {
  let binary = "";
  for (let offset = 0; offset < bytes.length; offset += 0x8000) binary += String.fromCharCode(...bytes.subarray(offset, offset + 0x8000));
  return btoa(binary);
}

let atkinsonFaces: string | null = null;

/** `@font-face` rules for Atkinson Hyperlegible, regular and bold, with the fonts inline. */
export function atkinsonHyperlegibleFaces(): string {
  atkinsonFaces ??= Object.entries(atkinsonFiles)
    .map(([weight, file]) => {
      const bytes = new Uint8Array(readFileSync(file));
      return `@font-face { font-family: "Atkinson Hyperlegible"; font-style: normal; font-weight: ${weight}; font-display: swap; src: url(data:font/woff2;base64,${base64Of(bytes)}) format("woff2"); }`;
    })
    .join("\n");
  return atkinsonFaces;
}
