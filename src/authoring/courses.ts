/**
 * Whole-course use cases: create (optionally with a full nested outline), read, list, delete and
 * duplicate. Each takes an `AuthoringSession` inside one store transaction and returns plain data.
 */
import * as v from "valibot";
import type { CourseRow } from "../store/types.ts";
import { openCourse, roleOnCourse, type CourseRole } from "./access.ts";
import { timestamp, actorEmail, type Actor, type AuthoringSession } from "./context.ts";
import { writeAs, type AuthoringServices } from "./services.ts";
import { CourseEdit, commitCourseEdit, beginCourseEdit } from "./course-edit.ts";
import { decodeCursor, pageOf } from "./cursor.ts";
import { invalidArgument } from "./errors.ts";
import { allocatePositions } from "./ordering.ts";
import { courseDocument, courseSummary, loadCourseRows } from "./read-model.ts";
import type { CourseReadState } from "./course-rows-cache.ts";
import {
  courseFieldEntries,
  courseStatusField,
  moduleOutlineSchema,
  objectiveInputSchema,
  type CourseDocument,
  type CourseSummary,
  type ModuleOutline,
} from "./schemas/course.ts";
import { cursorField, expectedVersionField, idField, limits, pageSizeField } from "./schemas/fields.ts";
import { publicationOf, readPublishedCourse } from "./publications.ts";
import { insertModule } from "./structure.ts";
import { selectCourseParts, type CourseSelection } from "./course-pages.ts";

export const createCourseArguments = v.object({
  ...courseFieldEntries,
  objectives: v.optional(
    v.pipe(v.array(objectiveInputSchema), v.maxLength(limits.objectivesPerCourse, `must have at most ${limits.objectivesPerCourse} objectives`)),
    [],
  ),
  modules: v.optional(
    v.pipe(v.array(moduleOutlineSchema), v.maxLength(limits.modulesPerCall, `must have at most ${limits.modulesPerCall} modules per call`)),
    [],
  ),
});
export type CreateCourseArguments = v.InferOutput<typeof createCourseArguments>;

export async function createCourse(session: AuthoringSession, args: CreateCourseArguments): Promise<CourseDocument> {
  const edit = await insertDraftCourse(session, args);
  await commitCourseEdit(edit, "create_course", `Created course "${edit.course.title}"`);
  return readCourseDocument(session, edit.course, "owner", true);
}

export interface DraftCourseOptions {
  /** Runs once the course row exists, before its content (an import stores its assets here); its result rewrites each module. */
  beforeContent?: (courseId: string) => Promise<(module: ModuleOutline) => ModuleOutline>;
  /** What the objectives' keys are, for the "used twice" error (an import's keys are its source IDs). */
  keysAre?: string;
}

/**
 * A new draft course owned by the caller from a nested outline: the course row, its objectives (keys
 * resolved to new IDs) and its modules → lessons → blocks, in one `CourseEdit` the caller commits.
 * `create_course` and `import_course` both start a course here, so both check it the same way.
 */
