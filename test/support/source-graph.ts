/**
 * The source tree as the architecture tests read it: every `.ts` file under `src/`, and the relative
 * imports of each (static imports, re-exports, side-effect imports and dynamic `import()`), resolved to
 * paths under `src/`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";

export const srcRoot = join(import.meta.dir, "..", "..", "src");

export function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** Relative module specifiers in static imports, re-exports and dynamic `import()`, resolved to paths under `src/`. */
export function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specifiers = [
    ...text.matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s*["']([^"']+)["']/gms),
    ...text.matchAll(/^\s*import\s*["']([^"']+)["']/gm),
    ...text.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g),
  ].map((match) => match[1]!);
  return specifiers.filter((s) => s.startsWith(".")).map((s) => relative(srcRoot, join(dirname(file), s)));
}
