/**
 * Block operations: add several at a position, replace one, move one (also to another lesson of the
 * same course), remove one. Each touches only the rows it names, so its cost does not grow with the
 * size of the course.
 */
import * as v from "valibot";
import { allocatePositions } from "../ordering.ts";
import { blockBody, blockDocument } from "../read-model.ts";
import { blockSchema, storedBlockSchema } from "../schemas/blocks.ts";
import { idField, limits, positionField } from "../schemas/fields.ts";
import { insertBlocks, prepareBlock } from "../structure.ts";
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
    block: blockSchema,
  }),
  result: { block: storedBlockSchema },
  async apply(edit, args) {
    const current = await findInCourse(edit, "block", args.blockId, "blockId");
    const prepared = await prepareBlock(edit, args.block, "block");
    const block = await edit.update("block", current, { type: prepared.type, body: blockBody(prepared) });
    return { result: { block: blockDocument(block) }, summary: `Updated block ${block.id} (${block.type})` };
  },
});

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
