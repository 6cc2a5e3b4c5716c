/**
 * MCP tools for sharing a course with collaborators and taking access back. Owner only.
 */
import * as v from "valibot";
import { writeAs, type AuthoringServices } from "../../authoring/services.ts";
import { shareCourse, shareCourseArguments, sharingResultEntries, unshareCourse, unshareCourseArguments } from "../../authoring/sharing.ts";
import { defineTool, type ToolDefinition } from "../registry.ts";

const shareCourseTool = defineTool<AuthoringServices, typeof shareCourseArguments>({
  name: "share_course",
  toolset: "sharing",
  title: "Share course",
  description:
    "Gives someone access to a course you own, by user ID (sub) or e-mail: editor (can edit), reviewer (can read and comment) or viewer (can read). " +
    "Sharing again with the same person changes their role. An e-mail share applies only to a verified e-mail (email_verified true), compared trimmed and case-insensitively. Returns the collaborator list.",
  input: shareCourseArguments,
  output: v.object(sharingResultEntries),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler(args, { user, services }) {
    const result = await writeAs(services, user, (session) => shareCourse(session, args));
    return { structuredContent: result, summary: `Shared course ${result.courseId} with ${args.sub ?? args.email} as ${args.role}.` };
  },
});

const unshareCourseTool = defineTool<AuthoringServices, typeof unshareCourseArguments>({
  name: "unshare_course",
  toolset: "sharing",
  title: "Unshare course",
  description: "Removes a collaborator's access to a course you own (by the sub or e-mail it was shared with). Returns the remaining collaborators.",
  input: unshareCourseArguments,
  output: v.object(sharingResultEntries),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async handler(args, { user, services }) {
    const result = await writeAs(services, user, (session) => unshareCourse(session, args));
    return { structuredContent: result, summary: `Course ${result.courseId} is no longer shared with ${args.sub ?? args.email}.` };
  },
});

export const sharingTools: ToolDefinition<AuthoringServices>[] = [shareCourseTool, unshareCourseTool];
