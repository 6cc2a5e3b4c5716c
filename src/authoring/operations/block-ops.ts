/**
 * Block operations: add several at a position, change one (replace it whole or merge some fields),
 * move one (also to another lesson of the same course), remove one. Each touches only the rows it
 * names, so its cost does not grow with the size of the course.
 */
import * as v from "valibot";
import { allocatePositions } from "../ordering.ts";
import { describeIssues } from "../../course-authoring-error.ts";
import { describeUnknownArguments, findUnknownArguments } from "../../unknown-arguments.ts";
import { CourseAuthoringError, invalidArgument } from "../errors.ts";
import { blockBody, blockDocument } from "../read-model.ts";
import { blockSchema, storedBlockSchema, type Block, type BlockContent } from "../schemas/blocks.ts";
import { idField, limits, positionField } from "../schemas/fields.ts";
import { insertBlocks, prepareBlock } from "../structure.ts";
import { checkCaptionLanguages } from "../references.ts";
import { defineOperation, findInCourse } from "./operation.ts";

export const addBlocks = defineOperation({
  name: "add_blocks",
  arguments: v.object({
    lessonId: idField("lesson"),
    blocks: v.pipe(
      v.array(blockSchema),
      v.minLength(1, "must have at least 1 block"),
      v.maxLength(limits.blocksPerCall, `must have at most ${limits.blocksPerCall} blocks per call`),
    ),
    position: positionField,
  }),
  result: { lessonId: v.string(), blocks: v.pipe(v.array(storedBlockSchema), v.description("The new blocks' IDs and types, in order (not an echo of their content).")) },
  async apply(edit, args) {
    const lesson = await findInCourse(edit, "lesson", args.lessonId, "lessonId");
    for (const [index, block] of args.blocks.entries()) await checkCaptionLanguages(edit, block, `blocks[${index}]`);
    const rows = await insertBlocks(edit, lesson.id, args.blocks, args.position, "blocks");
    return {
      result: { lessonId: lesson.id, blocks: rows.map((row) => ({ id: row.id, type: row.type })) },
      summary: `Added ${rows.length} block(s) to lesson ${lesson.id}: ${rows.slice(0, 10).map((row) => `${row.id} (${row.type})`).join(", ")}${rows.length > 10 ? ", …" : ""}`,
    };
  },
});

export const updateBlock = defineOperation({
  name: "update_block",
  arguments: v.object({
    blockId: idField("block"),
    // The bare union, so the listing refers to the one shared Block definition instead of spelling it out.
    block: v.optional(blockSchema),
    changes: v.optional(
      v.pipe(
        v.looseObject({}),
        v.description("Just the fields to change (type too); each replaces the stored value (a list whole), null removes it. The merged block must be valid."),
      ),
    ),
  }),
  result: { block: storedBlockSchema },
  async apply(edit, args) {
    if ((args.block === undefined) === (args.changes === undefined)) {
      throw invalidArgument("changes", "pass exactly one of changes (only the fields to change) or block (the complete new block)");
    }
    const current = await findInCourse(edit, "block", args.blockId, "blockId");
    const [content, field] = args.changes ? [mergedBlock(blockDocument(current), args.changes), "changes"] : [args.block as BlockContent, "block"];
    await checkCaptionLanguages(edit, content, field);
    const prepared = await prepareBlock(edit, content, field);
    const block = await edit.update("block", current, { type: prepared.type, body: blockBody(prepared) });
    return { result: { block: blockDocument(block) }, summary: `Updated block ${block.id} (${block.type})` };
  },
});

/**
 * The stored block with `changes` laid over it, validated as a whole block. Each changed field replaces
 * the stored value (a list such as choices whole, never item by item) and null removes a field, since no
 * block field takes null. A new type keeps only the stored fields that type also has (a single_choice
 * becomes a multiple_choice with the same prompt and choices). Unknown names and invalid values are
 * named as `changes.<field>`, and nothing is written.
 */
function mergedBlock(stored: Block, changes: Record<string, unknown>): BlockContent {
  if (Object.keys(changes).length === 0) throw invalidArgument("changes", "names no field; give the fields to change, e.g. { markdown: \"…\" }");
  const { id: _id, ...content } = stored as Block & Record<string, unknown>;
  const type = changes.type ?? stored.type;
  const fieldsOfType = blockFieldNames(type);
  const unknown = findUnknownArguments(blockSchema, { ...changes, type }).map((item) => ({ ...item, path: `changes.${item.path}` }));
  if (unknown.length > 0) {
    throw new CourseAuthoringError("invalid_arguments", describeUnknownArguments(unknown), { fields: unknown.map((item) => item.path), unknownArguments: unknown });
  }
  const merged: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(content)) if (fieldsOfType?.has(name) ?? true) merged[name] = value;
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) delete merged[name];
    else merged[name] = value;
  }
  const parsed = v.safeParse(blockSchema, merged);
  if (!parsed.success) {
    const fields = describeIssues(parsed.issues).fields.map((issue) => ({ path: issue.path === "(arguments)" ? "changes" : `changes.${issue.path}`, message: issue.message }));
    throw new CourseAuthoringError("invalid_arguments", fields.map((issue) => `${issue.path}: ${issue.message}`).join("; "), { fields });
  }
  return parsed.output;
}

/** The field names of a block type; undefined for a type that does not exist (the schema then names it). */
function blockFieldNames(type: unknown): Set<string> | undefined {
  const option = blockSchema.options.find((candidate) => ("pipe" in candidate ? candidate.pipe[0] : candidate).entries.type.literal === type);
  return option && new Set(Object.keys(("pipe" in option ? option.pipe[0] : option).entries));
}

export const moveBlock = defineOperation({
  name: "move_block",
  arguments: v.object({
    blockId: idField("block"),
    toLessonId: v.optional(v.pipe(idField("lesson"), v.description("Lesson of the same course to move it to; omit to stay in the current lesson."))),
    position: positionField,
  }),
  result: { block: v.object({ id: v.string(), type: v.string(), lessonId: v.string() }) },
  async apply(edit, args) {
    const current = await findInCourse(edit, "block", args.blockId, "blockId");
    const target = args.toLessonId ? await findInCourse(edit, "lesson", args.toLessonId, "toLessonId") : undefined;
    const lessonId = target?.id ?? current.lessonId;
    const sameLesson = lessonId === current.lessonId;
    const [position] = await allocatePositions(edit, "block", lessonId, args.position, 1, "position", sameLesson ? current.id : undefined);
    const block = await edit.update("block", current, { lessonId, position });
    return {
      result: { block: { id: block.id, type: block.type, lessonId } },
      summary: `Moved block ${block.id} to lesson ${lessonId}${args.position === undefined ? "" : ` position ${args.position}`}`,
    };
  },
});

export const removeBlock = defineOperation({
  name: "remove_block",
  arguments: v.object({ blockId: idField("block") }),
  result: { removed: v.object({ blockId: v.string(), lessonId: v.string() }) },
  async apply(edit, args) {
    const block = await findInCourse(edit, "block", args.blockId, "blockId");
    await edit.remove("block", block);
    return { result: { removed: { blockId: block.id, lessonId: block.lessonId } }, summary: `Removed block ${block.id} (${block.type})` };
  },
});

export const blockOperations = [addBlocks, updateBlock, moveBlock, removeBlock];
