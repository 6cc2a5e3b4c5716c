/**
 * MCP tools for course history: list revisions, read the course as of a revision, and restore one
 * (as a new revision, so nothing is lost).
 */
import * as v from "valibot";
import {
  getRevision,
  getRevisionArguments,
  listRevisions,
  listRevisionsArguments,
  restoreRevision,
  restoreRevisionArguments,
  revisionSummarySchema,
} from "../../authoring/revisions.ts";
import { coursePageSchema } from "./course-tools.ts";
import { readAs, writeAs, type AuthoringServices } from "../../authoring/services.ts";
import { defineTool, type ToolDefinition } from "../registry.ts";
import { confirmField } from "../confirmations.ts";
import { getCourse } from "../../authoring/courses.ts";

const listRevisionsTool = defineTool<AuthoringServices, typeof listRevisionsArguments>({
  name: "list_revisions",
  toolset: "history",
  title: "List revisions",
  description:
    "Lists a course's history, newest first: each revision's id, the version it produced, who (actorSub), which tool, when, a one-line summary and how many rows changed. " +
    "Paged with nextCursor. Use get_revision to see the course as of a revision.",
  input: listRevisionsArguments,
  output: v.object({ courseId: v.string(), revisions: v.array(revisionSummarySchema), nextCursor: v.nullable(v.string()) }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async handler(args, { user, services }) {
    const page = await readAs(services, user, (session) => listRevisions(session, args));
    const lines = page.revisions.map((revision) => `v${revision.version} ${revision.tool} by ${revision.actorSub}: ${revision.summary}`);
    return { structuredContent: page, summary: `${page.revisions.length} revision(s) of ${page.courseId}:\n${lines.join("\n")}` };
  },
});

const getRevisionTool = defineTool<AuthoringServices, typeof getRevisionArguments>({
  name: "get_revision",
  toolset: "history",
  title: "Get revision",
  description:
    "Returns the whole course exactly as it was right after a revision (same shape as get_course), plus the revision's details; includeChanges adds the rows it changed.",
  input: getRevisionArguments,
  output: v.object({ revision: v.looseObject(revisionSummarySchema.entries), course: coursePageSchema }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async handler(args, { user, services }) {
    const result = await readAs(services, user, (session) => getRevision(session, args));
    return {
      structuredContent: result,
      summary: `Course ${result.course.id} as of version ${result.revision.version} (${result.revision.tool} by ${result.revision.actorSub}, ${result.revision.createdAt}).`,
    };
  },
});

const restoreRevisionInput = v.object({ ...restoreRevisionArguments.entries, confirm: confirmField });

const restoreRevisionTool = defineTool<AuthoringServices, typeof restoreRevisionInput>({
  name: "restore_revision",
  toolset: "history",
  title: "Restore revision",
  description:
    "Makes the course's content (fields, objectives, modules, lessons, blocks) what it was right after the given revision, recorded as a new revision so it can itself be undone. " +
    "Status and sharing are not changed. Returns the new version and the restored outline. Pass expectedVersion to be sure nobody changed the course meanwhile.",
  input: restoreRevisionInput,
  async confirm(args, { user, services }) {
    const { revision, course } = await readAs(services, user, (session) =>
      getRevision(session, { courseId: args.courseId, revisionId: args.revisionId, includeBlocks: false, includeChanges: false }),
    );
    const current = await readAs(services, user, (session) => getCourse(session, { courseId: args.courseId, includeBlocks: false }));
    if (current.version === revision.version) return undefined;
    return `Restore course "${course.title}" (${course.id}) to version ${revision.version}? Every change to its content since then (it is at version ${current.version}) will be replaced; the restore can itself be undone from the history.`;
  },
  output: v.object({ courseId: v.string(), version: v.number(), restoredVersion: v.number(), changeCount: v.number(), course: coursePageSchema }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async handler(args, { user, services }) {
    const result = await writeAs(services, user, (session) => restoreRevision(session, args));
    return {
      structuredContent: result,
      summary: `Restored course ${result.courseId} to its state at version ${result.restoredVersion} (${result.changeCount} row change(s)); it is now at version ${result.version}.`,
    };
  },
});

export const historyTools: ToolDefinition<AuthoringServices>[] = [listRevisionsTool, getRevisionTool, restoreRevisionTool];
