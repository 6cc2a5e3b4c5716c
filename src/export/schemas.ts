/**
 * The XML Schema files each package format carries beside its manifest, read from `schemas/` (committed
 * copies of the official files; see `schemas/README.md` for where each came from). They are streamed into
 * the zip from disk, never downloaded at run time.
 */
import { readFile } from "node:fs/promises";
import type { ZipEntry } from "./zip/zip-stream.ts";

const schemaDirectory = new URL("./schemas/", import.meta.url);

export const scorm12SchemaFiles = ["imscp_rootv1p1p2.xsd", "adlcp_rootv1p2.xsd", "imsmd_rootv1p2p1.xsd", "ims_xml.xsd"] as const;

export const scorm2004SchemaFiles = [
  "imscp_v1p1.xsd",
  "adlcp_v1p3.xsd",
  "adlseq_v1p3.xsd",
  "adlnav_v1p3.xsd",
  "imsss_v1p0.xsd",
  "imsss_v1p0auxresource.xsd",
  "imsss_v1p0control.xsd",
  "imsss_v1p0delivery.xsd",
  "imsss_v1p0limit.xsd",
  "imsss_v1p0objective.xsd",
  "imsss_v1p0random.xsd",
  "imsss_v1p0rollup.xsd",
  "imsss_v1p0seqrule.xsd",
  "imsss_v1p0util.xsd",
  "xml.xsd",
  "XMLSchema.dtd",
  "datatypes.dtd",
] as const;

/** Absolute path of a committed schema file, e.g. `schemaPath("scorm12", "adlcp_rootv1p2.xsd")`. */
export function schemaPath(folder: string, fileName: string): string {
  return new URL(`${folder}/${fileName}`, schemaDirectory).pathname;
}

/** Zip entries for a format's schema files, placed at the package root where the manifest's `schemaLocation` points. */
export function schemaEntries(folder: string, fileNames: readonly string[]): ZipEntry[] {
  return fileNames.map((fileName) => ({ path: fileName, body: async () => new Uint8Array(await readFile(schemaPath(folder, fileName))) }));
}
