/**
 * Cross-references inside a course that a schema alone cannot check: objective IDs named by modules
 * and questions, and asset IDs named by media blocks. A reference to something outside the course is
 * reported exactly like one that does not exist.
 */
import { usableAsset } from "./asset-access.ts";
import type { CourseEdit } from "./course-edit.ts";
import { invalidArgument } from "./errors.ts";
import type { BlockContent } from "./schemas/blocks.ts";
import { unhandled } from "../exhaustive.ts";

/**
 * Resolves objective references to IDs. A reference may be an objective ID, a key given earlier in the
 * same `create_course` call (`keys`), or the objective's exact text (case-insensitive).
 */
export async function resolveObjectiveRefs(
  edit: CourseEdit,
  refs: readonly string[],
  field: string,
  keys?: ReadonlyMap<string, string>,
): Promise<string[]> {
  if (refs.length === 0) return [];
  const objectives = await edit.tx.listChildren("objective", edit.course.id);
  const resolved: string[] = [];
  refs.forEach((ref, index) => {
    const wanted = ref.trim();
    const id =
      keys?.get(wanted) ??
      objectives.find((objective) => objective.id === wanted)?.id ??
      objectives.find((objective) => objective.text.toLowerCase() === wanted.toLowerCase())?.id;
    if (!id) {
      const known = objectives.slice(0, 20).map((objective) => `${objective.id} ("${truncate(objective.text, 40)}")`);
      throw invalidArgument(
        `${field}[${index}]`,
        `"${truncate(wanted, 60)}" is not a learning objective of this course; ${
          known.length ? `use one of ${known.join(", ")}` : "the course has no objectives yet: add them with set_objectives"
        }`,
      );
    }
    if (!resolved.includes(id)) resolved.push(id);
  });
  return resolved;
}

interface AssetReference {
  field: string;
  assetId: string;
  expected: "image" | "video" | "audio" | "captions" | "any";
}

/** Every asset a block points at must be one this person may use in this course (asset-access.ts), of a fitting media type. */
export async function checkAssetReferences(edit: CourseEdit, block: BlockContent, field: string): Promise<void> {
  for (const reference of assetReferences(block, field)) {
    const asset = await usableAsset(edit.session, edit.course, reference.assetId, reference.field);
    if (reference.expected === "any") continue;
    const fits = reference.expected === "captions" ? asset.mediaType === "text/vtt" : asset.mediaType.startsWith(`${reference.expected}/`);
    if (!fits) {
      throw invalidArgument(reference.field, `asset ${asset.id} is ${asset.mediaType}; this field needs ${reference.expected === "captions" ? "a WebVTT (text/vtt) captions file" : `an ${reference.expected}/* asset`}`);
    }
  }
}

/**
 * Each further caption track added or changed by add_blocks or update_block is in a language the course
 * declares: its own, or one of its translations' (create_translation declares one), so no track is
 * labelled with a language nobody chose. Copies and imports keep what their course had.
 */
export async function checkCaptionLanguages(edit: CourseEdit, block: BlockContent, field: string): Promise<void> {
  if ((block.type !== "video" && block.type !== "audio") || !block.captionTracks?.length) return;
  const declared = [edit.course.language, ...(await edit.tx.listTranslationLinks(edit.course.id)).filter((link) => link.sourceCourseId === edit.course.id).map((link) => link.language)];
  const primary = (tag: string) => tag.toLowerCase().split("-")[0];
  block.captionTracks.forEach((track, index) => {
    if (declared.some((language) => primary(language) === primary(track.language))) return;
    throw invalidArgument(
      `${field}.captionTracks[${index}].language`,
      `"${track.language}" is not a language of this course: use ${declared.join(", ")}, or first add the language with create_translation`,
    );
  });
}

function assetReferences(block: BlockContent, field: string): AssetReference[] {
  const references: AssetReference[] = [];
  if (block.type === "image" && block.assetId) references.push({ field: `${field}.assetId`, assetId: block.assetId, expected: "image" });
  if (block.type === "video" || block.type === "audio") {
    if (block.assetId) references.push({ field: `${field}.assetId`, assetId: block.assetId, expected: block.type });
    if (block.captions?.assetId) references.push({ field: `${field}.captions.assetId`, assetId: block.captions.assetId, expected: "captions" });
    block.captionTracks?.forEach((track, index) => {
      if (track.assetId) references.push({ field: `${field}.captionTracks[${index}].assetId`, assetId: track.assetId, expected: "captions" });
    });
  }
  if (block.type === "video" && block.poster?.assetId) {
    references.push({ field: `${field}.poster.assetId`, assetId: block.poster.assetId, expected: "image" });
  }
  if (block.type === "attachment") references.push({ field: `${field}.assetId`, assetId: block.assetId, expected: "any" });
  for (const [path, picture] of pictureFields(block)) {
    if (picture?.assetId) references.push({ field: `${field}.${path}.assetId`, assetId: picture.assetId, expected: "image" });
  }
  return references;
}

type PictureField = { assetId?: string | undefined } | undefined;

/** The pictures inside the richer blocks, each with its path under the block. */
function pictureFields(block: BlockContent): [string, PictureField][] {
  switch (block.type) {
    case "single_choice":
    case "multiple_choice":
      return block.choices.map((choice, index) => [`choices[${index}].image`, choice.image]);
    case "labeled_graphic":
    case "hotspot":
      return [["image", block.image]];
    case "drag_onto_image":
      return [["image", block.image] as [string, PictureField], ...block.labels.map((label, index): [string, PictureField] => [`labels[${index}].image`, label.image])];
    case "process":
      return block.steps.map((step, index) => [`steps[${index}].image`, step.image]);
    case "timeline":
      return block.events.map((event, index) => [`events[${index}].image`, event.image]);
    case "scenario":
      return [["character.image", block.character?.image] as [string, PictureField], ...block.scenes.map((scene, index): [string, PictureField] => [`scenes[${index}].image`, scene.image])];
    // These carry no picture inside them (an image, video or attachment block's own asset is read above).
    case "text":
    case "heading":
    case "image":
    case "video":
    case "audio":
    case "callout":
    case "quote":
    case "code":
    case "divider":
    case "accordion":
    case "tabs":
    case "flashcards":
    case "true_false":
    case "fill_in_blank":
    case "matching":
    case "ordering":
    case "sorting":
    case "numeric":
    case "inline_choice":
    case "open_response":
    case "likert":
    case "attachment":
    case "continue":
      return [];
    default:
      return unhandled(block, "block type");
  }
}

function truncate(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}
