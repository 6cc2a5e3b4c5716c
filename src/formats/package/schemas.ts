/**
 * The XML Schema files each package format carries beside its manifest (committed copies of the official
 * files in each format's `schemas/` folder; see `formats/SCHEMAS.md` for where each came from). They are imported as files, so
 * `bun build --compile` embeds them in the binary: the import yields a readable path on disk or inside the
 * binary, and nothing is read from beside the executable or downloaded at run time.
 */
import { readFile } from "node:fs/promises";
import type { ZipEntry } from "../../codecs/zip-write.ts";
import scorm12_imscp_rootv1p1p2_xsd from "../scorm/schemas/scorm12/imscp_rootv1p1p2.xsd" with { type: "file" };
import scorm12_adlcp_rootv1p2_xsd from "../scorm/schemas/scorm12/adlcp_rootv1p2.xsd" with { type: "file" };
import scorm12_imsmd_rootv1p2p1_xsd from "../scorm/schemas/scorm12/imsmd_rootv1p2p1.xsd" with { type: "file" };
import scorm12_ims_xml_xsd from "../scorm/schemas/scorm12/ims_xml.xsd" with { type: "file" };
import scorm2004_imscp_v1p1_xsd from "../scorm/schemas/scorm2004/imscp_v1p1.xsd" with { type: "file" };
import scorm2004_adlcp_v1p3_xsd from "../scorm/schemas/scorm2004/adlcp_v1p3.xsd" with { type: "file" };
import scorm2004_adlseq_v1p3_xsd from "../scorm/schemas/scorm2004/adlseq_v1p3.xsd" with { type: "file" };
import scorm2004_adlnav_v1p3_xsd from "../scorm/schemas/scorm2004/adlnav_v1p3.xsd" with { type: "file" };
import scorm2004_imsss_v1p0_xsd from "../scorm/schemas/scorm2004/imsss_v1p0.xsd" with { type: "file" };
import scorm2004_imsss_v1p0auxresource_xsd from "../scorm/schemas/scorm2004/imsss_v1p0auxresource.xsd" with { type: "file" };
import scorm2004_imsss_v1p0control_xsd from "../scorm/schemas/scorm2004/imsss_v1p0control.xsd" with { type: "file" };
import scorm2004_imsss_v1p0delivery_xsd from "../scorm/schemas/scorm2004/imsss_v1p0delivery.xsd" with { type: "file" };
import scorm2004_imsss_v1p0limit_xsd from "../scorm/schemas/scorm2004/imsss_v1p0limit.xsd" with { type: "file" };
import scorm2004_imsss_v1p0objective_xsd from "../scorm/schemas/scorm2004/imsss_v1p0objective.xsd" with { type: "file" };
import scorm2004_imsss_v1p0random_xsd from "../scorm/schemas/scorm2004/imsss_v1p0random.xsd" with { type: "file" };
import scorm2004_imsss_v1p0rollup_xsd from "../scorm/schemas/scorm2004/imsss_v1p0rollup.xsd" with { type: "file" };
import scorm2004_imsss_v1p0seqrule_xsd from "../scorm/schemas/scorm2004/imsss_v1p0seqrule.xsd" with { type: "file" };
import scorm2004_imsss_v1p0util_xsd from "../scorm/schemas/scorm2004/imsss_v1p0util.xsd" with { type: "file" };
import scorm2004_xml_xsd from "../scorm/schemas/scorm2004/xml.xsd" with { type: "file" };
import scorm2004_XMLSchema_dtd from "../scorm/schemas/scorm2004/XMLSchema.dtd" with { type: "file" };
import scorm2004_datatypes_dtd from "../scorm/schemas/scorm2004/datatypes.dtd" with { type: "file" };

/** SCORM 1.2: file name at the package root → the embedded file. */
export const scorm12SchemaFiles: Readonly<Record<string, string>> = {
  "imscp_rootv1p1p2.xsd": scorm12_imscp_rootv1p1p2_xsd,
  "adlcp_rootv1p2.xsd": scorm12_adlcp_rootv1p2_xsd,
  "imsmd_rootv1p2p1.xsd": scorm12_imsmd_rootv1p2p1_xsd,
  "ims_xml.xsd": scorm12_ims_xml_xsd,
};

/** SCORM 2004 4th Edition: file name at the package root → the embedded file. */
export const scorm2004SchemaFiles: Readonly<Record<string, string>> = {
  "imscp_v1p1.xsd": scorm2004_imscp_v1p1_xsd,
  "adlcp_v1p3.xsd": scorm2004_adlcp_v1p3_xsd,
  "adlseq_v1p3.xsd": scorm2004_adlseq_v1p3_xsd,
  "adlnav_v1p3.xsd": scorm2004_adlnav_v1p3_xsd,
  "imsss_v1p0.xsd": scorm2004_imsss_v1p0_xsd,
  "imsss_v1p0auxresource.xsd": scorm2004_imsss_v1p0auxresource_xsd,
  "imsss_v1p0control.xsd": scorm2004_imsss_v1p0control_xsd,
  "imsss_v1p0delivery.xsd": scorm2004_imsss_v1p0delivery_xsd,
  "imsss_v1p0limit.xsd": scorm2004_imsss_v1p0limit_xsd,
  "imsss_v1p0objective.xsd": scorm2004_imsss_v1p0objective_xsd,
  "imsss_v1p0random.xsd": scorm2004_imsss_v1p0random_xsd,
  "imsss_v1p0rollup.xsd": scorm2004_imsss_v1p0rollup_xsd,
  "imsss_v1p0seqrule.xsd": scorm2004_imsss_v1p0seqrule_xsd,
  "imsss_v1p0util.xsd": scorm2004_imsss_v1p0util_xsd,
  "xml.xsd": scorm2004_xml_xsd,
  "XMLSchema.dtd": scorm2004_XMLSchema_dtd,
  "datatypes.dtd": scorm2004_datatypes_dtd,
};

/** Zip entries for a format's schema files, placed at the package root where the manifest's `schemaLocation` points. */
export function schemaEntries(files: Readonly<Record<string, string>>): ZipEntry[] {
  return Object.entries(files).map(([fileName, embedded]) => ({ path: fileName, body: async () => new Uint8Array(await readFile(embedded)) }));
}

/** Where each format keeps its committed schema files, beside the format's code. */
const schemaFolders = {
  scorm12: "../scorm/schemas/scorm12",
  scorm2004: "../scorm/schemas/scorm2004",
  cmi5: "../cmi5/schemas",
  imscc: "../common-cartridge/schemas",
} as const;

/** Path of a committed schema file in the source tree, e.g. `schemaPath("cmi5", "CourseStructure.xsd")`, for validating packages against them. */
export function schemaPath(folder: keyof typeof schemaFolders, fileName: string): string {
  return new URL(`${schemaFolders[folder]}/${fileName}`, import.meta.url).pathname;
}
