/**
 * The course as validation walks it: rows loaded once, grouped and ordered in one pass, each module,
 * lesson and block numbered the way an author reads them and carrying a ready-made location, so every
 * check is a function over memory and a 10,000-block course costs one read of each table.
 */
import type { Block } from "../../authoring/schemas/blocks.ts";
import { estimateLessonMinutes } from "../../authoring/estimate.ts";
import { quizOptionsOf } from "../../authoring/quiz-options.ts";
import { blockDocument, groupBy, inOrder, type CourseRows } from "../../authoring/read-model.ts";
import type { AssetRow, BlockRow, CourseRow, LessonRow, ModuleRow, ObjectiveRow } from "../../store/types.ts";
import type { FindingLocation } from "./rules.ts";

export interface WalkedBlock {
  row: BlockRow;
  /** The stored block; rows written before a rule existed may lack fields the schema now requires. */
  block: Block;
  location: FindingLocation;
}

export interface WalkedLesson {
  row: LessonRow;
  blocks: WalkedBlock[];
  /** The author's estimate, or the one derived from the content. */
  minutes: number;
  /** The estimate derived from the content, whether or not the author set one. */
  derivedMinutes: number;
  location: FindingLocation;
}

export interface WalkedModule {
  row: ModuleRow;
  lessons: WalkedLesson[];
  location: FindingLocation;
}

export interface WalkedCourse {
  course: CourseRow;
  objectives: ObjectiveRow[];
  modules: WalkedModule[];
  assets: ReadonlyMap<string, AssetRow>;
}

export function walkCourse(rows: CourseRows, assets: readonly AssetRow[]): WalkedCourse {
  const blocksByLesson = groupBy(rows.blocks, (block) => block.lessonId);
  const lessonsByModule = groupBy(rows.lessons, (lesson) => lesson.moduleId);
  const modules = inOrder(rows.modules).map((module, moduleIndex): WalkedModule => {
    const moduleNumber = moduleIndex + 1;
    const modulePath = `Module ${moduleNumber} ${quoted(module.title)}`;
    const lessons = inOrder(lessonsByModule.get(module.id) ?? []).map((lesson, lessonIndex): WalkedLesson => {
      const lessonPath = `${modulePath} › Lesson ${moduleNumber}.${lessonIndex + 1} ${quoted(lesson.title)}`;
      const blockRows = inOrder(blocksByLesson.get(lesson.id) ?? []);
      const base = { moduleId: module.id, lessonId: lesson.id };
      const derivedMinutes = estimateLessonMinutes(blockRows, { kind: lesson.kind, drawCount: quizOptionsOf(lesson).drawCount });
      return {
        row: lesson,
        minutes: lesson.estimatedMinutes ?? derivedMinutes,
        derivedMinutes,
        location: { path: lessonPath, ...base },
        blocks: blockRows.map((row, blockIndex) => ({
          row,
          block: blockDocument(row),
          location: { path: `${lessonPath} › Block ${blockIndex + 1} (${row.type})`, ...base, blockId: row.id },
        })),
      };
    });
    return { row: module, lessons, location: { path: modulePath, moduleId: module.id } };
  });
  return { course: rows.course, objectives: inOrder(rows.objectives), modules, assets: new Map(assets.map((asset) => [asset.id, asset])) };
}

/** A location inside a block, naming the field to fix. */
export function atField(location: FindingLocation, field: string): FindingLocation {
  return { ...location, field };
}

export function objectiveLocation(objective: ObjectiveRow, index: number): FindingLocation {
  return { path: `Learning objective ${index + 1} ${quoted(objective.text)}`, objectiveId: objective.id };
}

export const courseLocation: FindingLocation = { path: "Course" };

export function quoted(text: string, length = 60): string {
  return `"${text.length > length ? `${text.slice(0, length - 1)}…` : text}"`;
}
