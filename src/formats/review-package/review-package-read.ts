/**
 * The review package (export_course format `html_review`), reading side: the comments file a reviewer
 * saved ("Save comments") read back, bounded. Recognised by its content (a JSON object naming its
 * format), refused whole when it breaks a rule — over 50 MB, over 100,000 comments, a comment without a
 * block anchor, text over its limit, a reply to a comment the file does not hold — so nothing of a bad
 * file is half-imported. Names and texts are kept as the reviewer typed them: they are data, shown as
 * text wherever they go.
 */
import * as v from "valibot";
import { readJson } from "../../codecs/json.ts";
import { CourseAuthoringError } from "../../course-authoring-error.ts";
import { reviewCommentKinds, reviewCommentsFormat, reviewCommentsFormatVersion, type ReviewCommentsFile } from "../../page-contract/review.ts";

export const reviewFileLimits = {
  bytes: 50 * 1024 * 1024,
  comments: 100_000,
  textCharacters: 5000,
  quoteCharacters: 500,
  authorCharacters: 200,
} as const;

const idText = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,100}$/, "must be letters, digits, - or _ (at most 100)"));
const blockId = v.pipe(v.string(), v.regex(/^blk_[0-9a-z]{1,64}$/, "must be a block ID (blk_…)"));

const commentSchema = v.object({
  id: idText,
  anchor: v.object({ id: blockId, hash: v.pipe(v.string(), v.regex(/^[0-9a-f]{8}$/, "must be the block's 8-digit content hash")) }),
  kind: v.picklist(reviewCommentKinds, `must be one of ${reviewCommentKinds.join(", ")}`),
  text: v.pipe(v.string(), v.trim(), v.nonEmpty("must not be empty"), v.maxLength(reviewFileLimits.textCharacters, `must be at most ${reviewFileLimits.textCharacters} characters`)),
  author: v.pipe(v.string(), v.trim(), v.nonEmpty("must name the reviewer"), v.maxLength(reviewFileLimits.authorCharacters, `must be at most ${reviewFileLimits.authorCharacters} characters`)),
  createdAt: v.pipe(v.string(), v.maxLength(40, "must be a date and time")),
  quote: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(reviewFileLimits.quoteCharacters, `must be at most ${reviewFileLimits.quoteCharacters} characters`))),
  choice: v.optional(v.pipe(v.number(), v.integer("must be a whole number"), v.minValue(0, "must be 0 or more"), v.maxValue(99, "must be below 100"))),
  choiceText: v.optional(v.pipe(v.string(), v.maxLength(reviewFileLimits.textCharacters, "is too long"))),
  videoTime: v.optional(v.pipe(v.number(), v.minValue(0, "must be 0 or more"), v.maxValue(360_000, "must be under 100 hours"))),
  replyTo: v.optional(idText),
});

const fileSchema = v.object({
  format: v.literal(reviewCommentsFormat),
  formatVersion: v.literal(reviewCommentsFormatVersion),
  roundId: v.pipe(v.string(), v.regex(/^rnd_[0-9a-z]{1,64}$/, "must be a review round ID (rnd_…)")),
  courseId: v.pipe(v.string(), v.regex(/^crs_[0-9a-z]{1,64}$/, "must be a course ID (crs_…)")),
  courseTitle: v.pipe(v.string(), v.maxLength(1000, "is too long")),
  courseVersion: v.pipe(v.number(), v.integer("must be a whole number"), v.minValue(0, "must be 0 or more")),
  reviewer: v.pipe(v.string(), v.trim(), v.maxLength(reviewFileLimits.authorCharacters, `must be at most ${reviewFileLimits.authorCharacters} characters`)),
  savedAt: v.pipe(v.string(), v.maxLength(40, "must be a date and time")),
  comments: v.array(commentSchema),
});

function refused(fileName: string, why: string, code: "invalid_arguments" | "limit_exceeded" = "invalid_arguments", details: Record<string, unknown> = {}): CourseAuthoringError {
  return new CourseAuthoringError(code, `assetId: ${fileName} ${why}; nothing was imported.`, { field: "assetId", file: fileName, ...details });
}

/** Whether the bytes look like a review package's comments file: a JSON object (after any byte-order mark and spaces). */
export function isReviewCommentsFile(bytes: Uint8Array): boolean {
  let index = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (index < bytes.length && index < 4096 && [0x20, 0x09, 0x0a, 0x0d].includes(bytes[index] ?? 0)) index += 1;
  return bytes[index] === 0x7b;
}

/** The file read and checked as a whole; throws a tool error naming the rule it breaks. */
export async function readReviewComments(file: { fileName: string; bytes: Uint8Array }): Promise<ReviewCommentsFile> {
  const { fileName, bytes } = file;
  if (bytes.byteLength > reviewFileLimits.bytes) {
    throw refused(fileName, `is ${bytes.byteLength} bytes; a comments file is at most ${reviewFileLimits.bytes / 1024 / 1024} MB`, "limit_exceeded", { limit: reviewFileLimits.bytes });
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw refused(fileName, "is not UTF-8 text, so it is not a comments file saved from a review package");
  }
  let parsed: unknown;
  try {
    parsed = await readJson(text.replace(/^\uFEFF/, ""), {
      field: "assetId",
      limits: { maxLength: reviewFileLimits.bytes, maxDepth: 8, maxMembers: reviewFileLimits.comments, maxMembersInAll: reviewFileLimits.comments * 16, maxStringLength: 64 * 1024, maxKeyLength: 64 },
    });
  } catch (error) {
    if (error instanceof CourseAuthoringError && error.details?.limit === "maxMembers") {
      throw refused(fileName, `holds more than ${reviewFileLimits.comments} comments; a comments file holds at most ${reviewFileLimits.comments}`, "limit_exceeded", { limit: reviewFileLimits.comments });
    }
    if (error instanceof CourseAuthoringError) throw refused(fileName, `is not a comments file of a review package: ${error.message.replace(/^assetId: /, "")}`, error.code === "limit_exceeded" ? "limit_exceeded" : "invalid_arguments");
    throw error;
  }
  if (typeof parsed !== "object" || parsed === null || (parsed as { format?: unknown }).format !== reviewCommentsFormat) {
    throw refused(fileName, `is not a comments file saved from a review package (export_course format html_review): it does not say "format": "${reviewCommentsFormat}"`);
  }
  const result = v.safeParse(fileSchema, parsed);
  if (!result.success) {
    const issue = result.issues[0];
    const path = issue?.path?.map((item) => String(item.key)).join(".") ?? "";
    throw refused(fileName, `breaks the comments file's rules at ${path || "its top level"}: ${issue?.message ?? "invalid"}`);
  }
  // A reply follows the comment it answers, so threads have no loops.
  const ids = new Set<string>();
  for (const comment of result.output.comments) {
    if (ids.has(comment.id)) throw refused(fileName, `holds comment ${comment.id} twice; each comment has its own id`);
    if (comment.replyTo !== undefined && !ids.has(comment.replyTo)) throw refused(fileName, `holds comment ${comment.id}, a reply to ${comment.replyTo}, which does not come before it in the file`);
    ids.add(comment.id);
  }
  return result.output as ReviewCommentsFile;
}
