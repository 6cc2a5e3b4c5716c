/**
 * What a question-bank file becomes before anything is written: pools of question blocks (the
 * `add_blocks` input of each type), the pictures they use, and a report per item of what was kept,
 * changed or dropped. Readers stop at `bankImportLimits`, naming the first item past it, so a huge
 * file is refused early instead of parsed in full.
 */
import { sniffMediaType } from "../../codecs/media-types.ts";
import { CourseAuthoringError } from "../../course-authoring-error.ts";
import type { ImportedAsset } from "../draft-course.ts";

export const bankImportLimits = { questions: 2_000, questionsPerPool: 500 } as const;

export type ItemOutcome = "kept" | "changed" | "dropped";

export interface ItemReport {
  /** The item as the file names it: its identifier, title or position. */
  readonly item: string;
  readonly outcome: ItemOutcome;
  /** What changed or why it was dropped. */
  readonly notes?: string[];
}

export interface ImportedPool {
  readonly title: string;
  readonly drawCount?: number;
  readonly shuffleChoices?: boolean;
  readonly passingScore?: number;
  readonly blocks: Record<string, unknown>[];
  /** How the file names each block's item, in the same order, for errors. */
  readonly items: string[];
}

export interface ImportedBank {
  readonly pools: ImportedPool[];
  /** Pictures by their `sourceId`, which blocks name as `assetId` until written. */
  readonly assets: ImportedAsset[];
  readonly report: ItemReport[];
}

/** Collects pools, pictures and the report while a reader walks a file, refusing past the limits. */
export class BankBuilder {
  readonly pools: ImportedPool[] = [];
  readonly assets: ImportedAsset[] = [];
  readonly report: ItemReport[] = [];
  private questions = 0;
  /** Each picture's `sourceId` by its size and stored name, so the same file is stored once. */
  private readonly pictureIds = new Map<string, string>();

  constructor(readonly formatName: string) {}

  pool(title: string, settings: Omit<ImportedPool, "title" | "blocks" | "items"> = {}): ImportedPool {
    const pool: ImportedPool = { title: title.trim().slice(0, 200) || "Imported questions", ...settings, blocks: [], items: [] };
    this.pools.push(pool);
    return pool;
  }

  /** Called before each item is read, so a file past the limit stops at its first extra item. */
  countItem(item: string, pool: ImportedPool): void {
    this.questions += 1;
    if (this.questions > bankImportLimits.questions || pool.blocks.length >= bankImportLimits.questionsPerPool) {
      const limit = this.questions > bankImportLimits.questions ? `${bankImportLimits.questions} questions in one import` : `${bankImportLimits.questionsPerPool} questions in one pool ("${pool.title}")`;
      throw new CourseAuthoringError("limit_exceeded", `content: the ${this.formatName} file holds more than ${limit}; item ${item} is the first past it. Split the file; nothing was imported.`, {
        field: "content",
        item,
        limit: bankImportLimits,
      });
    }
  }

  add(pool: ImportedPool, item: string, block: Record<string, unknown>, notes: string[] = []): void {
    pool.blocks.push(block);
    pool.items.push(item);
    this.report.push(notes.length > 0 ? { item, outcome: "changed", notes } : { item, outcome: "kept" });
  }

  /**
   * A picture of an item as an asset: its bytes must be an image a course can embed. Returns the
   * `assetId` blocks name until the import writes it; the same file is stored once.
   */
  async picture(item: string, fileName: string, bytes: Uint8Array): Promise<string> {
    // By a key, not a search of every picture so far: thousands of pictures would cost their square.
    const known = this.pictureIds.get(`${bytes.byteLength} ${fileName}`);
    if (known) return known;
    const sniffed = await sniffMediaType(bytes, { filename: fileName });
    if (sniffed.kind !== "accepted" || !sniffed.type.mediaType.startsWith("image/")) throw itemError(this.formatName, item, `its picture "${fileName}" is not an image a course can show`, { file: fileName });
    const sourceId = `ast_picture${this.assets.length + 1}`;
    const safeName = fileName.split("/").at(-1)?.replace(/[^A-Za-z0-9._-]/g, "_").slice(-100) || "picture";
    this.assets.push({ sourceId, fileName: safeName, mediaType: sniffed.type.mediaType, bytes });
    // Keyed by the stored name, as the search compared it; the first picture of a key is the one found.
    const key = `${bytes.byteLength} ${safeName}`;
    if (!this.pictureIds.has(key)) this.pictureIds.set(key, sourceId);
    return sourceId;
  }

  drop(item: string, why: string): void {
    this.report.push({ item, outcome: "dropped", notes: [why] });
  }

  result(): ImportedBank {
    const pools = this.pools.filter((pool) => pool.blocks.length > 0);
    if (pools.length === 0) {
      const dropped = this.report.slice(0, 5).map((entry) => `${entry.item}: ${entry.notes?.join(" ") ?? ""}`);
      throw new CourseAuthoringError("invalid_arguments", `content: the ${this.formatName} file has no question this service can import${dropped.length ? ` (${dropped.join("; ")})` : ""}; nothing was imported.`, { field: "content" });
    }
    // A draw only means something below the pool's size.
    const fitted = pools.map((pool) => (pool.drawCount !== undefined && pool.drawCount >= pool.blocks.length ? { ...pool, drawCount: undefined } : pool));
    return { pools: fitted.map((pool) => Object.fromEntries(Object.entries(pool).filter(([, value]) => value !== undefined)) as unknown as ImportedPool), assets: this.assets, report: this.report };
  }
}

/** A refusal that names the item: the file is not what it claims, or an item is broken. */
export function itemError(formatName: string, item: string, message: string, details: Record<string, unknown> = {}): CourseAuthoringError {
  return new CourseAuthoringError("invalid_arguments", `content: ${formatName} item ${item}: ${message}; nothing was imported.`, { field: "content", item, ...details });
}
