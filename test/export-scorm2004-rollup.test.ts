/**
 * SCORM 2004 with one SCO per module: the course can be passed. The test reads each item's sequencing
 * from the packaged manifest and applies the SN book's default rollup (4.6.5: satisfied when every
 * child that contributes is satisfied, not satisfied when one is not; completion likewise; measure as
 * the weighted mean) to the statuses the SCOs report, so the course's completion and success are shown
 * to follow from the graded modules only. The manifest is also validated against the genuine CAM and
 * IMS SS schemas. The package is played through scorm-again's sequencing engine in
 * export-player-scorm-sequenced.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { buildPackage } from "../src/export/build-package.ts";
import type { ExportCourse } from "../src/formats/package/types.ts";
import { renderCourseHtml } from "../src/render/index.ts";
import { memoryAssets, sampleCourse, unpackToDirectory } from "./support/export-course.ts";
import { scorm2004Imports, xmllintWithImports } from "./support/export-xmllint.ts";
import { leafItems, type ItemSequencing } from "./support/scorm-sequencing.ts";

type Satisfaction = "satisfied" | "notSatisfied" | "unknown";
type Completion = "completed" | "incomplete" | "unknown";
interface ScoReport {
  readonly success: "passed" | "failed" | "unknown";
  readonly completion: "completed" | "incomplete";
  readonly scaled: number | null;
}

async function moduleManifest(course: ExportCourse = sampleCourse()): Promise<{ directory: string; manifest: string }> {
  const built = await buildPackage(course, { format: "scorm2004", scoMode: "module", assets: memoryAssets(), renderer: renderCourseHtml });
  const directory = await unpackToDirectory(built.stream, "rollup");
  return { directory, manifest: await Bun.file(join(directory, "imsmanifest.xml")).text() };
}

/** The SN default rollup of the children's reports to the course (no explicit rollup rules at the root). */
function rollUp(items: readonly ItemSequencing[], reports: readonly ScoReport[]): { satisfaction: Satisfaction; completion: Completion; measure: number | null } {
  const children = items.map((item, index) => ({ item, report: reports[index] as ScoReport }));
  const forSuccess = children.filter(({ item }) => item.rollupObjectiveSatisfied).map(({ report }) => report.success);
  const forCompletion = children.filter(({ item }) => item.rollupProgressCompletion).map(({ report }) => report.completion);
  const satisfaction: Satisfaction =
    forSuccess.length === 0 ? "unknown" : forSuccess.every((status) => status === "passed") ? "satisfied" : forSuccess.some((status) => status === "failed") ? "notSatisfied" : "unknown";
  const completion: Completion = forCompletion.length === 0 ? "unknown" : forCompletion.every((status) => status === "completed") ? "completed" : "incomplete";
  const weighted = children.filter(({ item, report }) => item.objectiveMeasureWeight > 0 && report.scaled !== null);
  const totalWeight = weighted.reduce((sum, { item }) => sum + item.objectiveMeasureWeight, 0);
  const measure = totalWeight === 0 ? null : weighted.reduce((sum, { item, report }) => sum + item.objectiveMeasureWeight * (report.scaled ?? 0), 0) / totalWeight;
  return { satisfaction, completion, measure };
}

// What the player reports: an ungraded module never knows success; a graded one passes or fails its quiz.
const contentDone: ScoReport = { success: "unknown", completion: "completed", scaled: null };
const quizPassed: ScoReport = { success: "passed", completion: "completed", scaled: 0.8 };
const quizFailed: ScoReport = { success: "failed", completion: "completed", scaled: 0.4 };
const quizUntouched: ScoReport = { success: "unknown", completion: "incomplete", scaled: null };

describe("SCORM 2004, one SCO per module: rollup to the course", () => {
  test("the manifest says which items count: ungraded modules count for completion only, graded ones for success and score", async () => {
    const { manifest } = await moduleManifest();
    const [basics, spills] = leafItems(manifest);
    expect(basics).toMatchObject({ rollupObjectiveSatisfied: false, rollupProgressCompletion: true, objectiveMeasureWeight: 0 });
    expect(spills).toMatchObject({ rollupObjectiveSatisfied: true, rollupProgressCompletion: true, objectiveMeasureWeight: 1 });
    // Content reports both statuses, so the LMS never marks a module passed just because the learner left it.
    for (const item of [basics, spills]) expect(item).toMatchObject({ objectiveSetByContent: true, completionSetByContent: true });
    expect(manifest).toMatch(/<imsss:primaryObjective objectiveID="PRIMARY_SCO_mod_spills" satisfiedByMeasure="false"\/>/);
  });

  test("the course is passed and completed once the ungraded module is completed and the graded module passed", async () => {
    const items = leafItems((await moduleManifest()).manifest);
    expect(rollUp(items, [contentDone, quizPassed])).toEqual({ satisfaction: "satisfied", completion: "completed", measure: 0.8 });
    expect(rollUp(items, [contentDone, quizFailed])).toEqual({ satisfaction: "notSatisfied", completion: "completed", measure: 0.4 });
    expect(rollUp(items, [contentDone, quizUntouched])).toEqual({ satisfaction: "unknown", completion: "incomplete", measure: null });
    // Without the rollup controls (every item counting, the old manifest), the same learner could never pass.
    const everyItemCounts = items.map((item) => ({ ...item, rollupObjectiveSatisfied: true }));
    expect(rollUp(everyItemCounts, [contentDone, quizPassed]).satisfaction).toBe("unknown");
  });

  test("with two graded modules, the course is satisfied only when both are passed", async () => {
    const course = sampleCourse();
    const [basics, spills] = course.modules;
    if (!basics || !spills) throw new Error("fixture has two modules");
    const quiz = spills.lessons.find((lesson) => lesson.kind === "quiz");
    if (!quiz) throw new Error("fixture has a quiz");
    const twoGraded = { ...course, modules: [{ ...basics, lessons: [...basics.lessons, { ...quiz, id: "les_quiz_basics" }] }, spills] } as ExportCourse;
    const items = leafItems((await moduleManifest(twoGraded)).manifest);
    expect(items.map((item) => item.rollupObjectiveSatisfied)).toEqual([true, true]);
    expect(rollUp(items, [quizPassed, quizFailed]).satisfaction).toBe("notSatisfied");
    expect(rollUp(items, [quizPassed, quizPassed])).toEqual({ satisfaction: "satisfied", completion: "completed", measure: 0.8 });
  });

  test("the manifest with its sequencing validates against the genuine CAM and IMS Simple Sequencing schemas, which reject a bad rollup control", async () => {
    const { directory, manifest } = await moduleManifest();
    const valid = await xmllintWithImports(directory, "imsmanifest.xml", scorm2004Imports);
    expect(valid.output).toContain("imsmanifest.xml validates");
    expect(valid.ok).toBe(true);
    await Bun.write(join(directory, "bad.xml"), manifest.replace('rollupObjectiveSatisfied="false"', 'rollupObjectiveSatisfied="sometimes"'));
    const invalid = await xmllintWithImports(directory, "bad.xml", scorm2004Imports);
    expect(invalid.ok).toBe(false);
    expect(invalid.output).toContain("rollupObjectiveSatisfied");
  });
});
