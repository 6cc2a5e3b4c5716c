/**
 * Validates a manifest with `xmllint` (libxml2) against the official schemas. A package mixes several
 * namespaces and xmllint takes one schema, so a two-line wrapper imports every namespace the manifest
 * uses: then the content-packaging schema's `lax`/`strict` wildcards check the ADL and IMS SS parts too.
 */
import { join } from "node:path";

export interface SchemaImport {
  readonly namespace: string;
  /** Path of the schema file, absolute or relative to the directory being validated. */
  readonly location: string;
}

export interface XmllintResult {
  readonly ok: boolean;
  readonly output: string;
}

export const scorm12Imports: readonly SchemaImport[] = [
  { namespace: "http://www.imsproject.org/xsd/imscp_rootv1p1p2", location: "imscp_rootv1p1p2.xsd" },
  { namespace: "http://www.adlnet.org/xsd/adlcp_rootv1p2", location: "adlcp_rootv1p2.xsd" },
  { namespace: "http://www.imsglobal.org/xsd/imsmd_rootv1p2p1", location: "imsmd_rootv1p2p1.xsd" },
];

export const scorm2004Imports: readonly SchemaImport[] = [
  { namespace: "http://www.imsglobal.org/xsd/imscp_v1p1", location: "imscp_v1p1.xsd" },
  { namespace: "http://www.adlnet.org/xsd/adlcp_v1p3", location: "adlcp_v1p3.xsd" },
  { namespace: "http://www.adlnet.org/xsd/adlseq_v1p3", location: "adlseq_v1p3.xsd" },
  { namespace: "http://www.adlnet.org/xsd/adlnav_v1p3", location: "adlnav_v1p3.xsd" },
  { namespace: "http://www.imsglobal.org/xsd/imsss", location: "imsss_v1p0.xsd" },
];

/**
 * IMS Common Cartridge 1.3 manifest: IMS's CP profile plus what it imports. The profile names its imports
 * by their imsglobal.org URLs; listing it last means every namespace it imports is already loaded from the
 * local file above it, so libxml2 skips the remote locations (one "Skipping import" warning each) and no
 * IMS file needs editing. Every file is IMS's (see src/formats/SCHEMAS.md); xml.xsd is the W3C copy
 * in `scorm2004/`.
 */
export const imsccManifestImports: readonly SchemaImport[] = [
  { namespace: "http://www.w3.org/XML/1998/namespace", location: "xml.xsd" },
  { namespace: "http://www.imsglobal.org/xsd/imsccv1p3/imsccauth_v1p3", location: "ccv1p3_imsccauth_v1p3.xsd" },
  { namespace: "http://ltsc.ieee.org/xsd/imsccv1p3/LOM/manifest", location: "ccv1p3_lommanifest_v1p0.xsd" },
  { namespace: "http://ltsc.ieee.org/xsd/imsccv1p3/LOM/resource", location: "ccv1p3_lomresource_v1p0.xsd" },
  { namespace: "http://www.imsglobal.org/xsd/imsccv1p3/imscsmd_v1p0", location: "ccv1p3_imscsmd_v1p0.xsd" },
  { namespace: "http://www.imsglobal.org/xsd/imsccv1p3/imscp_v1p1", location: "ccv1p3_imscp_v1p2_v1p0.xsd" },
];

export function xmllint(directory: string, documentName: string, schemaFile: string): XmllintResult {
  const run = Bun.spawnSync(["xmllint", "--noout", "--nonet", "--schema", schemaFile, documentName], { cwd: directory });
  const output = `${run.stdout.toString()}${run.stderr.toString()}`;
  return { ok: run.exitCode === 0, output };
}

/** Writes `validate-all.xsd` importing every namespace, then validates the document against it. */
export async function xmllintWithImports(directory: string, documentName: string, imports: readonly SchemaImport[]): Promise<XmllintResult> {
  const wrapper = `<?xml version="1.0" encoding="UTF-8"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:export-test:all" elementFormDefault="qualified">
${imports.map((entry) => `  <xs:import namespace="${entry.namespace}" schemaLocation="${entry.location}"/>`).join("\n")}
</xs:schema>
`;
  await Bun.write(join(directory, "validate-all.xsd"), wrapper);
  return xmllint(directory, documentName, "validate-all.xsd");
}

export function hasXmllint(): boolean {
  return Bun.which("xmllint") !== null;
}