export async function insertDraftCourse(session: AuthoringSession, outline: CreateCourseArguments, options: DraftCourseOptions = {}): Promise<CourseEdit> {
  const now = timestamp(session);
  const row: CourseRow = {
    id: session.newId("course"),
    ownerSub: session.actor.sub,
    title: outline.title,
    description: outline.description,
    language: outline.language,
    audience: outline.audience,
    level: outline.level,
    tags: outline.tags,
    numbering: outline.numbering,
    targetMinutes: outline.targetMinutes,
    theme: null,
    status: "draft",
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  const edit = new CourseEdit(session, row, "owner", true);
  await edit.insert("course", row);
  const prepared = (await options.beforeContent?.(row.id)) ?? ((module: ModuleOutline) => module);
  const keys = new Map<string, string>();
  for (const [index, objective] of outline.objectives.entries()) {
    const id = session.newId("objective");
    if (objective.key !== undefined) {
      if (keys.has(objective.key)) throw invalidArgument(`objectives[${index}].key`, `"${objective.key}" is used twice; ${options.keysAre ?? "keys"} must be unique`);
      keys.set(objective.key, id);
    }
    await edit.insert("objective", { id, courseId: row.id, position: (index + 1) * 1024, text: objective.text });
  }
  const positions = await allocatePositions(edit, "module", row.id, undefined, outline.modules.length, "modules");
  for (const [index, module] of outline.modules.entries()) {
    await insertModule(edit, prepared(module), positions[index] as number, `modules[${index}]`, keys);
  }
  return edit;
}

export const courseVariants = ["draft", "published"] as const;
export const courseVariantField = v.optional(
  v.pipe(
    v.picklist(courseVariants, "must be draft or published"),
    v.description("draft (default): the working copy you edit. published: the immutable snapshot made by the last set_status published."),
  ),
  "draft",
);

export const getCourseArguments = v.object({
  courseId: idField("course"),
  includeBlocks: v.optional(v.pipe(v.boolean(), v.description("false: the outline only (modules, lessons, block counts).")), true),
  moduleIds: v.optional(
    v.pipe(v.array(idField("module")), v.maxLength(limits.modulesPerCall), v.description("Only these modules, whole (with their lessons and blocks).")),
  ),
  lessonIds: v.optional(
    v.pipe(v.array(idField("lesson")), v.maxLength(limits.lessonsPerModule), v.description("Only these lessons (with blocks), inside their modules.")),
  ),
  cursor: v.optional(v.pipe(v.string(), v.description("nextCursor of the previous page of the same read."))),
  variant: courseVariantField,
});

export type CourseVariant = (typeof courseVariants)[number];

/** The draft (with its publication state once published) or the immutable published snapshot. */
export async function getCourse(
  session: AuthoringSession,
  args: { courseId: string; includeBlocks: boolean; variant?: CourseVariant | undefined } & CourseSelection,
  permission: "read" | "copy" = "read",
): Promise<CourseDocument> {
  const { course, role } = await openCourse(session, args.courseId, permission);
  if (args.variant === "published") return selectCourseParts(await readPublishedCourse(session, course, role, { includeBlocks: args.includeBlocks }), args);
  const state = await readCourseState(session, course);
  if (state.publication === undefined) {
    state.publication = await publicationOf(session, course, state.rows);
    session.courseRows?.setPublication(course, state.publication);
  }
  return selectCourseParts(builtDocument(state, role, args.includeBlocks), args);
}

/** The whole course as an export packages it: exporting needs the editor role or ownership, as duplicating does. */
export function getCourseForExport(session: AuthoringSession, args: { courseId: string; variant?: CourseVariant | undefined }): Promise<CourseDocument> {
  return getCourse(session, { ...args, includeBlocks: true }, "copy");
}

/** The course's rows and collaborators, from the read cache while its version stands (see course-rows-cache.ts). */
async function readCourseState(session: AuthoringSession, course: CourseRow): Promise<CourseReadState> {
  const cached = session.courseRows?.get(course);
  if (cached) return cached;
  const [rows, collaborators] = await Promise.all([loadCourseRows(session.tx, course), session.tx.listCollaborators(course.id)]);
  // `documents` is shared with the cache entry, so documents built from this state are remembered too.
  const state: CourseReadState = { rows, collaborators, ...(session.courseRows ? { documents: {} } : {}) };
  session.courseRows?.set(state);
  return state;
}

/**
 * The course document from the state's rows, with its publication summary, built once per version and
 * kind while the state is cached (every page of a paged read of a large course would otherwise rebuild
 * all of it); only `role` differs between readers. Documents are never mutated: pages and selections
 * are built as new objects, and their JSON text is kept per object (document-json.ts).
 */
function builtDocument(state: CourseReadState, role: CourseRole, includeBlocks: boolean): CourseDocument {
  const kind = includeBlocks ? "withBlocks" : "outline";
  const built = state.documents?.[kind];
  if (built) return built.role === role ? built : { ...built, role };
  const document = courseDocument(state.rows, role, state.collaborators, { includeBlocks });
  const complete = state.publication ? { ...document, publication: state.publication } : document;
  if (state.documents) state.documents[kind] = complete;
  return complete;
}

export async function readCourseDocument(session: AuthoringSession, course: CourseRow, role: CourseRole, includeBlocks: boolean): Promise<CourseDocument> {
  const state = await readCourseState(session, course);
  return courseDocument(state.rows, role, state.collaborators, { includeBlocks });
}

export const listCoursesArguments = v.object({
  status: v.optional(courseStatusField),
  search: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200, "must be at most 200 characters"), v.description("Case-insensitive text the title contains."))),
  limit: pageSizeField,
  cursor: cursorField,
});

export async function listCourses(
  session: AuthoringSession,
  args: v.InferOutput<typeof listCoursesArguments>,
): Promise<{ courses: CourseSummary[]; nextCursor: string | null }> {
  const limit = args.limit ?? 20;
  const rows = await session.tx.listCourses({
    sub: session.actor.sub,
    email: actorEmail(session.actor),
    status: args.status,
    titleContains: args.search || undefined,
    after: decodeCursor(args.cursor, "list_courses"),
    limit: limit + 1,
  });
  const page = pageOf(rows, limit);
  const courses: CourseSummary[] = [];
  for (const course of page.items) courses.push(courseSummary(course, (await roleOnCourse(session, course)) ?? "viewer"));
  return { courses, nextCursor: page.nextCursor };
}

export const deleteCourseArguments = v.object({ courseId: idField("course"), expectedVersion: expectedVersionField });

/** Deletes the course with its content, revisions and assets. Only the owner may. */
export async function deleteCourse(session: AuthoringSession, args: v.InferOutput<typeof deleteCourseArguments>): Promise<{ courseId: string; deleted: true }> {
  const edit = await beginCourseEdit(session, args.courseId, args.expectedVersion, "manage");
  await session.tx.deleteCourse(edit.course.id);
  return { courseId: edit.course.id, deleted: true };
}

/**
 * Deleting a course removes its built packages too, once the deletion has committed: a package of a
 * course that no longer exists must not stay readable until it expires.
 */
export async function deleteCourseWithPackages(
  services: AuthoringServices,
  actor: Actor,
  args: v.InferOutput<typeof deleteCourseArguments>,
): Promise<{ courseId: string; deleted: true }> {
  const result = await writeAs(services, actor, (session) => deleteCourse(session, args));
  await services.exports.deleteCourseExports(result.courseId);
  return result;
}
