/**
 * The IMS Common Cartridge 1.3 export: the manifest follows the CC profile of IMS CP 1.2 (rooted
 * hierarchy, untitled root item, typed resources, assessments without href), quiz lessons become QTI
 * 1.2.1 assessments in the CC profile, and both are well-formed XML (checked by xmllint). The manifest is
 * validated against IMS's CC 1.3 profile of IMS CP 1.2 with everything it imports, all IMS's own files (the
 * CC LOM profiles, the authorizations and curriculum-standards schemas; see src/formats/SCHEMAS.md),
 * and assessments against IMS's own CC profile of QTI 1.2.1. Both schemas are shown to reject broken documents.
 */
import { describe, expect, test } from "bun:test";
import { copyFile } from "node:fs/promises";
import { join } from "node:path";
import { schemaPath } from "../src/formats/package/schemas.ts";
import { buildPackage } from "../src/export/build-package.ts";
import { renderCourseHtml } from "../src/render/index.ts";
import { memoryAssets, quizLessonId, sampleCourse, unpackToDirectory } from "./support/export-course.ts";
import { imsccManifestImports, xmllint, xmllintWithImports, type XmllintResult } from "./support/export-xmllint.ts";

const ccResourceTypes = new Set(["webcontent", "imsqti_xmlv1p2/imscc_xmlv1p3/assessment", "associatedcontent/imscc_xmlv1p3/learning-application-resource"]);

async function cartridge(notices: string[] = [], course = sampleCourse()): Promise<string> {
  const built = await buildPackage(course, { format: "imscc", assets: memoryAssets(), renderer: renderCourseHtml, onNotice: (notice) => notices.push(notice) });
  expect(built.fileName).toBe("safe-lab-practice-handling.imscc");
  return unpackToDirectory(built.stream, "imscc");
}

function wellFormed(directory: string, file: string): boolean {
  return Bun.spawnSync(["xmllint", "--noout", "--nonet", file], { cwd: directory }).exitCode === 0;
}

const qtiProfileSchema = "ccv1p1_qtiasiv1p2p1_v1p0.xsd";

/** The CC 1.3 manifest schema set: IMS's CP profile, its LOM profiles, authorizations and curriculum-standards schemas. */
const manifestSchemaFiles = ["ccv1p3_imscp_v1p2_v1p0.xsd", "ccv1p3_lommanifest_v1p0.xsd", "ccv1p3_lomresource_v1p0.xsd", "ccv1p3_imsccauth_v1p3.xsd", "ccv1p3_imscsmd_v1p0.xsd"];

/**
 * Copies the schemas beside the unpacked cartridge (cartridges do not carry them). Both profiles need the
 * W3C xml.xsd, which sits beside them with the DTDs it names.
 */
async function withSchemas(directory: string): Promise<string> {
  for (const file of [qtiProfileSchema, ...manifestSchemaFiles]) await copyFile(schemaPath("imscc", file), join(directory, file));
  for (const file of ["xml.xsd", "XMLSchema.dtd", "datatypes.dtd"]) await copyFile(schemaPath("scorm2004", file), join(directory, file));
  return directory;
}

function validatesAgainstManifestProfile(directory: string, file: string): Promise<XmllintResult> {
  return xmllintWithImports(directory, file, imsccManifestImports);
}

function validatesAgainstQtiProfile(directory: string, file: string): XmllintResult {
  return xmllint(directory, file, qtiProfileSchema);
}

