/**
 * Inserting course structure: modules with their lessons, lessons with their blocks, and blocks at a
 * position. Shared by `create_course` (a whole outline in one call) and the `add_*` tools, so a block
 * is checked and stored the same way whichever tool brings it.
 */
import type { BlockRow, LessonBannerRow, LessonRow, ModuleRow, QuizOptions } from "../store/types.ts";
import type { CourseEdit } from "./course-edit.ts";
import { invalidArgument } from "./errors.ts";
import { allocatePositions } from "./ordering.ts";
import { blockBody } from "./read-model.ts";
import { checkQuizOptions, countQuestions, resolveQuizOptions, type QuizOptionsInput } from "./quiz-options.ts";
import { checkAssetReferences, resolveObjectiveRefs } from "./references.ts";
import type { BlockContent } from "./schemas/blocks.ts";
import type { LessonBanner } from "./schemas/content-blocks.ts";
import type { LessonOutline, ModuleOutline } from "./schemas/course.ts";

export const defaultPassingScore = 80;

/** Objective keys from the same call (create_course), mapped to the IDs they received. */
export type ObjectiveKeys = ReadonlyMap<string, string>;

export async function insertModule(
  edit: CourseEdit,
  outline: ModuleOutline,
  position: number,
  field: string,
  keys?: ObjectiveKeys,
): Promise<ModuleRow> {
  const module = await edit.insert("module", {
    id: edit.session.newId("module"),
    courseId: edit.course.id,
    position,
    title: outline.title,
    summary: outline.summary ?? "",
    objectiveIds: await resolveObjectiveRefs(edit, outline.objectiveIds ?? [], `${field}.objectiveIds`, keys),
  });
  const lessonPositions = await allocatePositions(edit, "lesson", module.id, undefined, outline.lessons.length, `${field}.lessons`);
  for (const [index, lesson] of outline.lessons.entries()) {
    await insertLesson(edit, module.id, lesson, lessonPositions[index] as number, `${field}.lessons[${index}]`, keys);
  }
  return module;
}

export async function insertLesson(
  edit: CourseEdit,
  moduleId: string,
  outline: LessonOutline,
  position: number,
  field: string,
  keys?: ObjectiveKeys,
): Promise<LessonRow> {
  const settings = lessonSettings(outline, undefined, field);
  const lesson = await edit.insert("lesson", {
    id: edit.session.newId("lesson"),
    courseId: edit.course.id,
    moduleId,
    position,
    title: outline.title,
    ...settings,
    banner: await checkedBanner(edit, outline.banner, `${field}.banner`) ?? null,
  });
  await checkQuizOptions(edit, lesson.id, settings.quizOptions, outline, countQuestions(outline.blocks), field);
  await insertBlocks(edit, lesson.id, outline.blocks, undefined, `${field}.blocks`, keys);
  return lesson;
}

/** The banner to store, its asset checked to be an image of this course; undefined stays undefined (unchanged). */
export async function checkedBanner(edit: CourseEdit, banner: LessonBanner | null | undefined, field: string): Promise<LessonBannerRow | null | undefined> {
  if (!banner) return banner;
  await checkAssetReferences(edit, { type: "image", ...banner }, field);
  edit.pictures.note({ type: "image", ...banner }, field);
  return JSON.parse(JSON.stringify(banner)) as LessonBannerRow;
}

/** Inserts blocks in order at `index` (end when undefined); returns the stored rows. */
export async function insertBlocks(
  edit: CourseEdit,
  lessonId: string,
  blocks: readonly BlockContent[],
  index: number | undefined,
  field: string,
  keys?: ObjectiveKeys,
  positionField = "position",
): Promise<BlockRow[]> {
  const positions = await allocatePositions(edit, "block", lessonId, index, blocks.length, positionField);
  const rows: BlockRow[] = [];
  for (const [i, block] of blocks.entries()) {
    const prepared = await prepareBlock(edit, block, `${field}[${i}]`, keys);
    rows.push(
      await edit.insert("block", {
        id: edit.session.newId("block"),
        courseId: edit.course.id,
        lessonId,
        position: positions[i] as number,
        type: prepared.type,
        body: blockBody(prepared),
      }),
    );
  }
  return rows;
}

/** Resolves objective references and checks asset references; returns the block to store. */
export async function prepareBlock(edit: CourseEdit, block: BlockContent, field: string, keys?: ObjectiveKeys): Promise<BlockContent> {
  await checkAssetReferences(edit, block, field);
  edit.pictures.note(block, field);
  if ("objectiveIds" in block && block.objectiveIds.length > 0) {
    return { ...block, objectiveIds: await resolveObjectiveRefs(edit, block.objectiveIds, `${field}.objectiveIds`, keys) };
  }
  return block;
}

type LessonSettingsInput = Partial<Pick<LessonOutline, "kind" | "passingScore" | "maxAttempts" | "estimatedMinutes">> & QuizOptionsInput;
type LessonSettings = Pick<LessonRow, "kind" | "passingScore" | "maxAttempts" | "estimatedMinutes"> & { quizOptions: QuizOptions | null };

/**
 * The lesson's kind and quiz settings after applying `input` to `current` (undefined for a new lesson).
 * Quiz settings on a content lesson are refused by name; switching to content clears them.
 */
export function lessonSettings(input: LessonSettingsInput, current: LessonRow | undefined, field: string): LessonSettings {
  const kind = input.kind ?? current?.kind ?? "content";
  if (kind === "content") {
    if (input.passingScore !== undefined) throw invalidArgument(`${field}.passingScore`, "only quiz lessons have a passing score; set kind to quiz or leave it out");
    if (input.maxAttempts !== undefined && input.maxAttempts !== null) {
      throw invalidArgument(`${field}.maxAttempts`, "only quiz lessons limit attempts; set kind to quiz or leave it out");
    }
    resolveQuizOptions(input, null, kind, field);
    return { kind, passingScore: null, maxAttempts: null, estimatedMinutes: pick(input.estimatedMinutes, current?.estimatedMinutes, null), quizOptions: null };
  }
  return {
    kind,
    passingScore: input.passingScore ?? current?.passingScore ?? defaultPassingScore,
    maxAttempts: pick(input.maxAttempts, current?.maxAttempts, null),
    estimatedMinutes: pick(input.estimatedMinutes, current?.estimatedMinutes, null),
    quizOptions: resolveQuizOptions(input, current?.kind === "quiz" ? (current.quizOptions ?? null) : null, kind, field),
  };
}

function pick<T>(given: T | undefined, current: T | undefined, fallback: T): T {
  return given !== undefined ? given : current !== undefined ? current : fallback;
}
