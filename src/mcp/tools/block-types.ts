/**
 * The one place that teaches the block types. `tools/list` carries them as a compact `Block`
 * definition (one signature per type, derived from the valibot schemas that validate them) in each
 * tool that takes blocks; `describe_blocks` returns the full JSON Schema of the types an agent asks
 * about. Both come from `blockSchema`, so neither can drift from what the server accepts.
 */
import * as v from "valibot";
import { toJsonSchema } from "@valibot/to-json-schema";
import { batchStepSchema } from "../../authoring/batch.ts";
import { courseEditOperations } from "../../authoring/operations/index.ts";
import { blockExamples } from "../../authoring/schemas/block-examples.ts";
import { blockSchema, blockTypes, type BlockType } from "../../authoring/schemas/blocks.ts";
import { pictureSchema } from "../../authoring/schemas/picture.ts";
import { isQuestionType, questionEntries } from "../../authoring/schemas/question-blocks.ts";
import type { AuthoringServices } from "../../authoring/services.ts";
import { defineTool, type SharedDefinitions, type ToolDefinition } from "../registry.ts";
import { objectSignature, variantSignatures } from "../schema-signature.ts";

const blockNames = new Map<v.GenericSchema, string>([[blockSchema, "Block"]]);

/** The cross-field rules the signatures cannot show; the valibot checks enforce them and name the field. */
const blockRules =
  "Rules: media (image, video, audio, captions, poster, Pic) take exactly one of assetId (from upload_asset) or url; image needs alt unless decorative:true; " +
  "video/audio need captions or transcript; single_choice: exactly one choice correct:true, multiple_choice: at least one; " +
  "fill_in_blank text holds {{1}}, {{2}}… once each, one per blank; matching left items differ; ordering items in the correct order; sorting item category = a category title; " +
  "scenario: scene ids a-z0-9_-, each scene has choices (next: a scene id) or ending, all reachable from startSceneId and reaching an ending; labeled_graphic x,y in percent. " +
  "numeric: value (tolerance, absolute or percent) or min and max. hotspot regions and drag_onto_image zones: picture pixels inside image width×height, polygon 3+ points, at most 50; " +
  "hotspot: at least one region correct:true; label zone = a zone id, one label per zone. inline_choice text holds {{1}}… one per gap, each gap 2+ choices, exactly one correct. " +
  "open_response and likert are never scored (likert has no points; scale 3–7 labels). " +
  "Questions: points default 1, objectiveIds name course objectives (create_course also takes their keys or exact text).";

/** Fields every question shares, printed once instead of in each question's signature. */
const sharedQuestionFields = Object.keys(questionEntries);

/**
 * `type{fields}` per block type; pictures print as `Pic`, questions leave out the fields every question
 * has, and types with the same fields print once (`single_choice,multiple_choice{…}`).
 */
function blockSignatures(): string[] {
  const names = new Map<v.GenericSchema, string>([[pictureSchema.pipe[0], "Pic"]]);
  const typesByFields = new Map<string, string[]>();
  for (const option of blockSchema.options) {
    const type = ("pipe" in option ? option.pipe[0] : option).entries.type.literal;
    const omit = isQuestionType(type) ? ["type", ...sharedQuestionFields] : ["type"];
    const fields = objectSignature(option as unknown as Parameters<typeof objectSignature>[0], omit, names);
    typesByFields.set(fields, [...(typesByFields.get(fields) ?? []), type]);
  }
  return [...typesByFields].map(([fields, types]) => `${types.join(",")}${fields}`);
}

export const blockDefinitionText =
  `A content block; type picks its fields (? = optional): ${blockSignatures().join("; ")}. ` +
  `Every question (${blockTypes.filter(isQuestionType).join(",")}) also has prompt, points? (not likert), explanation?, objectiveIds?. Pic = {assetId?,url?,alt?}. ${blockRules} describe_blocks gives the full schema of any type.`;

const editStepText =
  "One edit: {op, ...that edit's arguments}. Ops: " +
  variantSignatures(batchStepSchema, "op", blockNames).join("; ") +
  ". position is 0-based (omit: at the end).";

/** `$defs` listed in place of the full JSON Schema of the block union and of an edit_course step. */
export const sharedDefinitions: SharedDefinitions = {
  Block: {
    schema: blockSchema,
    listed: { type: "object", description: blockDefinitionText, properties: { type: { enum: [...blockTypes] } }, required: ["type"] },
    brief: { type: "object", description: "A content block: Block in edit_course (or add_blocks) lists each type's fields, describe_blocks its full schema.", required: ["type"] },
  },
  EditStep: {
    schema: batchStepSchema,
    listed: {
      type: "object",
      description: editStepText,
      properties: {
        op: { enum: courseEditOperations.map((operation) => operation.name) },
        blocks: { type: "array", items: { $ref: "#/$defs/Block" } },
        block: { $ref: "#/$defs/Block" },
      },
      required: ["op"],
    },
  },
};

function blockTypeSchema(type: BlockType): Record<string, unknown> {
  const option = blockSchema.options.find((candidate) => ("pipe" in candidate ? candidate.pipe[0] : candidate).entries.type.literal === type);
  const json = toJsonSchema(option as v.GenericSchema, { errorMode: "ignore", typeMode: "input" }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

const describeBlocksArguments = v.object({
  types: v.optional(
    v.pipe(
      v.array(v.picklist(blockTypes, `must be one of ${blockTypes.join(", ")}`)),
      v.description("Block types to describe; omit for all."),
    ),
  ),
});

const describeBlocksTool = defineTool<AuthoringServices, typeof describeBlocksArguments>({
  name: "describe_blocks",
  toolset: "courses",
  title: "Describe block types",
  description: "Returns the exact JSON Schema (fields, limits, allowed values) of the block types you name, or of all, with an example where the shape is not obvious. The Block signatures in edit_course and add_blocks summarise the same rules.",
  input: describeBlocksArguments,
  output: v.object({ blocks: v.array(v.object({ type: v.string(), schema: v.looseObject({}), example: v.optional(v.looseObject({})) })), rules: v.string() }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async handler(args) {
    const types = args.types?.length ? args.types : [...blockTypes];
    return {
      structuredContent: {
        blocks: types.map((type) => {
          const example = blockExamples[type];
          return { type, schema: blockTypeSchema(type), ...(example ? { example: example as unknown as Record<string, unknown> } : {}) };
        }),
        rules: blockRules,
      },
      summary: `Schemas of ${types.length} block type(s): ${types.join(", ")}.`,
    };
  },
});

export const blockTypeTools: ToolDefinition<AuthoringServices>[] = [describeBlocksTool];
