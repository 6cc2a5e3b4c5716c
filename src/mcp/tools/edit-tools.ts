/**
 * MCP tools for editing a course: one tool per course operation (update_course, set_objectives,
 * add/update/move/remove for modules, lessons and blocks) plus `edit_course`, the atomic batch of the
 * same operations. The model-facing text and hints live here; the behaviour lives in the domain.
 */
import * as v from "valibot";
import { editCourse, editCourseArguments, editCourseResultEntries } from "../../authoring/batch.ts";
import { courseEditOperations, runOperation } from "../../authoring/operations/index.ts";
import type { CourseOperation, OperationArguments } from "../../authoring/operations/operation.ts";
import { expectedVersionField, idField } from "../../authoring/schemas/fields.ts";
import { readAs, writeAs, type AuthoringServices } from "../../authoring/services.ts";
import { getCourse } from "../../authoring/courses.ts";
import { confirmField } from "../confirmations.ts";
import { defineTool, type ToolDefinition } from "../registry.ts";
import type { ToolAnnotations } from "@modelcontextprotocol/server";

interface ToolText {
  title: string;
  description: string;
  annotations?: Omit<ToolAnnotations, "title">;
  /** Takes blocks but lists only a pointer to add_blocks' Block definition, which the same toolset lists. */
  briefBlocks?: true;
}

// expectedVersion's own description says what it guards, in every write's input schema.
const writeNotes = " Returns the changed entity and the course's new version.";
const removal: Omit<ToolAnnotations, "title"> = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false };

const toolTexts: Record<string, ToolText> = {
  update_course: {
    title: "Update course",
    description: "Changes a course's title, description, language (BCP 47), audience, level or tags. Only the fields you give change.",
    annotations: { idempotentHint: true },
  },
  set_objectives: {
    title: "Set learning objectives",
    description:
      "Replaces the course's ordered list of learning objectives. Keep an objective by including its id (you may change its text); add one by giving text only. " +
      "Objectives you leave out are deleted and unlinked from modules and questions.",
    // Leaving an objective out deletes it and unlinks it everywhere: a removal, so hosts confirm it.
    annotations: { idempotentHint: true, destructiveHint: true },
  },
  add_module: {
    title: "Add module",
    description: "Adds a module to a course at position (0-based; default: last), optionally with its lessons and their blocks in the same call.",
    briefBlocks: true,
  },
  update_module: {
    title: "Update module",
    description: "Changes a module's title, summary or objectiveIds (IDs of course objectives). Only the fields you give change.",
    annotations: { idempotentHint: true },
  },
  move_module: { title: "Move module", description: "Moves a module to another 0-based position among the course's modules.", annotations: { idempotentHint: true } },
  remove_module: { title: "Remove module", description: "Removes a module with all its lessons and blocks. It can be brought back with restore_revision.", annotations: removal },
  add_lesson: {
    title: "Add lesson",
    description:
      "Adds a lesson to a module at position (default: last), optionally with blocks. kind is content (default) or quiz; a quiz has passingScore (0-100, default 80) " +
      "and maxAttempts (null = unlimited), plus pool and feedback settings. estimatedMinutes is derived from the content unless you set it.",
    briefBlocks: true,
  },
  update_lesson: {
    title: "Update lesson",
    description:
      "Changes a lesson's title, kind, estimatedMinutes (null to derive it from content again) or quiz settings. Switching to content clears quiz settings.",
    annotations: { idempotentHint: true },
  },
  move_lesson: {
    title: "Move lesson",
    description: "Moves a lesson to another position in its module, or to another module of the same course (toModuleId).",
  },
  remove_lesson: { title: "Remove lesson", description: "Removes a lesson with all its blocks. It can be brought back with restore_revision.", annotations: removal },
  add_blocks: {
    title: "Add blocks",
    description:
      "Adds one or more blocks to a lesson, in order, at position (0-based; default: the end). Block types: text (Markdown), heading (level 2-4), image (assetId or url; alt unless decorative), " +
      "video/audio (assetId or url; captions or transcript), callout, quote, code, divider, accordion, tabs, flashcards, and questions single_choice, multiple_choice, " +
      "true_false, fill_in_blank ({{1}} placeholders), matching, ordering — each question with points, feedback per answer, explanation and objectiveIds. Returns the blocks with their IDs.",
  },
  update_block: {
    title: "Update block",
    description: "Changes a block, keeping its ID and position: pass changes (just the fields to change) or block (the complete new block).",
    annotations: { idempotentHint: true },
    briefBlocks: true,
  },
  move_block: {
    title: "Move block",
    description: "Moves a block to another position in its lesson, or to another lesson of the same course (toLessonId).",
  },
  remove_block: { title: "Remove block", description: "Removes one block. It can be brought back with restore_revision.", annotations: removal },
};

