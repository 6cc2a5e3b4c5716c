/**
 * A document (Word, PowerPoint, a Markdown outline, a JSON export) imported into a course being built:
 * its modules added after the course's own, or with `moduleId` its lessons added to that module. Nothing
 * already in the course changes: its title, description and theme stay; the document's objectives are
 * matched to the course's by text or added after them. One transaction and one revision; on any error
 * nothing is written.
 */
import { refuseTranslationEdit } from "../authoring/translation/access.ts";
import type { AuthoringSession } from "../authoring/context.ts";
import { beginCourseEdit, commitCourseEdit, type CourseEdit } from "../authoring/course-edit.ts";
import { invalidArgument } from "../authoring/errors.ts";
import { limits } from "../authoring/schemas/fields.ts";
import { findInCourse } from "../authoring/operations/operation.ts";
import { allocatePositions } from "../authoring/ordering.ts";
import { insertLesson, insertModule } from "../authoring/structure.ts";
import type { ImportedAsset, ImportedCourse } from "../formats/draft-course.ts";
import { insertAssets, namedByImportLabel, withNewAssetIds } from "./create-course.ts";
import { insertLessonNotes, type LessonNote } from "./lesson-notes.ts";

export interface ImportTarget {
  readonly courseId: string;
  readonly moduleId?: string | undefined;
  readonly expectedVersion?: number | undefined;
}

export interface ImportedInto {
  readonly courseId: string;
  /** The course's version after the import. */
  readonly version: number;
  /** The modules added (none when the lessons went into `moduleId`). */
  readonly moduleIds: readonly string[];
  readonly lessonIds: readonly string[];
}

/** Objective keys of the document → objective IDs of the course: the same text reuses the course's own. */
async function mergeObjectives(edit: CourseEdit, objectives: ImportedCourse["objectives"]): Promise<Map<string, string>> {
  const existing = await edit.tx.listChildren("objective", edit.course.id);
  const byText = new Map(existing.map((objective) => [objective.text.trim().toLowerCase(), objective.id]));
  const keys = new Map<string, string>();
  let position = Math.max(0, ...existing.map((objective) => objective.position));
  let count = existing.length;
  for (const [index, objective] of objectives.entries()) {
    let id = byText.get(objective.text.trim().toLowerCase());
    if (!id) {
      count += 1;
      if (count > limits.objectivesPerCourse) {
        throw invalidArgument(`objectives[${index}]`, `the course would have more than ${limits.objectivesPerCourse} objectives with the document's; remove some with set_objectives first`);
      }
      position += 1024;
      id = edit.session.newId("objective");
      await edit.insert("objective", { id, courseId: edit.course.id, position, text: objective.text });
      byText.set(objective.text.trim().toLowerCase(), id);
    }
    if (objective.key !== undefined) keys.set(objective.key, id);
  }
  return keys;
}

/** Inserts the document's outline; returns the outline path of each new lesson (`modules[i].lessons[j]`) → its ID. */
async function insertOutline(edit: CourseEdit, target: ImportTarget, outline: ImportedCourse["modules"], keys: ReadonlyMap<string, string>): Promise<{ moduleIds: string[]; lessonAt: Map<string, string> }> {
  const lessonAt = new Map<string, string>();
  const moduleIds: string[] = [];
  if (target.moduleId !== undefined) {
    const module = await findInCourse(edit, "module", target.moduleId, "into.moduleId");
    const lessons = outline.flatMap((source, moduleIndex) => source.lessons.map((lesson, lessonIndex) => ({ lesson, path: `modules[${moduleIndex}].lessons[${lessonIndex}]` })));
    const positions = await allocatePositions(edit, "lesson", module.id, undefined, lessons.length, "into.moduleId");
    for (const [index, { lesson, path }] of lessons.entries()) {
      lessonAt.set(path, (await insertLesson(edit, module.id, lesson, positions[index] as number, path, keys)).id);
    }
    return { moduleIds, lessonAt };
  }
  const positions = await allocatePositions(edit, "module", edit.course.id, undefined, outline.length, "modules");
  for (const [moduleIndex, source] of outline.entries()) {
    const module = await insertModule(edit, source, positions[moduleIndex] as number, `modules[${moduleIndex}]`, keys);
    moduleIds.push(module.id);
    const lessons = await edit.tx.listChildren("lesson", module.id);
    lessons.forEach((lesson, lessonIndex) => lessonAt.set(`modules[${moduleIndex}].lessons[${lessonIndex}]`, lesson.id));
  }
  return { moduleIds, lessonAt };
}

export async function importInto(
  session: AuthoringSession,
  target: ImportTarget,
  course: ImportedCourse,
  source: { assets: readonly ImportedAsset[]; labels: ReadonlyMap<string, string>; notes: readonly LessonNote[]; name: string; assetIds?: Map<string, string> },
): Promise<ImportedInto> {
  // Access, the course's state and its version first; then the pictures (counted against the owner's storage), then the outline.
  const edit = await beginCourseEdit(session, target.courseId, target.expectedVersion);
  await refuseTranslationEdit(session, target.courseId);
  let inserted: { moduleIds: string[]; lessonAt: Map<string, string> };
  try {
    const assetIds = await insertAssets(session, target.courseId, source.assets, source.assetIds);
    edit.addedAssetBytes += source.assets.reduce((sum, asset) => sum + asset.bytes.byteLength, 0);
    const keys = await mergeObjectives(edit, course.objectives);
    inserted = await insertOutline(edit, target, withNewAssetIds(course.modules, assetIds), keys);
  } catch (error) {
    throw namedByImportLabel(error, source.labels);
  }
  await insertLessonNotes(session, edit.course.id, source.notes, (path) => inserted.lessonAt.get(path));
  const lessonCount = inserted.lessonAt.size;
  const committed = await commitCourseEdit(edit, "import_course", `Imported ${lessonCount} lesson(s) from ${source.name}`);
  return { courseId: edit.course.id, version: committed.version, moduleIds: inserted.moduleIds, lessonIds: [...inserted.lessonAt.values()] };
}
