/**
 * Manual accessibility answers (`set_accessibility_review`): per WCAG criterion a level from the
 * catalogue's terms, remarks kept as plain text, who and when, and a hash of the blocks the answer
 * covers. When those blocks change, the answer is stale: shown, dated, but no longer deciding the level.
 */
import * as v from "valibot";
import { conformanceTerms, wcagCriterion, type ConformanceTerm } from "../../formats/openacr/catalogue.ts";
import type { JsonObject } from "../../store/types.ts";
import type { WalkedCourse } from "../validation/course-walk.ts";
import { criterionSpecs } from "./criteria.ts";

export interface StoredManualAnswer {
  readonly level: ConformanceTerm;
  readonly remarks: string;
  readonly by: string;
  readonly at: string;
  readonly blocksHash: string;
}

const storedSchema = v.record(
  v.string(),
  v.object({ level: v.picklist(conformanceTerms), remarks: v.string(), by: v.string(), at: v.string(), blocksHash: v.string() }),
);

export function storedAnswers(value: JsonObject | null | undefined): Record<string, StoredManualAnswer> {
  const parsed = v.safeParse(storedSchema, value ?? {});
  return parsed.success ? parsed.output : {};
}

/** FNV-1a (64-bit) over the covered blocks' IDs, types and bodies in course order. */
function hashText(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (let index = 0; index < text.length; index++) {
    hash ^= BigInt(text.charCodeAt(index));
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, "0");
}

/** The hash of the blocks an answer for `criterionId` covers. */
export function coveredBlocksHash(criterionId: string, course: WalkedCourse): string {
  const types = criterionSpecs[criterionId]?.covers;
  const parts: string[] = [];
  for (const module of course.modules) {
    for (const lesson of module.lessons) {
      for (const { row } of lesson.blocks) if (!types || types.includes(row.type)) parts.push(`${row.id}\u0000${row.type}\u0000${JSON.stringify(row.body)}`);
    }
  }
  return hashText(parts.join("\u0001"));
}

/** Refuses a criterion that is not a WCAG 2.2 success criterion of the catalogue, naming the rule. */
export function assertKnownCriterion(criterionId: string): void {
  if (!wcagCriterion(criterionId)) {
    throw new ManualAnswerError("criterion", `${criterionId} is not a WCAG 2.2 success criterion of the VPAT 2.5 catalogue (2.5-edition-wcag-2.2-508-eu-en); give one such as 1.1.1 or 2.4.6`);
  }
}

/** Not Evaluated is reserved for Level AAA by the VPAT 2.5 catalogue. */
export function assertLevelAllowed(criterionId: string, level: ConformanceTerm): void {
  if (level === "not-evaluated" && wcagCriterion(criterionId)?.level !== "AAA") {
    throw new ManualAnswerError("level", `not-evaluated is only allowed for Level AAA criteria in the VPAT 2.5 catalogue; ${criterionId} is Level ${wcagCriterion(criterionId)?.level}: give supports, partially-supports, does-not-support or not-applicable`);
  }
}

export class ManualAnswerError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}
