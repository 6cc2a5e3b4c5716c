/**
 * Reads a Word review copy that came back from a reviewer: which course and version it was made from
 * (its custom properties), and every comment and tracked change in it, each tied to the course part whose
 * bookmark (`<id>_<hash>`) it falls in. Comments keep their author, date, text and the passage they
 * cover; tracked insertions and deletions by one author in one paragraph become one suggestion.
 *
 * The file is untrusted, so the reading is linear in its size: the comments part and the document are
 * streamed (no tree), passages are gathered only for comments the file really holds and only up to
 * `reviewCopyLimits.passageCharacters` (a longer one is cut and says so), and every text kept is capped.
 */
import { CourseAuthoringError } from "../../course-authoring-error.ts";
import { reviewCopyPropertyNames } from "./review-parts.ts";
import { OfficePackage } from "../office/office-package.ts";
import { childElements, type XmlNode } from "../office/office-xml.ts";

export interface Anchor {
  readonly id: string;
  /** The part's content hash when the copy was made. */
  readonly hash: string;
}

export interface ReviewNote {
  readonly kind: "comment" | "suggestion";
  readonly anchor: Anchor;
  readonly author: string;
  readonly date: string | null;
  readonly text: string;
  /** Comments: the passage the comment covers, at most `reviewCopyLimits.passageCharacters`. */
  readonly passage?: string;
  /** The passage went on past what is kept. */
  readonly passageCut?: boolean;
}

export interface ReviewCopyIdentity {
  readonly courseId: string;
  readonly version: number;
}

export interface ReviewCopy extends ReviewCopyIdentity {
  readonly notes: ReviewNote[];
}

export const reviewCopyLimits = {
  /** Comments plus tracked changes brought back at once; also the most comment ranges open at once. */
  notes: 2_000,
  /** Characters of the passage a comment covers, quoted in its body. */
  passageCharacters: 300,
  /** Characters kept of one suggestion's inserted or deleted text. */
  suggestionCharacters: 1_000,
} as const;

const anchorName = /^((?:crs|mod|les|blk)_[0-9a-z]{1,64})_([0-9a-f]{8})$/;

function notACopy(fileName: string, why: string): CourseAuthoringError {
  return new CourseAuthoringError("invalid_arguments", `${fileName}: is not a review copy made by export_course format docx_review (${why}); nothing was imported.`, { field: "assetId", file: fileName });
}

function tooManyNotes(fileName: string, what: string): CourseAuthoringError {
  const max = reviewCopyLimits.notes;
  return new CourseAuthoringError("limit_exceeded", `${fileName}: holds more than ${max} ${what}; at most ${max} comments and tracked changes are brought back at once (limit: notes). Nothing was imported.`, {
    field: "assetId",
    file: fileName,
    limit: max,
  });
}

/** `text` appended to `to`, keeping at most `max` characters; `cut` when something was left out. */
function appendCapped(to: string, text: string, max: number): { text: string; cut: boolean } {
  const room = max - to.length;
  return text.length <= room ? { text: to + text, cut: false } : { text: to + text.slice(0, Math.max(0, room)), cut: true };
}

const ownText = (node: XmlNode) => node.children.filter((child): child is string => typeof child === "string").join("");

async function customProperties(file: OfficePackage): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const part = (await file.related("", "custom-properties")) ?? "docProps/custom.xml";
  if (!file.has(part)) return found;
  for (const property of childElements(await file.xml(part), "property")) {
    const value = childElements(property)[0];
    if (property.attributes.name && value) found.set(property.attributes.name, ownText(value).trim());
  }
  return found;
}

/** The course and version the copy names, read from its small custom properties part alone. */
export async function readReviewCopyIdentity(file: OfficePackage): Promise<ReviewCopyIdentity> {
  const properties = await customProperties(file);
  const courseId = properties.get(reviewCopyPropertyNames.courseId) ?? "";
  const version = Number(properties.get(reviewCopyPropertyNames.version));
  if (!/^crs_[0-9a-z]{1,64}$/.test(courseId) || !Number.isInteger(version)) throw notACopy(file.fileName, "its document properties name no course and version");
  return { courseId, version };
}

/**
 * Whether a Word file is a review copy export_course made (its custom properties name a course and a
 * version): such a file is brought back to be read, never course content. Reads the small properties part
 * alone; a file that cannot be opened is not one.
 */
export async function isReviewCopy(bytes: Uint8Array, fileName: string): Promise<boolean> {
  try {
    await readReviewCopyIdentity(await OfficePackage.open(bytes, fileName, "docx"));
    return true;
  } catch {
    return false;
  }
}

interface CommentEntry {
  author: string;
  date: string | null;
  paragraphs: string[];
  /** Characters kept so far, across paragraphs. */
  length: number;
}

