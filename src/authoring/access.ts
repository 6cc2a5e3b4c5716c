/**
 * Who may do what with a course. The owner may do everything; an editor edits, and may copy the course
 * (duplicate or export it); a reviewer reads and comments; a viewer reads. Previewing is reading. Anyone else is told the course does not exist, in exactly the words used
 * for a course that really does not exist.
 */
import type { CourseRow } from "../store/types.ts";
import { actorEmail, type AuthoringSession } from "./context.ts";
import { forbidden, notFound } from "./errors.ts";

import type { CourseRole } from "./course-role.ts";

export type { CourseRole };
/** `copy`: take the content out as a new course or a package (duplicate_course, export_course). */
export type Permission = "read" | "comment" | "copy" | "edit" | "manage";

const grants: Record<CourseRole, readonly Permission[]> = {
  owner: ["read", "comment", "copy", "edit", "manage"],
  editor: ["read", "comment", "copy", "edit"],
  reviewer: ["read", "comment"],
  viewer: ["read"],
};

const strength: Record<CourseRole, number> = { owner: 3, editor: 2, reviewer: 1, viewer: 0 };

export function roleAllows(role: CourseRole, permission: Permission): boolean {
  return grants[role].includes(permission);
}

/** The caller's strongest role on the course, or null when it is not theirs to see. */
export async function roleOnCourse(session: AuthoringSession, course: CourseRow): Promise<CourseRole | null> {
  if (course.ownerSub === session.actor.sub) return "owner";
  const roles = await session.tx.rolesOf(course.id, session.actor.sub, actorEmail(session.actor));
  return roles.reduce<CourseRole | null>((best, role) => (best === null || strength[role] > strength[best] ? role : best), null);
}

/** Loads a course the caller may act on, or fails with `not_found` / `forbidden`. */
export async function openCourse(
  session: AuthoringSession,
  courseId: string,
  permission: Permission,
): Promise<{ course: CourseRow; role: CourseRole }> {
  const course = await session.tx.find("course", courseId);
  const role = course ? await roleOnCourse(session, course) : null;
  if (!course || role === null) throw notFound("course", courseId);
  if (!roleAllows(role, permission)) throw forbidden(deniedMessage(courseId, role, permission));
  return { course, role };
}

function deniedMessage(courseId: string, role: CourseRole, permission: Permission): string {
  const needed = {
    manage: "only the owner can do this",
    edit: "changing it needs the editor role",
    copy: "duplicating or exporting it needs the editor role",
    comment: "commenting needs the reviewer role",
    read: "reading it needs a role on it",
  }[permission];
  return `You are a ${role} of course ${courseId}; ${needed}. Ask the course owner for access.`;
}
