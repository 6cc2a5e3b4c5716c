/**
 * The status workflow. draft ⇄ in_review; draft or in_review → published once validation finds no
 * errors; published → published publishes the draft's changes again; anything → archived and
 * archived → draft are the owner's. Editors and owners move a course through review and publish it;
 * reviewers and viewers never change status. Each change is a revision. Publishing stores an
 * immutable snapshot; editing continues on the draft while the status stays published, and
 * `publication.hasUnpublishedChanges` says when the draft has moved on.
 */
import * as v from "valibot";
import { openCourse, roleAllows, type Permission } from "../authoring/access.ts";
import type { AuthoringSession } from "../authoring/context.ts";
import { CourseEdit, commitCourseEdit } from "../authoring/course-edit.ts";
import { forbidden, staleVersion, CourseAuthoringError } from "../authoring/errors.ts";
import { publicationOf, recordPublication } from "../authoring/publications.ts";
import { loadCourseRows } from "../authoring/read-model.ts";
import { assetIdsOfRows, assetsUsedBy } from "../authoring/asset-access.ts";
import { courseStatusField, publicationSchema } from "../authoring/schemas/course.ts";
import { expectedVersionField, idField } from "../authoring/schemas/fields.ts";
import type { CourseStatus } from "../store/types.ts";
import { countBySeverity, findingLine, validateCourseRows, type Finding } from "./validation/index.ts";

/** Who may move a course from one status to another; a pair not listed is not a transition. */
const transitions: Record<CourseStatus, Partial<Record<CourseStatus, Exclude<Permission, "read" | "comment" | "copy">>>> = {
  draft: { draft: "edit", in_review: "edit", published: "edit", archived: "manage" },
  in_review: { in_review: "edit", draft: "edit", published: "edit", archived: "manage" },
  published: { published: "edit", archived: "manage" },
  archived: { archived: "manage", draft: "manage" },
};

const whoMay = { edit: "editor or owner", manage: "owner only" } as const;

export const setStatusArguments = v.object({
  courseId: idField("course"),
  status: courseStatusField,
  expectedVersion: expectedVersionField,
});

export const setStatusResultEntries = {
  courseId: v.string(),
  previousStatus: courseStatusField,
  status: courseStatusField,
  version: v.number(),
  changed: v.pipe(v.boolean(), v.description("False when the course already had this status (and, for published, nothing new to publish).")),
  publication: v.nullable(publicationSchema),
  warnings: v.pipe(v.number(), v.description("Warning findings when publishing (they do not block it); 0 otherwise.")),
  openComments: v.number(),
};

export type SetStatusResult = v.InferOutput<v.ObjectSchema<typeof setStatusResultEntries, undefined>>;

export async function setStatus(session: AuthoringSession, args: v.InferOutput<typeof setStatusArguments>): Promise<SetStatusResult> {
  const { course, role } = await openCourse(session, args.courseId, "read");
  if (!roleAllows(role, "edit")) {
    throw forbidden(
      `You are a ${role} of course ${course.id}; only editors and the owner change its status (the owner alone archives). Reviewers can leave comments with add_comment.`,
    );
  }
  if (args.expectedVersion !== undefined && args.expectedVersion !== course.version) throw staleVersion(args.expectedVersion, course.version);
  const needed = transitions[course.status][args.status];
  if (needed === undefined) throw notATransition(course.id, course.status, args.status);
  if (!roleAllows(role, needed)) {
    throw forbidden(`You are a ${role} of course ${course.id}; moving it from ${course.status} to ${args.status} is for the owner only.`);
  }
  const edit = new CourseEdit(session, course, role);
  if (args.status === "published") return publish(edit);
  const openComments = (await session.tx.countComments(course.id)).open;
  if (course.status !== args.status) {
    await edit.update("course", course, { status: args.status });
    await commitCourseEdit(edit, "set_status", `Status ${course.status} → ${args.status}`);
  }
  return {
    courseId: course.id,
    previousStatus: course.status,
    status: edit.course.status,
    version: edit.course.version,
    changed: course.status !== args.status,
    publication: await publicationOf(session, edit.course),
    warnings: 0,
    openComments,
  };
}

/** Validates, then records the status change and the snapshot; refuses while any error finding remains. */
async function publish(edit: CourseEdit): Promise<SetStatusResult> {
  const { session, course } = edit;
  const [rows, comments] = await Promise.all([loadCourseRows(session.tx, course), session.tx.countComments(course.id)]);
  const assets = await assetsUsedBy(session.tx, course.id, assetIdsOfRows(rows));
  const findings = validateCourseRows(rows, assets);
  const counts = countBySeverity(findings);
  if (counts.error > 0) throw publishingBlocked(course.id, findings.filter((finding) => finding.severity === "error"));
  const unchanged = { courseId: course.id, previousStatus: course.status, status: course.status, version: course.version, changed: false, warnings: counts.warning, openComments: comments.open };
  if (course.status === "published") {
    const latest = await publicationOf(session, course, rows);
    if (latest && !latest.hasUnpublishedChanges) return { ...unchanged, publication: latest };
  }
  await edit.update("course", course, { status: "published" });
  const summary = course.status === "published" ? "Republished the course with the draft's changes" : `Published the course (was ${course.status})`;
  await commitCourseEdit(edit, "set_status", summary, { always: true });
  const publication = await recordPublication(session, { ...rows, course: edit.course });
  return { ...unchanged, status: "published", version: edit.course.version, changed: true, publication };
}

function notATransition(courseId: string, from: CourseStatus, to: CourseStatus): CourseAuthoringError {
  const next = Object.entries(transitions[from])
    .filter(([status]) => status !== from)
    .map(([status, permission]) => `${status} (${whoMay[permission]})`);
  const why = from === "published" ? " A published course stays published while you edit its draft; publish the changes with status published, or archive it." : "";
  return new CourseAuthoringError("invalid_state", `Course ${courseId} is ${from} and cannot move to ${to}.${why} From ${from} it can move to: ${next.join(", ")}.`, {
    courseId,
    status: from,
    allowedStatuses: Object.keys(transitions[from]).filter((status) => status !== from),
  });
}

const findingsInMessage = 10;

function publishingBlocked(courseId: string, errors: readonly Finding[]): CourseAuthoringError {
  const lines = errors.slice(0, findingsInMessage).map((finding) => `- ${findingLine(finding)} Fix: ${finding.fix}`);
  const more = errors.length > findingsInMessage ? `\n…and ${errors.length - findingsInMessage} more (validate_course lists them all).` : "";
  return new CourseAuthoringError(
    "invalid_state",
    `Course ${courseId} cannot be published: ${errors.length} error finding(s) block it.\n${lines.join("\n")}${more}\nFix them, check with validate_course, then call set_status published again.`,
    {
      courseId,
      errorCount: errors.length,
      blockingFindings: errors.slice(0, 100).map((finding) => ({ ruleId: finding.ruleId, location: finding.location, message: finding.message, fix: finding.fix })),
    },
  );
}
