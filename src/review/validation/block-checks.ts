/**
 * Checks of one block at a time: accessible images and media, asset references, and answerable,
 * unambiguous questions. The block schema refuses most of these at input; validation still checks
 * them because stored content may predate a rule, come from an import, or be restored from history.
 */
import { isQuestionType } from "../../authoring/schemas/question-blocks.ts";
import { atField, type WalkedBlock, type WalkedCourse } from "./course-walk.ts";
import type { FindingLocation } from "./rules.ts";
import { markdownFields, markdownImages } from "./markdown-text.ts";
import type { FindingList } from "./rules.ts";

export function checkBlock(walked: WalkedBlock, course: WalkedCourse, findings: FindingList): void {
  checkImageAlt(walked, findings);
  checkMarkdownImages(walked, findings);
  checkMediaAlternatives(walked, findings);
  checkAssetReferences(walked, course, findings);
  if (isQuestionType(walked.block.type)) checkQuestion(walked, findings);
}

const fileNameAlt = /^[\w\s().-]*\.(?:png|jpe?g|gif|webp|avif|svg|bmp|tiff?)$/i;
const placeholderAlt = /^(?:image|img|picture|pic|photo|graphic|figure|screenshot|icon|diagram|alt|alt text|untitled)\s*\d*$/i;

function checkImageAlt({ block, location }: WalkedBlock, findings: FindingList): void {
  if (block.type !== "image" || block.decorative) return;
  checkAltText(block.alt ?? "", location, "update_block", findings);
}

/** An image's alt text (an image block's, a lesson banner's): missing, or a file name or placeholder. */
export function checkAltText(given: string, location: FindingLocation, tool: "update_block" | "update_lesson", findings: FindingList): void {
  const alt = given.trim();
  const target = tool === "update_lesson" ? "banner.alt" : "alt";
  if (alt === "") {
    findings.report(
      "image.missing_alt",
      atField(location, target),
      "The image has no alt text, so screen-reader users get nothing from it.",
      `Call ${tool} with ${target} set to what the image shows or means in one sentence; or set decorative: true if it adds no information.`,
    );
  } else if (fileNameAlt.test(alt) || placeholderAlt.test(alt)) {
    findings.report(
      "image.unhelpful_alt",
      atField(location, target),
      `The alt text "${alt}" names the file or says "image" instead of describing it.`,
      `Call ${tool} with ${target} describing what the image shows or why it is there (for example "Bar chart: sales doubled in 2024").`,
    );
  }
}

function checkMarkdownImages({ block, location }: WalkedBlock, findings: FindingList): void {
  for (const { field, markdown } of markdownFields(block)) {
    for (const image of markdownImages(markdown)) {
      if (image.alt !== "") continue;
      findings.report(
        "image.missing_alt",
        atField(location, field),
        `An image in the Markdown (${image.url || "no URL"}) has empty alt text: ![](…).`,
        `Call update_block and write the alt text between the brackets, ![what it shows](${image.url || "…"}); or move the image to an image block with decorative: true if it adds no information.`,
      );
    }
  }
}

function checkMediaAlternatives({ block, location }: WalkedBlock, findings: FindingList): void {
  if (block.type !== "video" && block.type !== "audio") return;
  if (block.captions !== undefined || (block.captionTracks?.length ?? 0) > 0 || (block.transcript ?? "").trim() !== "") return;
  findings.report(
    "media.missing_captions",
    atField(location, block.type === "video" ? "captions" : "transcript"),
    `The ${block.type} has neither captions nor a transcript, so deaf and hard-of-hearing learners miss its content.`,
    block.type === "video"
      ? "Upload a WebVTT file with upload_asset (or the person adds theirs in the files view, opened by list_assets) and call update_block with captions: { assetId }, or add a transcript (Markdown)."
      : "Call update_block with a transcript (Markdown) of what is said; or upload WebVTT captions and set captions: { assetId }.",
  );
}

interface AssetUse {
  field: string;
  assetId: string;
  accepts: (mediaType: string) => boolean;
  needs: string;
}

function assetUses({ block }: WalkedBlock): AssetUse[] {
  const uses: AssetUse[] = [];
  const ofType = (prefix: string) => (mediaType: string) => mediaType.startsWith(prefix);
  if (block.type === "image" && block.assetId) uses.push({ field: "assetId", assetId: block.assetId, accepts: ofType("image/"), needs: "an image" });
  if (block.type === "video" || block.type === "audio") {
    if (block.assetId) uses.push({ field: "assetId", assetId: block.assetId, accepts: ofType(`${block.type}/`), needs: `a ${block.type} file` });
    block.captionTracks?.forEach((track, index) => {
      if (track.assetId) uses.push({ field: `captionTracks[${index}].assetId`, assetId: track.assetId, accepts: (type) => type === "text/vtt", needs: "a WebVTT (text/vtt) file" });
    });
    if (block.captions?.assetId) {
      uses.push({ field: "captions.assetId", assetId: block.captions.assetId, accepts: (type) => type === "text/vtt", needs: "a WebVTT (text/vtt) file" });
    }
  }
  if (block.type === "video" && block.poster?.assetId) {
    uses.push({ field: "poster.assetId", assetId: block.poster.assetId, accepts: ofType("image/"), needs: "an image" });
  }
  if (block.type === "attachment") uses.push({ field: "assetId", assetId: block.assetId, accepts: () => true, needs: "a file to download" });
  for (const [field, assetId] of pictureAssetIds(block)) uses.push({ field, assetId, accepts: ofType("image/"), needs: "an image" });
  return uses;
}

