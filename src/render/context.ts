/**
 * State shared while one course is rendered: the caller's options and an allocator that hands out
 * unique, attribute-safe element IDs (labels, `aria-controls` and TOC links all point at them).
 */
import type { AnswerSecrets } from "./answer-key.ts";
import type { RenderOptions } from "./types.ts";

export class ElementIds {
  private readonly used = new Set<string>();

  /** A unique ID built from a prefix and a hint (an entity ID or a counter), kept to `[A-Za-z0-9_-]`. */
  next(prefix: string, hint: string | number = ""): string {
    const cleanHint = String(hint).replace(/[^A-Za-z0-9_-]/g, "").slice(0, 80);
    const base = cleanHint ? `${prefix}-${cleanHint}` : prefix;
    let candidate = base;
    for (let suffix = 2; this.used.has(candidate); suffix++) candidate = `${base}-${suffix}`;
    this.used.add(candidate);
    return candidate;
  }
}

export interface RenderContext {
  readonly options: RenderOptions;
  readonly ids: ElementIds;
  /** Salt and sealing key of this render's answer keys. */
  readonly secrets: AnswerSecrets;
}

/** How questions behave in a lesson: checked one by one, and whether feedback and explanations show. */
export interface QuestionMode {
  readonly canCheck: boolean;
  readonly showsFeedback: boolean;
}

/** Numbering of questions within one lesson ("Question 2"), and how they behave there. */
export interface LessonContext extends RenderContext {
  nextQuestionNumber(): number;
  /** The lesson's kind: a scenario is scored only in a quiz lesson. */
  readonly lessonKind?: "content" | "quiz";
  readonly questionMode: QuestionMode;
}
