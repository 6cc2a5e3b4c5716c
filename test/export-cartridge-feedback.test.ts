/**
 * The cartridge's QTI assessments carry what the learner sees after answering in our player: each
 * question's explanation as general feedback shown whatever the answer, and the author's per-answer
 * feedback shown by a response condition (the choice picked; a wrong blank). Checked in the XML and
 * against IMS's Common Cartridge profile of QTI 1.2.1.
 */
import { describe, expect, test } from "bun:test";
import { copyFile } from "node:fs/promises";
import { join } from "node:path";
import { buildPackage } from "../src/export/build-package.ts";
import type { ExportCourse } from "../src/formats/package/types.ts";
import { schemaPath } from "../src/formats/package/schemas.ts";
import { renderCourseHtml } from "../src/render/index.ts";
import { memoryAssets, quizLessonId, sampleCourse, unpackToDirectory } from "./support/export-course.ts";
import { xmllint } from "./support/export-xmllint.ts";

/** The sample quiz with feedback on a true/false answer and on the blank, and an explanation on the blank. */
function courseWithFeedback(): ExportCourse {
  const course = sampleCourse();
  const quizModule = course.modules[1];
  if (!quizModule) throw new Error("fixture has a second module");
  const lessons = quizModule.lessons.map((lesson) =>
    lesson.id !== quizLessonId
      ? lesson
      : {
          ...lesson,
          blocks: (lesson.blocks ?? []).map((block) => {
            if (block.id === "blk_q2") return { ...block, falseFeedback: "Yes: *always* wear them.", trueFeedback: "No, never optional." };
            if (block.id === "blk_q4") return { ...block, explanation: "Containing stops it spreading.", blanks: [{ answers: ["contain"], caseSensitive: false, feedback: "Think of a barrier." }] };
            return block;
          }),
        },
  );
  return { ...course, modules: [course.modules[0], { ...quizModule, lessons }] } as ExportCourse;
}

async function assessment(): Promise<{ directory: string; qti: string }> {
  const built = await buildPackage(courseWithFeedback(), { format: "imscc", assets: memoryAssets(), renderer: renderCourseHtml });
  const directory = await unpackToDirectory(built.stream, "imscc-feedback");
  return { directory, qti: await Bun.file(join(directory, "assessments/les_quiz/assessment.xml")).text() };
}

function itemXml(qti: string, blockId: string): string {
  return new RegExp(`<item ident="Q_${blockId}"[\\s\\S]*?</item>`).exec(qti)?.[0] ?? "";
}

describe("QTI feedback in the cartridge", () => {
  test("a question's explanation is general feedback, displayed whatever the answer", async () => {
    const { qti } = await assessment();
    const first = itemXml(qti, "blk_q1");
    expect(first).toMatch(/<respcondition continue="Yes">\s*<conditionvar>\s*<other\/>\s*<\/conditionvar>\s*<displayfeedback feedbacktype="Response" linkrefid="general_fb"\/>/);
    expect(first).toMatch(/<itemfeedback ident="general_fb">\s*<flow_mat>\s*<material>\s*<mattext texttype="text\/html">&lt;p&gt;Assess before acting.&lt;\/p&gt;/);
    // A question without an explanation has no general feedback.
    expect(itemXml(qti, "blk_q3")).not.toContain("general_fb");
  });

  test("per-answer feedback is shown for the choice picked, before the scoring condition ends processing", async () => {
    const { qti } = await assessment();
    const first = itemXml(qti, "blk_q1");
    expect(first).toMatch(/<varequal respident="blk_q1_response">blk_q1_c1<\/varequal>\s*<\/conditionvar>\s*<displayfeedback feedbacktype="Response" linkrefid="blk_q1_c1_fb"\/>/);
    expect(first).toMatch(/<itemfeedback ident="blk_q1_c1_fb">[\s\S]*?Right\./);
    expect(first.indexOf("blk_q1_c1_fb")).toBeLessThan(first.indexOf('continue="No"'));
    const trueFalse = itemXml(qti, "blk_q2");
    expect(trueFalse).toMatch(/<itemfeedback ident="blk_q2_c1_fb">[\s\S]*?No, never optional\./);
    expect(trueFalse).toMatch(/<itemfeedback ident="blk_q2_c2_fb">[\s\S]*?&lt;em&gt;always&lt;\/em&gt;/);
  });

  test("a blank's feedback is shown when no accepted answer matched, after the answers that score", async () => {
    const { qti } = await assessment();
    const blank = itemXml(qti, "blk_q4");
    expect(blank).toMatch(/<setvar action="Set" varname="SCORE">100<\/setvar>\s*<\/respcondition>\s*<respcondition continue="Yes">\s*<conditionvar>\s*<other\/>\s*<\/conditionvar>\s*<displayfeedback feedbacktype="Response" linkrefid="incorrect_fb"\/>/);
    expect(blank).toMatch(/<itemfeedback ident="incorrect_fb">[\s\S]*?Think of a barrier\./);
    expect(blank).toMatch(/<itemfeedback ident="general_fb">[\s\S]*?Containing stops it spreading\./);
  });

  test("the assessment with feedback validates against IMS's CC profile of QTI 1.2.1", async () => {
    const { directory } = await assessment();
    await copyFile(schemaPath("imscc", "ccv1p1_qtiasiv1p2p1_v1p0.xsd"), join(directory, "qti.xsd"));
    for (const file of ["xml.xsd", "XMLSchema.dtd", "datatypes.dtd"]) await copyFile(schemaPath("scorm2004", file), join(directory, file));
    const result = xmllint(directory, "assessments/les_quiz/assessment.xml", "qti.xsd");
    expect(result.output).toContain("assessment.xml validates");
    expect(result.ok).toBe(true);
  });
});