/** Image asset IDs inside the richer blocks (pictured choices, steps, events, scenes), by field. */
function pictureAssetIds(block: WalkedBlock["block"]): [string, string][] {
  const found: [string, string][] = [];
  const add = (field: string, picture: { assetId?: string | undefined } | undefined) => {
    if (picture?.assetId) found.push([`${field}.assetId`, picture.assetId]);
  };
  if (block.type === "single_choice" || block.type === "multiple_choice") (block.choices ?? []).forEach((choice, index) => add(`choices[${index}].image`, choice.image));
  if (block.type === "labeled_graphic") add("image", block.image);
  if (block.type === "process") (block.steps ?? []).forEach((step, index) => add(`steps[${index}].image`, step.image));
  if (block.type === "timeline") (block.events ?? []).forEach((event, index) => add(`events[${index}].image`, event.image));
  if (block.type === "scenario") {
    add("character.image", block.character?.image);
    (block.scenes ?? []).forEach((scene, index) => add(`scenes[${index}].image`, scene.image));
  }
  return found;
}

function checkAssetReferences(walked: WalkedBlock, course: WalkedCourse, findings: FindingList): void {
  for (const use of assetUses(walked)) {
    const asset = course.assets.get(use.assetId);
    if (asset && use.accepts(asset.mediaType)) continue;
    findings.report(
      "asset.broken_reference",
      atField(walked.location, use.field),
      asset
        ? `${use.field} points at asset ${use.assetId}, which is ${asset.mediaType}; this field needs ${use.needs}.`
        : `${use.field} points at asset ${use.assetId}, which is not an asset of this course.`,
      `Have the person add the right file in the files view (list_assets opens it), or upload_asset it, and call update_block with ${use.field} set to its ID.`,
    );
  }
}

function checkQuestion(walked: WalkedBlock, findings: FindingList): void {
  const { block, location } = walked;
  if (block.type === "single_choice" || block.type === "multiple_choice") {
    const choices = block.choices ?? [];
    const correct = choices.filter((choice) => choice.correct === true).length;
    if (correct === 0) {
      findings.report(
        "question.no_correct_answer",
        atField(location, "choices"),
        `No choice of this ${block.type.replace("_", "-")} question is marked correct, so nobody can pass it.`,
        "Call update_block with correct: true on the right choice (on every right choice for multiple_choice).",
      );
    } else if (block.type === "single_choice" && correct > 1) {
      findings.report(
        "question.several_correct_single_choice",
        atField(location, "choices"),
        `This single-choice question marks ${correct} choices correct, but a learner can pick only one.`,
        "Call update_block keeping correct: true on one choice only, or change the type to multiple_choice.",
      );
    }
    reportDuplicates(walked, findings, choices.map((choice) => choice.text ?? ""), "choices", "choice");
  }
  if (block.type === "true_false" && typeof block.answer !== "boolean") {
    findings.report("question.no_correct_answer", atField(location, "answer"), "This true/false question does not say which answer is correct.", "Call update_block with answer: true or answer: false.");
  }
  if (block.type === "fill_in_blank") {
    (block.blanks ?? []).forEach((blank, index) => {
      if ((blank.answers ?? []).some((answer) => answer.trim() !== "")) return;
      findings.report(
        "question.no_correct_answer",
        atField(location, `blanks[${index}].answers`),
        `Blank {{${index + 1}}} has no accepted answer, so nobody can fill it in correctly.`,
        `Call update_block with at least one accepted answer in blanks[${index}].answers.`,
      );
    });
  }
  if (block.type === "ordering") reportDuplicates(walked, findings, (block.items ?? []).map((item) => item.text ?? ""), "items", "item");
  if (block.type === "matching") reportDuplicates(walked, findings, (block.pairs ?? []).map((pair) => pair.left ?? ""), "pairs", "left item");
}

/** Options that read the same once case and spacing are ignored. */
function reportDuplicates(walked: WalkedBlock, findings: FindingList, options: string[], field: string, noun: string): void {
  const firstIndex = new Map<string, number>();
  options.forEach((option, index) => {
    const key = option.trim().replace(/\s+/g, " ").toLowerCase();
    const first = firstIndex.get(key);
    if (first === undefined) {
      firstIndex.set(key, index);
      return;
    }
    findings.report(
      "question.duplicate_options",
      atField(walked.location, `${field}[${index}]`),
      `${noun[0]?.toUpperCase()}${noun.slice(1)} ${index + 1} ("${option.trim()}") repeats ${noun} ${first + 1}, so learners cannot tell them apart.`,
      `Call update_block with ${field}[${index}] reworded or removed so every ${noun} is different.`,
    );
  });
}
