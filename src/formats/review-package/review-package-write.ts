/**
 * The review package (export_course format `html_review`), writing side: the comment layer's
 * configuration for a course and its round. Each block is named by the content-hash anchor the Word
 * review copy uses (`formats/review-copy/part-hash.ts`), so a comment coming back says whether its block
 * changed since; a question's choices are listed in the author's order (the page may shuffle them), and
 * a video block says a comment may name a time in it.
 */
import type { ReviewBlockAnchor, ReviewLayerConfig, ReviewRoundInfo, ReviewText } from "../../page-contract/review.ts";
import type { RenderableCourse } from "../../render/types.ts";
import { anchorHashes } from "../review-copy/part-hash.ts";

/** A translation's untranslated block is marked with its source language for the renderer only; the stored block has no `lang`. */
function withoutRenderMarks(block: object): object {
  const { lang: _lang, ...stored } = block as { lang?: unknown };
  return stored;
}

function choicesOf(block: object): string[] | undefined {
  const type = (block as { type?: unknown }).type;
  if (type !== "single_choice" && type !== "multiple_choice") return undefined;
  const choices = (block as { choices?: unknown }).choices;
  if (!Array.isArray(choices)) return undefined;
  return choices.map((choice) => String((choice as { text?: unknown } | null)?.text ?? ""));
}

/** Every block's anchor, by block ID. */
export function reviewBlockAnchors(course: RenderableCourse): Record<string, ReviewBlockAnchor> {
  const hashes = anchorHashes({ ...course, modules: course.modules.map((module) => ({ ...module, lessons: module.lessons.map((lesson) => ({ ...lesson, blocks: (lesson.blocks ?? []).map(withoutRenderMarks) })) })) });
  const anchors: Record<string, ReviewBlockAnchor> = {};
  for (const module of course.modules) {
    for (const lesson of module.lessons) {
      (lesson.blocks ?? []).forEach((block, index) => {
        const choices = choicesOf(block);
        anchors[block.id] = {
          hash: hashes.get(block.id) ?? "",
          lessonId: lesson.id,
          lessonTitle: lesson.title,
          type: block.type,
          number: index + 1,
          ...(choices ? { choices } : {}),
          ...(block.type === "video" ? { video: true } : {}),
        };
      });
    }
  }
  return anchors;
}

/** The comment layer's configuration; `text` is the layer's words, read while the page renders in the course's language. */
export function reviewLayerConfig(course: RenderableCourse, round: ReviewRoundInfo, text: ReviewText): ReviewLayerConfig {
  return { round, blocks: reviewBlockAnchors(course), text };
}