/** A comment's longest text (add_comment's limit, which the import applies again): reading stops there. */
const commentBodyCharacters = 5000;

/**
 * A comment's or change's date when the file carries one: an ISO date from year 1 on. Writers that have
 * none put placeholders (LibreOffice: "0-00-00T00:00:00"), which are left out rather than shown.
 */
export function carriedDate(value: string | undefined): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value ?? "");
  if (!match || Number(match[1]) < 1 || Number(match[2]) < 1 || Number(match[2]) > 12 || Number(match[3]) < 1 || Number(match[3]) > 31) return null;
  return value ?? null;
}

/** The comments part streamed: each comment's author, date and paragraphs, its text capped at a comment's length. */
async function readComments(file: OfficePackage): Promise<Map<string, CommentEntry>> {
  const comments = new Map<string, CommentEntry>();
  const part = await file.related(file.mainPart, "comments");
  if (!part || !file.has(part)) return comments;
  const max = commentBodyCharacters;
  const stack: string[] = [];
  let comment: CommentEntry | undefined;
  let paragraph: string | undefined;
  await file.scan(part, {
    open(name, attributes) {
      stack.push(name);
      if (name === "comment" && !comment) {
        const id = attributes.id ?? "";
        comment = { author: attributes.author || "Unknown reviewer", date: carriedDate(attributes.date), paragraphs: [], length: 0 };
        comments.set(id, comment);
        if (comments.size > reviewCopyLimits.notes) throw tooManyNotes(file.fileName, "comments");
      } else if (name === "p" && comment) paragraph = "";
    },
    close(name) {
      stack.pop();
      if (name === "p" && comment && paragraph !== undefined) {
        const text = paragraph.trim();
        if (text) comment.paragraphs.push(text);
        comment.length += text.length + 2;
        paragraph = undefined;
      } else if (name === "comment" && !stack.includes("comment")) comment = undefined;
    },
    text(text) {
      if (stack[stack.length - 1] !== "t" || !comment || paragraph === undefined) return;
      // One character past the cap, so the comment's body shows it was cut.
      paragraph = appendCapped(paragraph, text, Math.max(0, max + 1 - comment.length)).text;
    },
  });
  return comments;
}

interface PassageGroup {
  text: string;
  cut: boolean;
  /** Members still gathering (started, not ended). */
  open: number;
}

/**
 * The passages comment ranges cover, at most `passageCharacters` each. Ranges that start at the same
 * place share one growing text (their group), so each text run costs one append per live group, not one
 * per range; a group stops growing once cut or once all its ranges ended, so at most `passageCharacters`
 * groups grow at once. Linear in the document.
 */
class PassageGatherer {
  private readonly growing = new Set<PassageGroup>();
  /** The group that ranges starting now join: no text has come since it was made. */
  private latest: PassageGroup | undefined;
  private readonly members = new Map<string, { group: PassageGroup; ended?: { length: number; cut: boolean } }>();

  /** A range starts; only its first start counts. */
  start(id: string): void {
    if (this.members.has(id)) return;
    if (!this.latest) {
      this.latest = { text: "", cut: false, open: 0 };
      this.growing.add(this.latest);
    }
    this.latest.open += 1;
    this.members.set(id, { group: this.latest });
  }

  end(id: string): void {
    const member = this.members.get(id);
    if (!member || member.ended) return;
    const group = member.group;
    member.ended = { length: group.text.length, cut: group.cut };
    group.open -= 1;
    if (group.open === 0) {
      this.growing.delete(group);
      if (this.latest === group) this.latest = undefined;
    }
  }

  text(text: string): void {
    this.latest = undefined;
    for (const group of this.growing) {
      const next = appendCapped(group.text, text, reviewCopyLimits.passageCharacters);
      group.text = next.text;
      if (next.cut) {
        group.cut = true;
        this.growing.delete(group);
      }
    }
  }

  passage(id: string): { text: string; cut: boolean } | undefined {
    const member = this.members.get(id);
    if (!member) return undefined;
    return member.ended ? { text: member.group.text.slice(0, member.ended.length), cut: member.ended.cut } : { text: member.group.text, cut: member.group.cut };
  }
}

interface Change {
  date: string | null;
  inserted: string;
  deleted: string;
  anchor: Anchor;
}

/**
 * The document streamed once, in order: the anchor each bookmark sets, the comment ranges (only of
 * comments that exist, each gathering its passage until the cap) and the tracked changes per paragraph.
 */
class DocumentScan {
  anchor: Anchor | undefined;
  sawAnchor = false;
  readonly suggestions: ReviewNote[] = [];
  readonly commentAnchors = new Map<string, Anchor>();
  private readonly passages = new PassageGatherer();
  private readonly stack: string[] = [];
  private readonly inChange: { kind: "ins" | "del"; author: string; date: string | null }[] = [];
  /** This paragraph's tracked changes, by author. */
  private changes = new Map<string, Change>();

