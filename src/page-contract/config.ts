/**
 * What the server hands the player: each bundle reads its configuration from a
 * `<script type="application/json">` element of the page, never from code written into the page.
 * Types only, shared by the renderer (which writes the JSON) and the bundles (which read it).
 */
import type { AdapterText, InteractionRuntimeText, RuntimeText } from "./text.ts";

/** The ids of the JSON elements: the course player's, then the LMS adapter's (SCORM, cmi5 or a cartridge launch). */
export const configElementIds = { course: "course-player-config", lms: "course-lms-config", view: "mcp-view-config" } as const;

/** An MCP Apps view's configuration: the protocol version it asks for, and for the export view its words and limits. */
export interface ViewConfig {
  readonly protocolVersion: string;
}

export interface FilesViewConfig extends ViewConfig {
  /** The largest file the service takes. */
  readonly maxBytes: number;
}

export interface ExportViewConfig extends ViewConfig {
  /** Each export format's name as people say it. */
  readonly formatNames: Readonly<Record<string, string>>;
  /** How long the server keeps a package. */
  readonly keptHours: number;
  /** How long to wait for a host that did not declare `downloadFile` to answer `ui/download-file`. */
  readonly undeclaredDownloadWaitMs: number;
}

export interface CoursePlayerConfig {
  readonly courseId: string;
  readonly text: RuntimeText;
  readonly interactionText: InteractionRuntimeText;
  /** The page's answer-key salt (see `render/answer-key.ts`); present when the page grades questions. */
  readonly salt: string | null;
  /** Opens sealed answers once graded and a scenario's reached ending; present when the page has either. */
  readonly sealKey: string | null;
}

/** A one-lesson page (a Common Cartridge web resource) opens on its lesson. */
export interface LessonLaunchConfig {
  readonly lessonId: string;
}

export type InteractionKind = "true-false" | "choice" | "fill-in" | "long-fill-in" | "matching" | "sequencing" | "performance" | "numeric" | "likert";

/** What the package knows about one question, for the LMS reports: written by the export, read by the adapters. */
export interface QuestionFacts {
  readonly kind: InteractionKind;
  /** The prompt as plain text, at most 250 characters. */
  readonly description: string;
  readonly weighting: number;
  readonly objectiveIds: readonly string[];
  /** Choice texts, ordering items in the order first shown (never the right order), matching's left items, sorting's items, or a scenario's scene ids. */
  readonly labels: readonly string[];
  /** Matching and sorting only: the right-hand texts or the category titles. */
  readonly targets: readonly string[];
  readonly caseMatters: boolean;
  /** Performance only: the names of a step and of its answer (`label`, `zone`: `label_1[.]zone_2`); a scenario's steps when absent. */
  readonly steps?: readonly [string, string];
}

export interface ScormAdapterConfig {
  readonly version: "1.2" | "2004";
  readonly text: AdapterText;
  /** What the package knows about each question (type, correct answer, objectives), by block id. */
  readonly questions: Readonly<Record<string, QuestionFacts>>;
}

export interface Cmi5AdapterConfig {
  /** The AU's State document holding the learner's progress (cmi5 leaves other stateIds to the AU). */
  readonly progressStateId: string;
  readonly text: AdapterText;
  /** What the package knows about each question (type, correct answer, objectives), by block id. */
  readonly questions: Readonly<Record<string, QuestionFacts>>;
  /** The course's IRI: question and lesson activity ids are minted under it (`page-contract/xapi-ids.ts`), the same in every package and version. */
  readonly courseIri?: string;
  /** The course version exported, sent in each statement's context. */
  readonly courseVersion?: number;
  /** How the package is launched: a cmi5 LMS (the default), or the Tin Can launch convention (`xapi` packages). */
  readonly launch?: "cmi5" | "tincan";
  /** The Tin Can package's mastery score (0-1), as cmi5's LaunchData would give it; null: the course's own verdict. */
  readonly masteryScore?: number | null;
}

export type LmsAdapterConfig = ScormAdapterConfig | Cmi5AdapterConfig | LessonLaunchConfig;
