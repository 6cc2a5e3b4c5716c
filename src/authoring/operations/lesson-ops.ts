/**
 * Lesson operations: add (optionally with blocks), update (title, kind, quiz settings, estimate),
 * move (within its module or to another module of the same course) and remove.
 */
import * as v from "valibot";
import { allocatePositions } from "../ordering.ts";
import { lessonDocument, lessonFields } from "../read-model.ts";
import { lessonDocumentSchema, lessonFieldsSchema, lessonOutlineSchema, lessonUpdateEntries } from "../schemas/course.ts";
import { idField, positionField } from "../schemas/fields.ts";
import { checkQuizOptions, countQuestions } from "../quiz-options.ts";
import { checkedBanner, insertLesson, lessonSettings } from "../structure.ts";
import { removeLessonContent } from "./module-ops.ts";
import { blockIdsOnly, defineOperation, findInCourse } from "./operation.ts";

export const addLesson = defineOperation({
  name: "add_lesson",
  arguments: v.object({ moduleId: idField("module"), ...lessonOutlineSchema.entries, position: positionField }),
  result: { lesson: lessonDocumentSchema },
  async apply(edit, args) {
    const module = await findInCourse(edit, "module", args.moduleId, "moduleId");
    const [position] = await allocatePositions(edit, "lesson", module.id, args.position, 1, "position");
    const lesson = await insertLesson(edit, module.id, args, position as number, "lesson");
    const blocks = await edit.tx.listChildren("block", lesson.id);
    return { result: { lesson: blockIdsOnly(lessonDocument(lesson, blocks, true)) }, summary: `Added lesson ${lesson.id} "${lesson.title}" to module ${module.id}` };
  },
});

export const updateLesson = defineOperation({
  name: "update_lesson",
  arguments: v.object({ lessonId: idField("lesson"), ...lessonUpdateEntries }),
  result: { lesson: lessonFieldsSchema },
  async apply(edit, args) {
    const current = await findInCourse(edit, "lesson", args.lessonId, "lessonId");
    const settings = lessonSettings(args, current, "lesson");
    const blocks = await edit.tx.listChildren("block", current.id);
    await checkQuizOptions(edit, current.id, settings.quizOptions, args, countQuestions(blocks), "lesson");
    const banner = await checkedBanner(edit, args.banner, "lesson.banner");
    const lesson = await edit.update("lesson", current, { title: args.title, ...settings, ...(banner === undefined ? {} : { banner }) });
    return { result: { lesson: lessonFields(lesson, await edit.tx.listChildren("block", lesson.id)) }, summary: `Updated lesson ${lesson.id} "${lesson.title}"` };
  },
});

export const moveLesson = defineOperation({
  name: "move_lesson",
  arguments: v.object({
    lessonId: idField("lesson"),
    toModuleId: v.optional(v.pipe(idField("module"), v.description("Module of the same course to move it to; omit to stay in the current module."))),
    position: positionField,
  }),
  result: { lesson: lessonFieldsSchema },
  async apply(edit, args) {
    const current = await findInCourse(edit, "lesson", args.lessonId, "lessonId");
    const target = args.toModuleId ? await findInCourse(edit, "module", args.toModuleId, "toModuleId") : undefined;
    const moduleId = target?.id ?? current.moduleId;
    const sameModule = moduleId === current.moduleId;
    const [position] = await allocatePositions(edit, "lesson", moduleId, args.position, 1, "position", sameModule ? current.id : undefined);
    const lesson = await edit.update("lesson", current, { moduleId, position });
    return { result: { lesson: lessonFields(lesson, await edit.tx.listChildren("block", lesson.id)) }, summary: `Moved lesson ${lesson.id} to module ${moduleId}${args.position === undefined ? "" : ` position ${args.position}`}` };
  },
});

export const removeLesson = defineOperation({
  name: "remove_lesson",
  arguments: v.object({ lessonId: idField("lesson") }),
  result: { removed: v.object({ lessonId: v.string(), blocks: v.number() }) },
  async apply(edit, args) {
    const lesson = await findInCourse(edit, "lesson", args.lessonId, "lessonId");
    const blocks = await removeLessonContent(edit, lesson.id);
    await edit.remove("lesson", lesson);
    return { result: { removed: { lessonId: lesson.id, blocks } }, summary: `Removed lesson ${lesson.id} "${lesson.title}" with ${blocks} block(s)` };
  },
});

export const lessonOperations = [addLesson, updateLesson, moveLesson, removeLesson];
