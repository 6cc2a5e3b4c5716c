/**
 * Module operations: add (optionally with lessons and blocks), update, move and remove. Removing a
 * module removes its lessons and blocks explicitly, so the revision can bring them back.
 */
import * as v from "valibot";
import type { CourseEdit } from "../course-edit.ts";
import { allocatePositions } from "../ordering.ts";
import { lessonDocument, moduleDocument, moduleFields } from "../read-model.ts";
import { resolveObjectiveRefs } from "../references.ts";
import { moduleDocumentSchema, moduleFieldsSchema, moduleOutlineSchema, moduleUpdateEntries } from "../schemas/course.ts";
import { idField, positionField } from "../schemas/fields.ts";
import { insertModule } from "../structure.ts";
import { blockIdsOnly, defineOperation, findInCourse } from "./operation.ts";

export const addModule = defineOperation({
  name: "add_module",
  arguments: v.object({ ...moduleOutlineSchema.entries, position: positionField }),
  result: { module: moduleDocumentSchema },
  async apply(edit, args) {
    const [position] = await allocatePositions(edit, "module", edit.course.id, args.position, 1, "position");
    const module = await insertModule(edit, args, position as number, "module");
    const lessons = await edit.tx.listChildren("lesson", module.id);
    const documents = [];
    for (const lesson of lessons) documents.push(blockIdsOnly(lessonDocument(lesson, await edit.tx.listChildren("block", lesson.id), true)));
    return { result: { module: moduleDocument(module, documents) }, summary: `Added module ${module.id} "${module.title}"` };
  },
});

export const updateModule = defineOperation({
  name: "update_module",
  arguments: v.object({ moduleId: idField("module"), ...moduleUpdateEntries }),
  result: { module: moduleFieldsSchema },
  async apply(edit, args) {
    const current = await findInCourse(edit, "module", args.moduleId, "moduleId");
    const objectiveIds = args.objectiveIds === undefined ? undefined : await resolveObjectiveRefs(edit, args.objectiveIds, "objectiveIds");
    const module = await edit.update("module", current, { title: args.title, summary: args.summary, objectiveIds });
    return { result: { module: moduleFields(module) }, summary: `Updated module ${module.id} "${module.title}"` };
  },
});

export const moveModule = defineOperation({
  name: "move_module",
  arguments: v.object({
    moduleId: idField("module"),
    position: v.pipe(v.number(), v.integer("must be a whole number"), v.minValue(0, "must be 0 or more"), v.description("New 0-based index among the course's modules.")),
  }),
  result: { module: moduleFieldsSchema, position: v.number() },
  async apply(edit, args) {
    const current = await findInCourse(edit, "module", args.moduleId, "moduleId");
    const [position] = await allocatePositions(edit, "module", edit.course.id, args.position, 1, "position", current.id);
    const module = await edit.update("module", current, { position });
    return { result: { module: moduleFields(module), position: args.position }, summary: `Moved module ${module.id} to position ${args.position}` };
  },
});

export const removeModule = defineOperation({
  name: "remove_module",
  arguments: v.object({ moduleId: idField("module") }),
  result: { removed: v.object({ moduleId: v.string(), lessons: v.number(), blocks: v.number() }) },
  async apply(edit, args) {
    const module = await findInCourse(edit, "module", args.moduleId, "moduleId");
    let blocks = 0;
    const lessons = await edit.tx.listChildren("lesson", module.id);
    for (const lesson of lessons) blocks += await removeLessonContent(edit, lesson.id);
    for (const lesson of lessons) await edit.remove("lesson", lesson);
    await edit.remove("module", module);
    return {
      result: { removed: { moduleId: module.id, lessons: lessons.length, blocks } },
      summary: `Removed module ${module.id} "${module.title}" with ${lessons.length} lesson(s) and ${blocks} block(s)`,
    };
  },
});

/** Removes a lesson's blocks one by one (recorded), returning how many there were. */
export async function removeLessonContent(edit: CourseEdit, lessonId: string): Promise<number> {
  const blocks = await edit.tx.listChildren("block", lessonId);
  for (const block of blocks) await edit.remove("block", block);
  return blocks.length;
}

export const moduleOperations = [addModule, updateModule, moveModule, removeModule];