describe("IMS Common Cartridge 1.3 export", () => {
  test("the manifest declares CC 1.3.0, one rooted hierarchy with module folders, and typed resources for every lesson", async () => {
    const directory = await cartridge();
    expect(wellFormed(directory, "imsmanifest.xml")).toBe(true);
    const manifest = await Bun.file(join(directory, "imsmanifest.xml")).text();
    expect(manifest).toContain('xmlns="http://www.imsglobal.org/xsd/imsccv1p3/imscp_v1p1"');
    expect(manifest).toContain("<schema>IMS Common Cartridge</schema>");
    expect(manifest).toContain("<schemaversion>1.3.0</schemaversion>");
    expect(manifest).toContain('<organization identifier="ORG_crs_sample1" structure="rooted-hierarchy">');
    expect(manifest).toMatch(/<item identifier="ITEM_root">\s*<item identifier="ITEM_mod_basics">\s*<title>Basics<\/title>/);
    const resourceTypes = [...manifest.matchAll(/<resource ([^>]*)>/g)].map((match) => /type="([^"]+)"/.exec(match[1] ?? "")?.[1] ?? "");
    expect(resourceTypes.length).toBeGreaterThan(0);
    for (const type of resourceTypes) expect(ccResourceTypes.has(type)).toBe(true);
    for (const lessonId of ["les_welcome", "les_ppe", "les_spill", quizLessonId]) {
      expect(manifest).toContain(`<item identifier="ITEM_${lessonId}" identifierref="RES_${lessonId}">`);
    }
    const files = [...manifest.matchAll(/<file href="([^"]+)"/g)].map((match) => match[1] ?? "");
    expect(files.length).toBeGreaterThan(0);
    for (const href of files) expect(await Bun.file(join(directory, href)).exists()).toBe(true);
    // Every reference names a resource (libxml2 does not resolve the schema's xs:IDREF, so check it here).
    const resourceIds = new Set([...manifest.matchAll(/<resource identifier="([^"]+)"/g)].map((match) => match[1]));
    const references = [...manifest.matchAll(/identifierref="([^"]+)"/g)].map((match) => match[1]);
    expect(references.length).toBeGreaterThan(0);
    for (const reference of references) expect(resourceIds.has(reference)).toBe(true);
  });

  test("the manifest validates against IMS's CC 1.3 profile of IMS CP 1.2, with its LOM metadata", async () => {
    const directory = await withSchemas(await cartridge());
    const valid = await validatesAgainstManifestProfile(directory, "imsmanifest.xml");
    expect(valid.output).toContain("imsmanifest.xml validates");
    expect(valid.ok).toBe(true);
    // So does the manifest of a course without a description and with a module that has no lessons yet.
    const course = sampleCourse();
    const variant = {
      ...course,
      description: null,
      modules: [...course.modules, { id: "mod_empty", title: "Coming soon", summary: "", objectiveIds: [], lessons: [] }],
    } as typeof course;
    const other = await withSchemas(await cartridge([], variant));
    const manifest = await Bun.file(join(other, "imsmanifest.xml")).text();
    expect(manifest).not.toContain("<lomimscc:description>");
    expect(manifest).toMatch(/<item identifier="ITEM_mod_empty">\s*<title>Coming soon<\/title>\s*<\/item>/);
    const alsoValid = await validatesAgainstManifestProfile(other, "imsmanifest.xml");
    expect(alsoValid.output).toContain("imsmanifest.xml validates");
    expect(alsoValid.ok).toBe(true);
  });

  test("the CC 1.3 manifest schema rejects a manifest with a broken structure", async () => {
    const directory = await withSchemas(await cartridge());
    const manifest = await Bun.file(join(directory, "imsmanifest.xml")).text();
    const broken: Record<string, readonly [text: string, error: string]> = {
      // Every resource must say what it is.
      "untyped.xml": [manifest.replace(' type="imsqti_xmlv1p2/imscc_xmlv1p3/assessment"', ""), "The attribute 'type' is required but missing"],
      // Only the profile's resource types are allowed.
      "mistyped.xml": [manifest.replace('type="webcontent" href="lessons/les_ppe.html"', 'type="html" href="lessons/les_ppe.html"'), "[facet 'enumeration'] The value 'html'"],
      // The organization holds exactly one untitled root item; titled module items cannot take its place.
      "rootless.xml": [
        manifest.replace(/(<organization [^>]*>)\s*<item identifier="ITEM_root">([\s\S]*)<\/item>(\s*<\/organization>)/, "$1$2$3"),
        "title': This element is not expected",
      ],
      // The manifest metadata must carry the CC LOM record.
      "lomless.xml": [manifest.replace(/<lomimscc:lom>[\s\S]*<\/lomimscc:lom>/, ""), "Missing child element(s). Expected is ( {http://ltsc.ieee.org/xsd/imsccv1p3/LOM/manifest}lom )"],
    };
    for (const [file, [text, error]] of Object.entries(broken)) {
      expect(text).not.toBe(manifest);
      await Bun.write(join(directory, file), text);
      const result = await validatesAgainstManifestProfile(directory, file);
      expect(result.output).toContain(error);
      expect(result.output).toContain(`${file} fails to validate`);
      expect(result.ok).toBe(false);
    }
  });

  test("a quiz lesson is a QTI assessment resource with exactly one file and no href, depending on the shared media its pictures use", async () => {
    const directory = await cartridge();
    const manifest = await Bun.file(join(directory, "imsmanifest.xml")).text();
    expect(manifest).toMatch(
      /<resource identifier="RES_les_quiz" type="imsqti_xmlv1p2\/imscc_xmlv1p3\/assessment">\s*<file href="assessments\/les_quiz\/assessment.xml"\/>\s*<dependency identifierref="RES_web_resources"\/>\s*<\/resource>/,
    );
  });

  test("the assessment is QTI 1.2.1 in the CC profile: one section, a CC profile per item, SCORE-only processing", async () => {
    const directory = await cartridge();
    expect(wellFormed(directory, "assessments/les_quiz/assessment.xml")).toBe(true);
    const qti = await Bun.file(join(directory, "assessments/les_quiz/assessment.xml")).text();
    expect(qti).toContain('<questestinterop xmlns="http://www.imsglobal.org/xsd/ims_qtiasiv1p2"');
    expect(qti.match(/<section /g)).toHaveLength(1);
    const profiles = [...qti.matchAll(/<fieldlabel>cc_profile<\/fieldlabel>\s*<fieldentry>([^<]+)<\/fieldentry>/g)].map((match) => match[1]);
    expect(profiles).toEqual(["cc.exam.v0p1", "cc.multiple_choice.v0p1", "cc.true_false.v0p1", "cc.multiple_response.v0p1", "cc.fib.v0p1"]);
    expect(qti).toMatch(/<fieldlabel>cc_maxattempts<\/fieldlabel>\s*<fieldentry>3<\/fieldentry>/);
    expect(qti).toMatch(/<and>\s*<varequal respident="blk_q3_response">blk_q3_c1<\/varequal>\s*<varequal respident="blk_q3_response">blk_q3_c2<\/varequal>\s*<not>/);
    expect(qti).toContain('<varequal respident="blk_q4_response" case="No">contain</varequal>');
    expect(qti.match(/<decvar maxvalue="100" minvalue="0" varname="SCORE" vartype="Decimal"\/>/g)).toHaveLength(4);
  });

  test("the assessment validates against IMS's Common Cartridge profile of QTI 1.2.1, which rejects a broken one", async () => {
    const directory = await withSchemas(await cartridge());
    const valid = validatesAgainstQtiProfile(directory, "assessments/les_quiz/assessment.xml");
    expect(valid.output).toContain("assessment.xml validates");
    expect(valid.ok).toBe(true);
    // The schema really checks: the CC profile makes the assessment title mandatory.
    const qti = await Bun.file(join(directory, "assessments/les_quiz/assessment.xml")).text();
    await Bun.write(join(directory, "untitled.xml"), qti.replace(/(<assessment [^>]*?) title="[^"]*"/, "$1"));
    expect(validatesAgainstQtiProfile(directory, "untitled.xml").ok).toBe(false);
  });

  test("questions the CC profile cannot carry are left out and reported; a quiz left with none stays a page", async () => {
    const course = sampleCourse();
    const quizModule = course.modules[1];
    if (!quizModule) throw new Error("fixture has no second module");
    const matching = { id: "blk_match", type: "matching", prompt: "Match them.", points: 1, pairs: [{ left: "a", right: "1" }, { left: "b", right: "2" }], objectiveIds: [] };
    const onlyMatching = { id: "les_match", title: "Matching only", kind: "quiz" as const, passingScore: 50, maxAttempts: null, blocks: [matching] };
    const withMatching = {
      ...course,
      modules: [course.modules[0], { ...quizModule, lessons: [...quizModule.lessons.map((lesson) => (lesson.id === quizLessonId ? { ...lesson, blocks: [...(lesson.blocks ?? []), matching] } : lesson)), onlyMatching] }],
    } as typeof course;
    const notices: string[] = [];
    const directory = await cartridge(notices, withMatching);
    expect(notices).toEqual([expect.stringContaining(`Quiz lesson ${quizLessonId}: questions blk_match`), expect.stringContaining(`Quiz lesson ${quizLessonId}: the pass mark of 70% is not carried`)]);
    const manifest = await Bun.file(join(directory, "imsmanifest.xml")).text();
    expect(manifest).toContain('<resource identifier="RES_les_match" type="webcontent" href="lessons/les_match.html">');
  });
});
