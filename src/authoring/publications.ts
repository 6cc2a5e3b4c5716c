/**
 * Published snapshots. Publishing stores the whole course document as of that version, once, and never
 * changes it: get_course `{ variant: "published" }`, previews and exports of "published" read it while
 * editing continues on the draft. A fingerprint of the content tells whether the draft has moved on
 * since, so reordering and reverting count as what they are, not as a version number going up.
 */
import { sha256Hex } from "../bytes.ts";
import type { CourseRow, JsonObject } from "../store/types.ts";
import type { CourseRole } from "./access.ts";
import { timestamp, type AuthoringSession } from "./context.ts";
import { CourseAuthoringError } from "./errors.ts";
import { estimateLessonMinutes } from "./estimate.ts";
import { blockBody, collaboratorDocuments, courseDocument, courseMinutes, loadCourseRows, type CourseRows } from "./read-model.ts";
import type { CourseDocument, LessonDocument, PublicationSummary } from "./schemas/course.ts";

/** What a snapshot keeps: the course document without the reader's role, sharing or publication state. */
export type PublishedContent = Omit<CourseDocument, "role" | "collaborators" | "publication">;

export function publishedContent(rows: CourseRows): PublishedContent {
  const { role: _role, collaborators: _collaborators, ...content } = courseDocument(rows, "owner", [], { includeBlocks: true });
  return content;
}

/** Hash of what a learner would see; bookkeeping (version, timestamps, status) is left out. */
export function contentFingerprint(content: PublishedContent): Promise<string> {
  const { version: _version, updatedAt: _updatedAt, status: _status, numbering, targetMinutes, theme, estimatedMinutes: _total, modules, ...rest } = content;
  // Settings added later count only when they differ from their defaults, and figures derived from the
  // content not at all, so snapshots taken before them still match.
  const withoutDerived = modules.map((module) => ({ ...module, lessons: module.lessons.map(({ derivedMinutes: _derived, ...lesson }) => lesson) }));
  const learnerFacing = { ...rest, modules: withoutDerived, ...(numbering === "modules" ? {} : { numbering }), ...(targetMinutes === null ? {} : { targetMinutes }), ...(theme === null ? {} : { theme }) };
  return sha256Hex(JSON.stringify(learnerFacing));
}

/** Stores the snapshot of `rows` (already at the published version and status). */
export async function recordPublication(session: AuthoringSession, rows: CourseRows): Promise<PublicationSummary> {
  const content = publishedContent(rows);
  const publishedAt = timestamp(session);
  await session.tx.insertPublication({
    courseId: rows.course.id,
    version: rows.course.version,
    publishedBy: session.actor.sub,
    publishedAt,
    contentFingerprint: await contentFingerprint(content),
    document: content as unknown as JsonObject,
  });
  return { version: rows.course.version, publishedAt, publishedBy: session.actor.sub, hasUnpublishedChanges: false };
}

/**
 * The latest publication compared with the draft, or null when the course was never published. The
 * draft's rows are read only when there is a publication to compare with and the caller has none.
 */
export async function publicationOf(session: AuthoringSession, course: CourseRow, loaded?: CourseRows): Promise<PublicationSummary | null> {
  const latest = await session.tx.latestPublication(course.id);
  if (!latest) return null;
  const rows = loaded ?? (await loadCourseRows(session.tx, course));
  return {
    version: latest.version,
    publishedAt: latest.publishedAt,
    publishedBy: latest.publishedBy,
    hasUnpublishedChanges: (await contentFingerprint(publishedContent(rows))) !== latest.contentFingerprint,
  };
}

export function neverPublished(courseId: string): CourseAuthoringError {
  return new CourseAuthoringError(
    "invalid_state",
    `Course ${courseId} has not been published yet, so it has no published variant. Read the draft (variant "draft"), or publish it with set_status { status: "published" }.`,
    { courseId },
  );
}

/** The immutable snapshot learners get, shaped like get_course's answer for the caller. */
export async function readPublishedCourse(
  session: AuthoringSession,
  course: CourseRow,
  role: CourseRole,
  options: { includeBlocks: boolean },
): Promise<CourseDocument> {
  const latest = await session.tx.latestPublication(course.id);
  const snapshot = latest && (await session.tx.findPublication(course.id, latest.version));
  if (!latest || !snapshot) throw neverPublished(course.id);
  const content = snapshot.document as unknown as PublishedContent;
  const draft = await loadCourseRows(session.tx, course);
  // Snapshots taken before numbering and the length figures existed get the defaults and derive the rest.
  const modules = content.modules.map((module) => ({ ...module, lessons: module.lessons.map(withDerivedMinutes) }));
  return {
    ...content,
    numbering: (content as Partial<PublishedContent>).numbering ?? "modules",
    targetMinutes: (content as Partial<PublishedContent>).targetMinutes ?? null,
    theme: (content as Partial<PublishedContent>).theme ?? null,
    estimatedMinutes: courseMinutes(modules),
    modules: options.includeBlocks ? modules : modules.map((module) => ({ ...module, lessons: module.lessons.map(withoutBlocks) })),
    role,
    collaborators: collaboratorDocuments(await session.tx.listCollaborators(course.id)),
    publication: {
      version: latest.version,
      publishedAt: latest.publishedAt,
      publishedBy: latest.publishedBy,
      hasUnpublishedChanges: (await contentFingerprint(publishedContent(draft))) !== latest.contentFingerprint,
    },
  };
}

function withDerivedMinutes(lesson: LessonDocument): LessonDocument {
  if (typeof (lesson as Partial<LessonDocument>).derivedMinutes === "number") return lesson;
  const blocks = (lesson.blocks ?? []).map((block) => ({ type: block.type, body: blockBody(block) }));
  return { ...lesson, derivedMinutes: estimateLessonMinutes(blocks, { kind: lesson.kind, drawCount: lesson.drawCount ?? null }) };
}

function withoutBlocks<Lesson extends { blocks?: unknown }>(lesson: Lesson): Omit<Lesson, "blocks"> {
  const { blocks: _blocks, ...rest } = lesson;
  return rest;
}
