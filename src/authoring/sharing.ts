/**
 * Sharing a course: the owner grants a collaborator (by `sub`, or by e-mail for someone who has not
 * signed in yet) the role editor, reviewer or viewer, and can take it away. Each change is a revision
 * so the history shows who opened the course to whom.
 */
import * as v from "valibot";
import { collaboratorRoles, type CollaboratorRow } from "../store/types.ts";
import type { AuthoringSession } from "./context.ts";
import { timestamp } from "./context.ts";
import { beginCourseEdit, commitCourseEdit } from "./course-edit.ts";
import { invalidArgument, notFound } from "./errors.ts";
import { collaboratorSchema } from "./schemas/course.ts";
import { expectedVersionField, idField } from "./schemas/fields.ts";

const principalEntries = {
  courseId: idField("course"),
  expectedVersion: expectedVersionField,
  sub: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty("must not be empty"), v.maxLength(255), v.description("The collaborator's user ID (token sub)."))),
  email: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.email("must be an e-mail address"),
      v.maxLength(320),
      v.toLowerCase(),
      v.description("The collaborator's e-mail. It matches a token whose email, trimmed and lower-cased, is the same and whose email_verified claim is true."),
    ),
  ),
};

export const shareCourseArguments = v.object({
  ...principalEntries,
  role: v.picklist(collaboratorRoles, "must be editor (can edit), reviewer (can read and comment) or viewer (can read)"),
});
export const unshareCourseArguments = v.object(principalEntries);

export const sharingResultEntries = {
  courseId: v.string(),
  version: v.number(),
  collaborators: v.array(collaboratorSchema),
};

type Principal = Pick<CollaboratorRow, "principalKind" | "principal">;

function principalOf(args: { sub?: string | undefined; email?: string | undefined }): Principal {
  if ((args.sub === undefined) === (args.email === undefined)) throw invalidArgument("sub", "give exactly one of sub or email");
  return args.sub !== undefined ? { principalKind: "sub", principal: args.sub } : { principalKind: "email", principal: args.email as string };
}

async function collaboratorList(session: AuthoringSession, courseId: string) {
  return (await session.tx.listCollaborators(courseId)).map((row) =>
    row.principalKind === "sub" ? { sub: row.principal, role: row.role } : { email: row.principal, role: row.role },
  );
}

export async function shareCourse(session: AuthoringSession, args: v.InferOutput<typeof shareCourseArguments>) {
  const principal = principalOf(args);
  const edit = await beginCourseEdit(session, args.courseId, args.expectedVersion, "manage");
  if (principal.principalKind === "sub" && principal.principal === edit.course.ownerSub) {
    throw invalidArgument("sub", "is the course owner, who already has every right");
  }
  await session.tx.putCollaborator({ courseId: edit.course.id, ...principal, role: args.role, addedBy: session.actor.sub, addedAt: timestamp(session) });
  const committed = await commitCourseEdit(edit, "share_course", `Shared with ${principal.principalKind} ${principal.principal} as ${args.role}`, { always: true });
  return { courseId: edit.course.id, version: committed.version, collaborators: await collaboratorList(session, edit.course.id) };
}

export async function unshareCourse(session: AuthoringSession, args: v.InferOutput<typeof unshareCourseArguments>) {
  const principal = principalOf(args);
  const edit = await beginCourseEdit(session, args.courseId, args.expectedVersion, "manage");
  const removed = await session.tx.removeCollaborator(edit.course.id, principal.principalKind, principal.principal);
  if (!removed) throw notFound("collaborator", principal.principal, principal.principalKind);
  const committed = await commitCourseEdit(edit, "unshare_course", `Stopped sharing with ${principal.principalKind} ${principal.principal}`, { always: true });
  return { courseId: edit.course.id, version: committed.version, collaborators: await collaboratorList(session, edit.course.id) };
}
