/**
 * The work one course or one user may put on the service: per course its content bytes, blocks and
 * lessons; per user the asset bytes stored in their courses, their courses and their kept export
 * packages. The values come in as plain data from the composition root (`service.ts` reads them from
 * the environment); every refusal is a `limit_exceeded` error that names the limit, its setting, its
 * value, the current use and what to do, and it is thrown inside the call's transaction, so nothing
 * of the refused write remains.
 */
import { CourseAuthoringError } from "../course-authoring-error.ts";

export interface AuthoringLimits {
  /** UTF-8 bytes of one course's block content (the blocks' stored JSON). */
  courseContentBytes: number;
  courseBlocks: number;
  courseLessons: number;
  /** Bytes of the assets in the courses one user owns (an asset copied into two courses counts twice). */
  userAssetBytes: number;
  /** Courses one user owns. */
  userCourses: number;
  /** Export packages one user has built that are still kept (not yet expired). */
  userExports: number;
  /**
   * Bytes of one course's history (its revisions' stored changes). Never a refusal: past it the oldest
   * revisions are squashed into a baseline (see history-budget.ts).
   */
  courseHistoryBytes: number;
}

export type LimitName = keyof AuthoringLimits;

/**
 * Far above any real course (a long course is a few hundred lessons and a few MB of text), yet small
 * enough that one course renders and exports in seconds with bounded memory.
 */
export const defaultAuthoringLimits: AuthoringLimits = {
  courseContentBytes: 16 * 1024 * 1024,
  courseBlocks: 20_000,
  courseLessons: 2_000,
  userAssetBytes: 2 * 1024 * 1024 * 1024,
  userCourses: 1_000,
  userExports: 100,
  courseHistoryBytes: 50 * 1024 * 1024,
};

interface LimitDescription {
  /** The environment variable that sets it. */
  readonly setting: string;
  /** What is counted, in words: "content bytes in course crs_1". */
  readonly what: (scope: string) => string;
  readonly unit: string;
  /** How to get back under it. */
  readonly remedy: string;
}

export const limitDescriptions: Record<LimitName, LimitDescription> = {
  courseContentBytes: {
    setting: "LIMIT_COURSE_CONTENT_BYTES",
    what: (scope) => `block content of course ${scope}`,
    unit: "bytes",
    remedy: "Shorten or remove blocks, or split the course into two courses.",
  },
  courseBlocks: {
    setting: "LIMIT_COURSE_BLOCKS",
    what: (scope) => `blocks in course ${scope}`,
    unit: "blocks",
    remedy: "Merge or remove blocks, or split the course into two courses.",
  },
  courseLessons: {
    setting: "LIMIT_COURSE_LESSONS",
    what: (scope) => `lessons in course ${scope}`,
    unit: "lessons",
    remedy: "Merge or remove lessons, or split the course into two courses.",
  },
  userAssetBytes: {
    setting: "LIMIT_USER_ASSET_BYTES",
    what: (scope) => `asset storage of the courses user ${scope} owns`,
    unit: "bytes",
    remedy: "Delete courses you no longer need (their assets go with them) or use smaller files.",
  },
  userCourses: {
    setting: "LIMIT_USER_COURSES",
    what: (scope) => `courses owned by user ${scope}`,
    unit: "courses",
    remedy: "Delete courses you no longer need with delete_course.",
  },
  userExports: {
    setting: "LIMIT_USER_EXPORTS",
    what: (scope) => `kept export packages built by user ${scope}`,
    unit: "packages",
    remedy: "Use the packages already built (resources/read of their course://…/exports/… URI); each is removed when it expires.",
  },
  courseHistoryBytes: {
    setting: "HISTORY_BUDGET_BYTES",
    what: (scope) => `history of course ${scope}`,
    unit: "bytes",
    remedy: "Older revisions are squashed automatically; nothing needs to be done.",
  },
};

/**
 * The refusal: "LIMIT_COURSE_BLOCKS (20000 blocks) would be exceeded: current use (blocks in course crs_1)
 * is 19999 blocks and this call adds 5. …". `current` is the use before the call, `adding` what it would add.
 */
export function limitExceededError(name: LimitName, limit: number, scope: string, current: number, adding: number, extra = ""): CourseAuthoringError {
  const described = limitDescriptions[name];
  return new CourseAuthoringError(
    "limit_exceeded",
    `${described.setting} (${limit} ${described.unit}) would be exceeded: current use (${described.what(scope)}) is ${current} ${described.unit} and this call adds ${adding}. ` +
      `Nothing was changed. ${described.remedy}${extra} An operator can raise ${described.setting}.`,
    { limit: name, setting: described.setting, value: limit, current, adding, unit: described.unit },
  );
}

/** Throws when adding `adding` to `current` passes `limit`; shrinking, or standing still, is always allowed. */
export function assertWithinLimit(name: LimitName, limit: number, scope: string, current: number, adding: number): void {
  if (adding > 0 && current + adding > limit) throw limitExceededError(name, limit, scope, current, adding);
}