/** What a removal that takes more than itself would lose, asked before it runs (confirmations.ts). */
const questions: Record<string, NonNullable<ToolDefinition<AuthoringServices>["confirm"]>> = {
  async remove_module(args, { user, services }) {
    const { courseId, moduleId } = args as { courseId: string; moduleId: string };
    const course = await readAs(services, user, (session) => getCourse(session, { courseId, includeBlocks: false }));
    const module = course.modules.find((candidate) => candidate.id === moduleId);
    // One that is not there is answered by the call itself.
    if (!module) return undefined;
    const blocks = module.lessons.reduce((sum, lesson) => sum + (lesson.blocks?.length ?? lesson.blockCount), 0);
    return `Remove module "${module.title}" (${module.id}) from course "${course.title}"? Its ${module.lessons.length} lesson(s) and ${blocks} block(s) go with it (restore_revision can bring them back).`;
  },
};

function operationTool(operation: CourseOperation<OperationArguments>): ToolDefinition<AuthoringServices> {
  const text = toolTexts[operation.name];
  if (!text) throw new Error(`no tool text for ${operation.name}`);
  const question = questions[operation.name];
  const entries = { courseId: idField("course"), expectedVersion: expectedVersionField, ...operation.arguments.entries };
  const input = question ? v.object({ ...entries, confirm: confirmField }) : v.object(entries);
  return defineTool<AuthoringServices, typeof input>({
    name: operation.name,
    toolset: "edits",
    title: text.title,
    description: text.description + writeNotes,
    input,
    output: v.object({ courseId: v.string(), version: v.number(), ...operation.result }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false, ...text.annotations },
    ...(text.briefBlocks ? { briefDefinitions: ["Block"] } : {}),
    ...(question ? { confirm: question } : {}),
    async handler(args, { user, services }) {
      const applied = await writeAs(services, user, (session) => runOperation(session, operation, args));
      return { structuredContent: applied.structured, summary: applied.summary };
    },
  });
}

/**
 * A batch that contains a step the single tool would ask about asks the same, once for the whole batch:
 * every such step's loss, named in order. Nothing of the batch is written until it is confirmed.
 */
const editCourseQuestion: NonNullable<ToolDefinition<AuthoringServices>["confirm"]> = async (args, context) => {
  const { courseId, operations } = args as { courseId: string; operations: ({ op: string } & Record<string, unknown>)[] };
  const losses: string[] = [];
  for (const [index, step] of operations.entries()) {
    const question = questions[step.op];
    if (!question) continue;
    const { op: _op, ...stepArgs } = step;
    const asked = await question({ ...stepArgs, courseId }, context);
    if (asked !== undefined) losses.push(`operations[${index}]: ${asked}`);
  }
  if (losses.length === 0) return undefined;
  return `This batch of ${operations.length} edit(s) loses content. ${losses.join(" ")} All of the batch applies, or none of it.`;
};

const editCourseInput = v.object({ ...editCourseArguments.entries, confirm: confirmField });

const editCourseTool = defineTool<AuthoringServices, typeof editCourseInput>({
  name: "edit_course",
  toolset: "courses",
  title: "Edit course (batch)",
  description:
    "Applies an ordered list of edits to one course atomically, as one revision: either all apply or none does. Each step is { op: <tool name>, ...that tool's arguments " +
    "without courseId and expectedVersion }; the EditStep definition lists the ops. A failing step's error names its index (operations[4]). Steps see earlier steps' results, but new IDs are not known in advance, so add then edit in separate calls." +
    writeNotes,
  input: editCourseInput,
  output: v.object(editCourseResultEntries),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  confirm: editCourseQuestion,
  async handler({ confirm: _confirm, ...args }, { user, services }) {
    const applied = await writeAs(services, user, (session) => editCourse(session, args));
    return { structuredContent: applied.structured, summary: applied.summary };
  },
});

export const editTools: ToolDefinition<AuthoringServices>[] = [...courseEditOperations.map(operationTool), editCourseTool];
