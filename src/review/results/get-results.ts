/**
 * `get_course_results`: the course's statistics and diagnoses, computed from its results store as it
 * stands (results past the retention period are not counted). Reading needs a role on the course; the
 * answer never names a learner (they are salted hashes, and none is listed), and figures for groups
 * smaller than `RESULTS_MIN_GROUP` are withheld.
 */
import * as v from "valibot";
import { openCourse } from "../../authoring/access.ts";
import type { Actor } from "../../authoring/context.ts";
import { loadCourseRows } from "../../authoring/read-model.ts";
import { idField } from "../../authoring/schemas/fields.ts";
import { readAs, type AuthoringServices } from "../../authoring/services.ts";
import { courseResults, type CourseResults } from "./course-results.ts";
import { diagnose, type Diagnosis } from "./diagnoses.ts";
import { resultsSettings } from "./import-results.ts";

export const getCourseResultsArguments = v.strictObject({
  courseId: idField("course"),
  lessonIds: v.optional(v.pipe(v.array(idField("lesson")), v.maxLength(200))),
});

export type GetCourseResultsArguments = v.InferOutput<typeof getCourseResultsArguments>;

export interface CourseResultsAnswer extends CourseResults {
  diagnoses: Diagnosis[];
}

export async function getCourseResults(services: AuthoringServices, actor: Actor, args: GetCourseResultsArguments): Promise<CourseResultsAnswer> {
  const settings = resultsSettings(services);
  return readAs(services, actor, async (session) => {
    const { course } = await openCourse(session, args.courseId, "read");
    const rows = await loadCourseRows(session.tx, course);
    const cutoff = new Date(session.now().getTime() - settings.retentionDays * 86_400_000).toISOString();
    const results = (await session.tx.listResults(course.id)).filter((row) => row.importedAt >= cutoff);
    const outline = { courseId: course.id, version: course.version, modules: rows.modules, lessons: rows.lessons, blocks: rows.blocks };
    const computed = courseResults(outline, results, Math.max(5, settings.minGroup));
    const diagnoses = diagnose(outline, computed);
    if (!args.lessonIds) return { ...computed, diagnoses };
    const wanted = new Set(args.lessonIds);
    const blockLesson = new Map(rows.blocks.map((block) => [block.id, block.lessonId]));
    const inWanted = (target: string): boolean => wanted.has(target) || wanted.has(blockLesson.get(target) ?? "");
    return {
      ...computed,
      lessons: computed.lessons.filter((lesson) => wanted.has(lesson.lessonId)),
      questions: computed.questions.filter((question) => question.lessonId !== null && wanted.has(question.lessonId)),
      videos: computed.videos.filter((video) => wanted.has(video.lessonId)),
      diagnoses: diagnoses.filter((diagnosis) => inWanted(diagnosis.target)),
    };
  });
}
