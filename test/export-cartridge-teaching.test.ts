/**
 * A Common Cartridge quiz lesson holding teaching blocks: its QTI 1.2 assessment carries the questions
 * QTI can express, the whole lesson also goes in as a web content page (scenario and sorting playable
 * there), the export notice says so, and the manifest still validates against IMS's CC 1.3 profile.
 */
import { expect, test } from "bun:test";
import { copyFile } from "node:fs/promises";
import { join } from "node:path";
import { buildPackage } from "../src/export/build-package.ts";
import { schemaPath } from "../src/formats/package/schemas.ts";
import { renderCourseHtml } from "../src/render/index.ts";
import { memoryAssets, unpackToDirectory } from "./support/export-course.ts";
import { imsccManifestImports, xmllint, xmllintWithImports } from "./support/export-xmllint.ts";
import { courseWithTeachingQuiz, teachingQuizLessonId } from "./support/teaching-blocks.ts";
import { DataName } from "../src/page-contract/markup-names.ts";

const qtiProfileSchema = "ccv1p1_qtiasiv1p2p1_v1p0.xsd";
const manifestSchemaFiles = ["ccv1p3_imscp_v1p2_v1p0.xsd", "ccv1p3_lommanifest_v1p0.xsd", "ccv1p3_lomresource_v1p0.xsd", "ccv1p3_imsccauth_v1p3.xsd", "ccv1p3_imscsmd_v1p0.xsd"];

test("a quiz lesson with a scenario and a sorting keeps its QTI and is also web content, and the notice says so", async () => {
  const notices: string[] = [];
  const built = await buildPackage(courseWithTeachingQuiz(), { format: "imscc", assets: memoryAssets(), renderer: renderCourseHtml, onNotice: (notice) => notices.push(notice) });
  const directory = await unpackToDirectory(built.stream, "imscc-teaching");
  const manifest = await Bun.file(join(directory, "imsmanifest.xml")).text();
  expect(manifest).toContain(`<item identifier="ITEM_${teachingQuizLessonId}" identifierref="RES_${teachingQuizLessonId}">`);
  expect(manifest).toContain(`<item identifier="ITEM_${teachingQuizLessonId}_web" identifierref="RES_${teachingQuizLessonId}_web">`);
  expect(manifest).toContain("<title>Phishing check (interactive activities)</title>");
  const qti = await Bun.file(join(directory, `assessments/${teachingQuizLessonId}/assessment.xml`)).text();
  expect(qti).toContain("Which of these is the Report button?");
  expect(qti).not.toContain("An urgent email from the CEO");
  const page = await Bun.file(join(directory, `lessons/${teachingQuizLessonId}.html`)).text();
  for (const marker of [`data-${DataName.scenario}`, `data-${DataName.sorting}`]) expect(page).toContain(marker);
  expect(notices.filter((notice) => !notice.includes("pass mark"))).toEqual([expect.stringContaining(`Quiz lesson ${teachingQuizLessonId}: blocks blk_t1, blk_t0`)]);
  expect(notices).toContain(`Quiz lesson ${teachingQuizLessonId}: the pass mark of 50% is not carried (the cartridge's QTI 1.2 profile has none); set it in the LMS.`);
  expect(notices.find((notice) => notice.includes("blk_t1"))).toContain("also included as web content");

  for (const file of [qtiProfileSchema, ...manifestSchemaFiles]) await copyFile(schemaPath("imscc", file), join(directory, file));
  for (const file of ["xml.xsd", "XMLSchema.dtd", "datatypes.dtd"]) await copyFile(schemaPath("scorm2004", file), join(directory, file));
  const valid = await xmllintWithImports(directory, "imsmanifest.xml", imsccManifestImports);
  expect(valid.output).toContain("imsmanifest.xml validates");
  expect(valid.ok).toBe(true);
  expect(xmllint(directory, `assessments/${teachingQuizLessonId}/assessment.xml`, qtiProfileSchema).ok).toBe(true);
});
