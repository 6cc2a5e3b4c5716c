/** A user's role on a course: its owner, or the role a collaborator was given. */
import type { CollaboratorRole } from "../store/types.ts";

export type CourseRole = "owner" | CollaboratorRole;
