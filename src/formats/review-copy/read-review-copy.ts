/**
 * Reads a Word review copy that came back from a reviewer: which course and version it was made from
 * (its custom properties), and every comment and tracked change in it, each tied to the course part whose
 * bookmark (`<id>_<hash>`) it falls in. Comments keep their author, date, text and the passage they
 * cover; tracked insertions and deletions by one author in one paragraph become one suggestion.
 */
import { CourseAuthoringError } from "../../course-authoring-error.ts";
import { reviewCopyPropertyNames } from "./review-parts.ts";
import type { OfficePackage } from "../office/office-package.ts";
import { childElements, descendants, textOf, type XmlNode } from "../office/office-xml.ts";

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
  /** Comments: the passage the comment covers. */
  readonly passage?: string;
}

export interface ReviewCopy {
  readonly courseId: string;
  readonly version: number;
  readonly notes: ReviewNote[];
}

const anchorName = /^((?:crs|mod|les|blk)_[0-9a-z]{1,64})_([0-9a-f]{8})$/;
const maxNotes = 2_000;

function notACopy(fileName: string, why: string): CourseAuthoringError {
  return new CourseAuthoringError("invalid_arguments", `${fileName}: is not a review copy made by export_course format docx_review (${why}); nothing was imported.`, { field: "assetId", file: fileName });
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

export async function readReviewCopy(file: OfficePackage): Promise<ReviewCopy> {
  const properties = await customProperties(file);
  const courseId = properties.get(reviewCopyPropertyNames.courseId) ?? "";
  const version = Number(properties.get(reviewCopyPropertyNames.version));
  if (!/^crs_[0-9a-z]{1,64}$/.test(courseId) || !Number.isInteger(version)) throw notACopy(file.fileName, "its document properties name no course and version");

  const commentsPart = await file.related(file.mainPart, "comments");
  const comments = new Map<string, XmlNode>();
  if (commentsPart && file.has(commentsPart)) for (const comment of childElements(await file.xml(commentsPart), "comment")) comments.set(comment.attributes.id ?? "", comment);

  const notes: ReviewNote[] = [];
  const commentAnchors = new Map<string, Anchor>();
  const passages = new Map<string, string>();
  const open = new Set<string>();
  let anchor: Anchor | undefined;
  let sawAnchor = false;
  /** This paragraph's tracked changes, by author. */
  let changes = new Map<string, { date: string | null; inserted: string; deleted: string; anchor: Anchor }>();

  const flushChanges = () => {
    for (const [author, change] of changes) {
      const inserted = change.inserted.trim();
      const deleted = change.deleted.trim();
      if (!inserted && !deleted) continue;
      const text = inserted && deleted ? `replace “${deleted}” with “${inserted}”` : inserted ? `insert “${inserted}”` : `delete “${deleted}”`;
      notes.push({ kind: "suggestion", anchor: change.anchor, author, date: change.date, text });
    }
    changes = new Map();
  };

  const visit = (node: XmlNode, inChange?: { kind: "ins" | "del"; author: string; date: string | null }) => {
    for (const child of childElements(node)) {
      switch (child.name) {
        case "bookmarkStart": {
          const match = anchorName.exec(child.attributes.name ?? "");
          if (match) {
            anchor = { id: match[1] as string, hash: match[2] as string };
            sawAnchor = true;
          }
          break;
        }
        case "commentRangeStart":
          open.add(child.attributes.id ?? "");
          if (anchor && !commentAnchors.has(child.attributes.id ?? "")) commentAnchors.set(child.attributes.id ?? "", anchor);
          break;
        case "commentRangeEnd":
          open.delete(child.attributes.id ?? "");
          break;
        case "commentReference":
          if (anchor && !commentAnchors.has(child.attributes.id ?? "")) commentAnchors.set(child.attributes.id ?? "", anchor);
          break;
        case "t":
        case "delText": {
          const text = ownText(child);
          if (child.name === "t") for (const id of open) passages.set(id, (passages.get(id) ?? "") + text);
          if (inChange && anchor) {
            const change = changes.get(inChange.author) ?? { date: inChange.date, inserted: "", deleted: "", anchor };
            if (inChange.kind === "ins" && child.name === "t") change.inserted += text;
            if (inChange.kind === "del" && child.name === "delText") change.deleted += text;
            changes.set(inChange.author, change);
          }
          break;
        }
        case "ins":
        case "del":
          visit(child, { kind: child.name, author: child.attributes.author || "Unknown reviewer", date: child.attributes.date ?? null });
          break;
        case "p":
          visit(child, inChange);
          flushChanges();
          break;
        default:
          visit(child, inChange);
      }
    }
  };
  visit(await file.xml(file.mainPart));
  if (!sawAnchor) throw notACopy(file.fileName, "it holds none of the bookmarks a review copy places on each part");

  const suggestions = notes.splice(0, notes.length);
  for (const [id, comment] of comments) {
    const commentAnchor = commentAnchors.get(id);
    if (!commentAnchor) continue;
    const text = descendants(comment, "p").map((paragraph) => textOf(paragraph, "t").trim()).filter(Boolean).join("\n\n");
    if (!text) continue;
    const passage = (passages.get(id) ?? "").trim();
    notes.push({ kind: "comment", anchor: commentAnchor, author: comment.attributes.author || "Unknown reviewer", date: comment.attributes.date ?? null, text, ...(passage ? { passage } : {}) });
  }
  notes.push(...suggestions);
  if (notes.length > maxNotes) {
    throw new CourseAuthoringError("limit_exceeded", `${file.fileName}: holds ${notes.length} comments and tracked changes; at most ${maxNotes} are brought back at once. Nothing was imported.`, { field: "assetId", file: file.fileName, limit: maxNotes });
  }
  return { courseId, version, notes };
}
