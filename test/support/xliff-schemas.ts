/**
 * Validates XLIFF files with xmllint (libxml2) against the OASIS schemas in ../shared/schemas/xliff,
 * offline (`--nonet`). XLIFF 1.2's schema imports xml.xsd by URL, so it is validated through a copy
 * whose import points at the xml.xsd beside it; the schema files themselves are used unmodified.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const candidates = [resolve(import.meta.dir, "../../../shared/schemas/xliff"), "/work/shared/schemas/xliff"];
export const xliffSchemaDirectory = candidates.find((path) => existsSync(join(path, "2.0/xliff_core_2.0.xsd"))) ?? candidates[0]!;

let strict12: string | undefined;

function schema12(): string {
  if (strict12) return strict12;
  const directory = mkdtempSync(join(tmpdir(), "xliff12-"));
  copyFileSync(join(xliffSchemaDirectory, "1.2/xml.xsd"), join(directory, "xml.xsd"));
  const text = readFileSync(join(xliffSchemaDirectory, "1.2/xliff-core-1.2-strict.xsd"), "utf8").replace('schemaLocation="http://www.w3.org/2001/xml.xsd"', 'schemaLocation="xml.xsd"');
  strict12 = join(directory, "xliff-core-1.2-strict.xsd");
  writeFileSync(strict12, text);
  return strict12;
}

export function validateXliff(format: "xliff20" | "xliff12", xml: string): { ok: boolean; output: string } {
  const directory = mkdtempSync(join(tmpdir(), "xliff-doc-"));
  const file = join(directory, "document.xlf");
  writeFileSync(file, xml);
  const schema = format === "xliff20" ? join(xliffSchemaDirectory, "2.0/xliff_core_2.0.xsd") : schema12();
  const run = Bun.spawnSync(["xmllint", "--noout", "--nonet", "--schema", schema, file]);
  return { ok: run.exitCode === 0, output: `${run.stdout.toString()}${run.stderr.toString()}` };
}
