/**
 * What the exporters take and give back. The course is the domain's nested `get_course` document (with
 * blocks), accepted structurally so a course read as of an old revision or a published snapshot works
 * the same; assets come from an `AssetSource` so bytes are read one at a time while the zip streams.
 */
import type { RenderableCourse, RenderOptions } from "../../render/types.ts";
import type { ExportFormat } from "../../store/packages.ts";
import type { ReviewRoundInfo } from "../../page-contract/review.ts";

// The format list is defined with the stored-package record, which sits below the exporters.
export { exportFormats, type ExportFormat } from "../../store/packages.ts";

/** One SCO (or cmi5 AU) for the whole course, or one per module. */
export const scoModes = ["course", "module"] as const;
export type ScoMode = (typeof scoModes)[number];

/**
 * The course document to export: what the renderer needs, plus the descriptive fields a lossless JSON
 * export keeps. The domain's `CourseDocument` (read with blocks) satisfies it as is.
 */
export interface ExportCourse extends RenderableCourse {
  readonly version?: number;
  readonly tags?: readonly string[];
  readonly updatedAt?: string;
}

/** An asset's description, known before its bytes are read. */
export interface AssetInfo {
  readonly mimeType: string;
  /** A file name to keep in the package (sanitised again before use). */
  readonly fileName: string;
  /** Size in bytes when known; lets the builder store large media without buffering. */
  readonly size?: number;
}

export type AssetBody = Uint8Array | ReadableStream<Uint8Array>;

/**
 * Where asset bytes come from. `describe` answers null for an asset that does not exist (so a broken
 * reference is reported before any byte is written); `open` is called once per asset while streaming.
 */
export interface AssetSource {
  describe(assetId: string): Promise<AssetInfo | null>;
  open(assetId: string): Promise<AssetBody>;
}

/**
 * The renderer's entry point, passed in so the exporter stays testable: `renderCourseHtmlChunks`, whose
 * lazy pieces are compressed as they are rendered, or `renderCourseHtml` (one string).
 */
export type CourseRenderer = (course: RenderableCourse, options: RenderOptions) => string | Iterable<string>;

/** Progress while a package is built: entries written so far out of the total. */
export type ExportProgress = (done: number, total: number, message: string) => void;

export interface BuildPackageOptions {
  readonly format: ExportFormat;
  readonly scoMode?: ScoMode;
  /** docx_review: which copy of the course this is, printed on the cover. */
  readonly variant?: "draft" | "published";
  readonly assets: AssetSource;
  readonly renderer: CourseRenderer;
  readonly onProgress?: ExportProgress;
  /** Told about content a format cannot carry (e.g. a matching question in an IMS CC quiz), in words for the author. */
  readonly onNotice?: (notice: string) => void;
  /**
   * cmi5 only: origins the AU may send xAPI statements to. The LRS is named only at launch, so the
   * default allows any http(s) origin; a deployment that knows its LRS can pin it here.
   */
  readonly lrsOrigins?: readonly string[];
  /** cmi5 only: the course's IRI (AU IRIs are minted under it); a stable URN by default. */
  readonly courseIri?: string;
  /** pdf_handout: the questions' answers at the end. */
  readonly answerKey?: boolean;
  /** Question-bank formats (qti3, qti21, moodle_xml, gift): a module or lesson ID to export only its questions. */
  readonly scope?: string;
  /** html_review only: the review round the package opens (its ID, the course version, due date, reviewers, note). */
  readonly reviewRound?: ReviewRoundInfo;
}

export interface ExportPackage {
  readonly fileName: string;
  readonly mimeType: string;
  /** The package bytes, produced as they are read: nothing but the current entry is held in memory. */
  readonly stream: ReadableStream<Uint8Array>;
}

/** The formats that carry a course's questions only, as a question bank. */
export const bankFormats = ["qti3", "qti21", "moodle_xml", "gift"] as const;
export type BankFormat = (typeof bankFormats)[number];

export function isBankFormat(format: ExportFormat): format is BankFormat {
  return (bankFormats as readonly string[]).includes(format);
}