  constructor(
    private readonly fileName: string,
    private readonly comments: ReadonlyMap<string, CommentEntry>,
  ) {}

  open(name: string, attributes: Readonly<Record<string, string>>): void {
    this.stack.push(name);
    const id = attributes.id ?? "";
    if (name === "bookmarkStart") {
      const match = anchorName.exec(attributes.name ?? "");
      if (match) {
        this.anchor = { id: match[1] as string, hash: match[2] as string };
        this.sawAnchor = true;
      }
    } else if ((name === "commentRangeStart" || name === "commentReference") && this.comments.has(id)) {
      if (this.anchor && !this.commentAnchors.has(id)) this.commentAnchors.set(id, this.anchor);
      if (name === "commentRangeStart") this.passages.start(id);
    } else if (name === "commentRangeEnd") this.passages.end(id);
    else if (name === "ins" || name === "del") this.inChange.push({ kind: name, author: attributes.author || "Unknown reviewer", date: carriedDate(attributes.date) });
  }

  close(name: string): void {
    this.stack.pop();
    if (name === "ins" || name === "del") this.inChange.pop();
    else if (name === "p") this.flushChanges();
  }

  text(text: string): void {
    const element = this.stack[this.stack.length - 1];
    if ((element !== "t" && element !== "delText") || text === "") return;
    if (element === "t") this.passages.text(text);
    const change = this.inChange[this.inChange.length - 1];
    if (change && this.anchor) this.recordChange(change, element, text);
  }

  passage(id: string): { text: string; cut: boolean } | undefined {
    return this.passages.passage(id);
  }

  private recordChange(inChange: { kind: "ins" | "del"; author: string; date: string | null }, element: string, text: string): void {
    const change = this.changes.get(inChange.author) ?? { date: inChange.date, inserted: "", deleted: "", anchor: this.anchor as Anchor };
    const max = reviewCopyLimits.suggestionCharacters;
    if (inChange.kind === "ins" && element === "t") change.inserted = appendCapped(change.inserted, text, max).text;
    if (inChange.kind === "del" && element === "delText") change.deleted = appendCapped(change.deleted, text, max).text;
    this.changes.set(inChange.author, change);
  }

  private flushChanges(): void {
    // A text that reached the cap ends with "…", so the suggestion shows it goes on in the copy.
    const shown = (value: string) => value.trim() && `${value.trim()}${value.length >= reviewCopyLimits.suggestionCharacters ? "…" : ""}`;
    for (const [author, change] of this.changes) {
      const inserted = shown(change.inserted);
      const deleted = shown(change.deleted);
      if (!inserted && !deleted) continue;
      const text = inserted && deleted ? `replace “${deleted}” with “${inserted}”` : inserted ? `insert “${inserted}”` : `delete “${deleted}”`;
      this.suggestions.push({ kind: "suggestion", anchor: change.anchor, author, date: change.date, text });
      if (this.suggestions.length > reviewCopyLimits.notes) throw tooManyNotes(this.fileName, "tracked changes");
    }
    this.changes = new Map();
  }
}

/**
 * The copy's notes. `check`, when given, is told the course and version the copy names before the
 * document itself is read, so a copy of another course is refused without parsing it.
 */
export async function readReviewCopy(file: OfficePackage, check?: (identity: ReviewCopyIdentity) => void): Promise<ReviewCopy> {
  const identity = await readReviewCopyIdentity(file);
  check?.(identity);
  const comments = await readComments(file);
  const scan = new DocumentScan(file.fileName, comments);
  await file.scan(file.mainPart, { open: (name, attributes) => scan.open(name, attributes), close: (name) => scan.close(name), text: (text) => scan.text(text) });
  if (!scan.sawAnchor) throw notACopy(file.fileName, "it holds none of the bookmarks a review copy places on each part");

  const notes: ReviewNote[] = [];
  for (const [id, comment] of comments) {
    const anchor = scan.commentAnchors.get(id);
    const text = comment.paragraphs.join("\n\n");
    if (!anchor || !text) continue;
    const passage = scan.passage(id);
    const passageText = passage?.text.trim() ?? "";
    notes.push({ kind: "comment", anchor, author: comment.author, date: comment.date, text, ...(passageText ? { passage: passageText, ...(passage?.cut ? { passageCut: true } : {}) } : {}) });
  }
  notes.push(...scan.suggestions);
  if (notes.length > reviewCopyLimits.notes) throw tooManyNotes(file.fileName, "comments and tracked changes");
  return { ...identity, notes };
}
