/**
 * The final assessment is listed once (issue 30): in the contents and the cover's outline it appears as
 * one entry at the end, not under its own module, under a "Final assessment" group and again by title.
 */
import { expect, test } from "bun:test";
import { renderCourseHtml, type RenderableCourse } from "../src/render/index.ts";
import { ClassName, DataName } from "../src/page-contract/markup-names.ts";

const course = {
  id: "crs_final",
  title: "Fire safety",
  language: "en",
  objectives: [],
  modules: [
    { id: "mod_1", title: "Alarms", summary: "", objectiveIds: [], lessons: [{ id: "les_1", title: "When the alarm sounds", kind: "content", blocks: [{ id: "blk_1", type: "text", markdown: "Leave by the nearest exit." }] }] },
    { id: "mod_2", title: "Wrap-up", summary: "", objectiveIds: [], lessons: [{ id: "les_final", title: "Final assessment", kind: "quiz", passingScore: 80, maxAttempts: null, finalAssessment: true, blocks: [{ id: "blk_q", type: "true_false", prompt: "Use the lift?", points: 1, objectiveIds: [], answer: false }] }] },
  ],
} as unknown as RenderableCourse;

test("a final assessment alone in its module is listed once in the contents and once in the cover's outline", () => {
  const page = renderCourseHtml(course, { mode: "package", assetUrl: (id) => id });
  const contents = new RegExp(`<nav class="${ClassName.contents}"[\\s\\S]*?</nav>`).exec(page)?.[0] ?? "";
  expect(contents.match(/Final assessment/g)).toHaveLength(1);
  expect(contents).not.toContain("Wrap-up");
  expect(contents).toContain("When the alarm sounds");
  const cover = /<article class="page[^"]*"[^>]*id="course-introduction"[\s\S]*?<\/article>/.exec(page)?.[0] ?? page.slice(page.indexOf("</nav>"), page.indexOf(`data-${DataName.lessonId}="les_1"`));
  expect(cover).not.toContain("Wrap-up");
  expect(cover.match(/href="#lesson-les_final"/g)).toHaveLength(1);
});
