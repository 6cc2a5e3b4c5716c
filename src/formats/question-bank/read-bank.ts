/**
 * A question-bank file read into pools of question blocks, checked to be what its format claims and
 * every question checked with the block schemas (an error names the item): pure work on bytes, with no
 * store, so it runs as a heavy-work job before any transaction opens.
 */
import * as v from "valibot";
import { blockSchema } from "../../authoring/schemas/blocks.ts";
import { CourseAuthoringError, describeIssues } from "../../course-authoring-error.ts";
import type { ImportedBank } from "./bank-plan.ts";
import { readGift } from "../gift/gift-read.ts";
import { readMoodleXml } from "../moodle-xml/moodle-read.ts";
import { readQtiPackage } from "../qti/qti-read.ts";

import type { BankImportFormat } from "./bank-formats.ts";
export { bankImportFormats, type BankImportFormat } from "./bank-formats.ts";

function isZip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 3 && bytes[3] === 4;
}

function notWhatItClaims(format: BankImportFormat, actual: string): CourseAuthoringError {
  return new CourseAuthoringError("invalid_arguments", `content: format is ${format} but the content is ${actual}; nothing was imported.`, { field: "content", format });
}

function textOf(bytes: Uint8Array, format: BankImportFormat): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes).replace(/^\uFEFF/, "");
  } catch {
    throw notWhatItClaims(format, "not UTF-8 text");
  }
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Reads the file in the format it claims; anything else is refused before a question is read. */
export async function readBank(format: BankImportFormat, bytes: Uint8Array): Promise<ImportedBank> {
  if (format === "qti3" || format === "qti21") {
    if (!isZip(bytes)) throw notWhatItClaims(format, "not a zip archive (a QTI content package is a zip with imsmanifest.xml)");
    return readQtiPackage(bytes, format);
  }
  if (isZip(bytes)) throw notWhatItClaims(format, "a zip archive");
  const text = textOf(bytes, format);
  if (format === "moodle_xml") {
    if (!/^\s*<(\?xml|quiz|!--)/.test(text)) throw notWhatItClaims(format, "not XML");
    return readMoodleXml(text);
  }
  if (/^\s*<(\?xml|[A-Za-z])/.test(text)) throw notWhatItClaims(format, "XML, not GIFT text");
  if (/^\s*[[{]/.test(text) && parsesAsJson(text)) throw notWhatItClaims(format, "JSON, not GIFT text");
  return readGift(text);
}

/** Every block is checked with the block schemas before anything is written; an error names its item. */
function checkBlocks(bank: ImportedBank): void {
  for (const pool of bank.pools) {
    pool.blocks.forEach((block, index) => {
      const parsed = v.safeParse(blockSchema, block);
      if (parsed.success) return;
      const { fields } = describeIssues(parsed.issues);
      const described = fields.slice(0, 3).map((field) => `${field.path || "(question)"}: ${field.message}`).join("; ");
      throw new CourseAuthoringError("invalid_arguments", `content: item ${pool.items[index] ?? index + 1} cannot be a ${String(block.type)} question: ${described}; nothing was imported.`, {
        field: "content",
        item: pool.items[index],
        fields: fields.slice(0, 10),
      });
    });
  }
}

/** The bank as `importBank` writes it: read in its claimed format, every question checked. */
export async function readCheckedBank(input: { format: BankImportFormat; bytes: Uint8Array }): Promise<ImportedBank> {
  const bank = await readBank(input.format, input.bytes);
  checkBlocks(bank);
  return bank;
}
