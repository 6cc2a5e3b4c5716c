/**
 * Turns stored rows into the documents tools return: a course summary, and the whole nested course
 * (objectives, modules, lessons, blocks in order). The same assembly serves the live course and a
 * course reconstructed as of an old revision.
 */
import type { BlockRow, CollaboratorRow, CourseRow, JsonObject, LessonBannerRow, LessonRow, ModuleRow, ObjectiveRow, StoreTransaction } from "../store/types.ts";
import type { CourseRole } from "./course-role.ts";
import { estimateLessonMinutes } from "./estimate.ts";
import { quizOptionsDocument, quizOptionsOf } from "./quiz-options.ts";
import type { Block } from "./schemas/blocks.ts";
import type { CourseDocument, CourseSummary, LessonDocument, LessonFields, ModuleDocument, ModuleFields } from "./schemas/course.ts";

export interface CourseRows {
  course: CourseRow;
  objectives: ObjectiveRow[];
  modules: ModuleRow[];
  lessons: LessonRow[];
  blocks: BlockRow[];
}

export function courseSummary(course: CourseRow, role: CourseRole): CourseSummary {
  return {
    id: course.id,
    title: course.title,
    description: course.description,
    language: course.language,
    audience: course.audience,
    level: course.level,
    tags: course.tags,
    status: course.status,
    version: course.version,
    ownerSub: course.ownerSub,
    role,
    createdAt: course.createdAt,
    updatedAt: course.updatedAt,
  };
}

export function blockDocument(row: Pick<BlockRow, "id" | "type" | "body">): Block {
  return { id: row.id, type: row.type, ...row.body } as Block;
}

/** The block body to store: everything but `id` and `type`. */
export function blockBody(block: { type: string } & object): JsonObject {
  const { type: _type, ...body } = block as { type: string } & Record<string, unknown>;
  return JSON.parse(JSON.stringify(body)) as JsonObject;
}

export function lessonDocument(lesson: LessonRow, blocks: readonly BlockRow[], includeBlocks: boolean): LessonDocument {
  const derivedMinutes = estimateLessonMinutes(blocks, { kind: lesson.kind, drawCount: quizOptionsOf(lesson).drawCount });
  const document: LessonDocument = {
    id: lesson.id,
    title: lesson.title,
    kind: lesson.kind,
    passingScore: lesson.passingScore,
    maxAttempts: lesson.maxAttempts,
    estimatedMinutes: lesson.estimatedMinutes ?? derivedMinutes,
    estimatedMinutesIsSet: lesson.estimatedMinutes !== null,
    derivedMinutes,
    ...quizOptionsDocument(lesson),
    ...bannerDocument(lesson),
    blockCount: blocks.length,
  };
  if (includeBlocks) document.blocks = blocks.map(blockDocument);
  return document;
}

export function moduleDocument(module: ModuleRow, lessons: LessonDocument[]): ModuleDocument {
  return { id: module.id, title: module.title, summary: module.summary, objectiveIds: module.objectiveIds, lessons };
}

export function courseDocument(
  rows: CourseRows,
  role: CourseRole,
  collaborators: readonly CollaboratorRow[],
  options: { includeBlocks: boolean },
): CourseDocument {
  const blocksByLesson = groupBy(rows.blocks, (block) => block.lessonId);
  const lessonsByModule = groupBy(rows.lessons, (lesson) => lesson.moduleId);
  const modules = inOrder(rows.modules).map((module) =>
    moduleDocument(
      module,
      inOrder(lessonsByModule.get(module.id) ?? []).map((lesson) => lessonDocument(lesson, inOrder(blocksByLesson.get(lesson.id) ?? []), options.includeBlocks)),
    ),
  );
  return {
    ...courseSummary(rows.course, role),
    objectives: inOrder(rows.objectives).map((objective) => ({ id: objective.id, text: objective.text })),
    collaborators: collaboratorDocuments(collaborators),
    numbering: rows.course.numbering,
    targetMinutes: rows.course.targetMinutes,
    estimatedMinutes: courseMinutes(modules),
    theme: (rows.course.theme ?? null) as CourseDocument["theme"],
    modules,
  };
}

export function collaboratorDocuments(collaborators: readonly CollaboratorRow[]): CourseDocument["collaborators"] {
  return collaborators.map((collaborator) =>
    collaborator.principalKind === "sub" ? { sub: collaborator.principal, role: collaborator.role } : { email: collaborator.principal, role: collaborator.role },
  );
}

/** Items by key, each group in the items' order (rows by their parent's ID). */
export function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

/** Siblings by position, ties broken by ID, matching the store's order. */
export function inOrder<T extends { position: number; id: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export async function loadCourseRows(tx: Pick<StoreTransaction, "listInCourse">, course: CourseRow): Promise<CourseRows> {
  const [objectives, modules, lessons, blocks] = await Promise.all([
    tx.listInCourse("objective", course.id),
    tx.listInCourse("module", course.id),
    tx.listInCourse("lesson", course.id),
    tx.listInCourse("block", course.id),
  ]);
  return { course, objectives, modules, lessons, blocks };
}

export function moduleFields(module: ModuleRow): ModuleFields {
  return { id: module.id, title: module.title, summary: module.summary, objectiveIds: module.objectiveIds };
}

/** `blocks` are the lesson's own: a derived estimate comes from them, as in `lessonDocument`. */
export function lessonFields(lesson: LessonRow, blocks: readonly BlockRow[]): LessonFields {
  return {
    id: lesson.id,
    moduleId: lesson.moduleId,
    title: lesson.title,
    kind: lesson.kind,
    passingScore: lesson.passingScore,
    maxAttempts: lesson.maxAttempts,
    estimatedMinutes: lesson.estimatedMinutes ?? estimateLessonMinutes(blocks, { kind: lesson.kind, drawCount: quizOptionsOf(lesson).drawCount }),
    estimatedMinutesIsSet: lesson.estimatedMinutes !== null,
    ...quizOptionsDocument(lesson),
    ...bannerDocument(lesson),
  };
}

/** `{ banner }` when the lesson has one, else nothing (documents of lessons without one stay as they were). */
function bannerDocument(lesson: Pick<LessonRow, "banner">): { banner?: LessonBannerRow } {
  return lesson.banner ? { banner: lesson.banner } : {};
}

/** A course's length: its lessons' minutes, set or derived, summed. */
export function courseMinutes(modules: readonly { lessons: readonly { estimatedMinutes: number }[] }[]): number {
  return modules.reduce((sum, module) => sum + module.lessons.reduce((lessonSum, lesson) => lessonSum + lesson.estimatedMinutes, 0), 0);
}
