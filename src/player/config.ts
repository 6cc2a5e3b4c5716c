/**
 * What the server hands the player: each bundle reads its configuration from a
 * `<script type="application/json">` element of the page, never from code written into the page.
 * Types only, shared by the renderer (which writes the JSON) and the bundles (which read it).
 */
import type { InteractionRuntimeText } from "../render/interaction-text.ts";
import type { RuntimeText } from "../render/ui-text.ts";
import type { Cmi5AdapterConfig } from "./lms/cmi5.ts";
import type { ScormAdapterConfig } from "./lms/scorm.ts";

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

export type LmsAdapterConfig = ScormAdapterConfig | Cmi5AdapterConfig | LessonLaunchConfig;
