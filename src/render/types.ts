/**
 * What the renderer takes: a structural course shape that the domain's `get_course` document satisfies
 * as is (nullable fields accepted, blocks validated on render), and the options that differ between the
 * preview and the export packages.
 */
import type { Block } from "../authoring/schemas/blocks.ts";
import type { CourseTheme } from "../authoring/schemas/theme.ts";

/**
 * A block as stored. Blocks are validated against the block schema when rendered, so the loosely typed
 * blocks of a course document are accepted; a block that fails validation is shown as unavailable.
 */
export type RenderableBlock = Block | { readonly id: string; readonly type: string };

export interface RenderableLesson {
  readonly id: string;
  readonly title: string;
  readonly kind: "content" | "quiz";
  /** Percentage needed to pass a quiz lesson; absent or null means any submission passes. */
  readonly passingScore?: number | null;
  /** Attempts allowed for a quiz lesson; absent or null means unlimited. */
  readonly maxAttempts?: number | null;
  readonly estimatedMinutes?: number | null;
  /** True when the author set `estimatedMinutes`; the preview then shows `derivedMinutes` beside it. */
  readonly estimatedMinutesIsSet?: boolean | null;
  readonly derivedMinutes?: number | null;
  /** Quiz lessons: questions drawn per attempt; absent or null draws all. */
  readonly drawCount?: number | null;
  /** Quiz lessons: spread the draw across the objectives the questions assess. */
  readonly drawByObjective?: boolean;
  /** Quiz lessons: shuffle choices per attempt (default true); a choice with `fixed` keeps its place. */
  readonly shuffleChoices?: boolean;
  /** Quiz lessons: `after_submit` (default), `immediate` or `none`. */
  readonly feedbackMode?: "after_submit" | "immediate" | "none";
  /** Quiz lessons: this quiz alone decides the course's success and score. */
  readonly finalAssessment?: boolean;
  /** Quiz lessons: one question per screen, with "Question 2 of 8" and previous/next. */
  readonly oneQuestionAtATime?: boolean;
  /** Quiz lessons: the attempt that counts after a retake, `best` (default) or `last`. */
  readonly attemptScoring?: "best" | "last";
  /** A picture across the top of the lesson page: an uploaded asset or an http(s) URL, alt text unless decorative. */
  readonly banner?: { readonly assetId?: string; readonly url?: string; readonly alt?: string; readonly decorative?: boolean } | null;
  readonly blocks?: readonly RenderableBlock[];
}

export interface RenderableModule {
  readonly id: string;
  readonly title: string;
  /** Markdown. */
  readonly summary?: string | null;
  readonly objectiveIds?: readonly string[];
  /** The module's number in the whole course (from 1), for a page of part of it; absent means its place on the page. */
  readonly position?: number | null;
  readonly lessons: readonly RenderableLesson[];
}

export interface RenderableCourse {
  readonly id: string;
  readonly title: string;
  /** Markdown. */
  readonly description?: string | null;
  /** BCP 47 language tag; `en` when absent. */
  readonly language?: string | null;
  readonly audience?: string | null;
  readonly level?: string | null;
  readonly objectives: readonly { readonly id: string; readonly text: string }[];
  /** `"none"` shows module titles as written; absent or `"modules"` puts "Module 2:" before each. */
  readonly numbering?: "modules" | "none" | null;
  /** The length the author aims at; the preview shows it beside the course's total. */
  readonly targetMinutes?: number | null;
  /**
   * The whole course's length, for a page of part of it (a lesson preview's cover states the course's
   * length, not the lesson's); absent means the page's lessons' minutes summed.
   */
  readonly estimatedMinutes?: number | null;
  /** The organisation's look; absent or null for the default one. */
  readonly theme?: CourseTheme | null;
  readonly modules: readonly RenderableModule[];
}

export interface RenderOptions {
  /** Where an uploaded asset is loaded from: a `data:` URL in the preview, a relative path in a package. */
  readonly assetUrl: (assetId: string) => string;
  /** `preview` marks the page as a preview; `package` is the learner-facing page inside an export. */
  readonly mode: "preview" | "package";
  /** What a preview shows, named in its badge: the draft or the published snapshot, and its version. */
  readonly previewOf?: { readonly variant: "draft" | "published"; readonly version: number };
  /**
   * The LMS adapter (a SCORM or cmi5 bundle, or a cartridge lesson's launch) run after the course
   * player under the same nonce, with its configuration handed over as JSON.
   */
  readonly lmsAdapter?: { readonly script: string; readonly config: unknown };
  /**
   * `inline` (default) writes the course bundle into the page; `referenced` leaves its script element
   * empty, named by `data-player-bundle`, for a host that fills it from the bundle it holds once (the
   * MCP Apps preview view reads it as its own resource), so a preview need not carry the player each time.
   */
  readonly playerDelivery?: "inline" | "referenced";
  /** Base URL for relative asset paths; becomes `<base href>` and the only allowed `base-uri`. */
  readonly baseHref?: string;
  /**
   * What the runtime script may contact (for example a cmi5 LRS): http(s) origins, or the `https:` and
   * `http:` schemes when the server is only known at launch. Anything else is dropped; none by default.
   */
  readonly connectSources?: readonly string[];
  /**
   * The http(s) origins the page's policy lets pictures load from (`declaredImageOrigins`). The
   * whole-document renderers find them in the blocks when absent; the streamed one writes its head
   * before any block is read, so without them it allows no remote picture.
   */
  readonly imageOrigins?: readonly string[];
  /** The review package: each block is wrapped in an element naming its ID, for the comment layer to attach to. */
  readonly reviewAnchors?: boolean;
}
