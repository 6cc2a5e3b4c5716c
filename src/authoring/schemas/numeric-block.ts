/**
 * The numeric question: a number answer that is right when it equals `value`, lies within `tolerance` of
 * it (absolute, or percent of the value), or lies in `min`…`max`. The learner types it with the course
 * language's decimal separator (`2,5` in German); the player reads it, the answer here is a JSON number.
 * A tolerance or range so wide it makes (nearly) every answer right is refused: the question would test nothing.
 */
import * as v from "valibot";
import { markdownField, shortTextField } from "./fields.ts";
import { issueAt } from "./issue-path.ts";
import { questionEntries } from "./question-blocks.ts";

/** The largest number a numeric question names or accepts: a learner types no more, and a range reaching both ends accepts everything. */
export const numericLimit = 1e12;

const numberField = (what: string) =>
  v.pipe(
    v.number("must be a number"),
    v.minValue(-numericLimit, `must be between -${numericLimit} and ${numericLimit}`),
    v.maxValue(numericLimit, `must be between -${numericLimit} and ${numericLimit}`),
    v.description(what),
  );

export const toleranceModes = ["absolute", "percent"] as const;

const numericFields = v.object({
  type: v.literal("numeric"),
  ...questionEntries,
  value: v.optional(numberField("The right answer; with tolerance, the middle of the accepted range. Give value, or min and max.")),
  tolerance: v.optional(v.pipe(v.number("must be a number"), v.minValue(0, "must be 0 or more (a tolerance below zero accepts nothing)"), v.description("How far from value an answer may be and still be right."))),
  toleranceMode: v.optional(v.picklist(toleranceModes, `must be one of ${toleranceModes.join(", ")}`)),
  min: v.optional(numberField("Lowest right answer (with max, instead of value).")),
  max: v.optional(numberField("Highest right answer (with min, instead of value).")),
  unit: v.optional(v.pipe(shortTextField(40), v.description('Shown after the answer field ("ml", "€"); not typed by the learner.'))),
  correctFeedback: v.optional(markdownField()),
  incorrectFeedback: v.optional(markdownField()),
});
export type NumericFields = v.InferOutput<typeof numericFields>;

/** The accepted answers as a closed range [low, high]. */
export function numericRange(question: Pick<NumericFields, "value" | "tolerance" | "toleranceMode" | "min" | "max">): [number, number] {
  if (question.value === undefined) return [question.min ?? 0, question.max ?? 0];
  const tolerance = question.tolerance ?? 0;
  const spread = question.toleranceMode === "percent" ? (Math.abs(question.value) * tolerance) / 100 : tolerance;
  return [question.value - spread, question.value + spread];
}

type Report = (path: readonly (string | number)[], message: string) => void;

function checkTolerance(question: NumericFields, report: Report): void {
  const tolerance = question.tolerance ?? 0;
  if (question.toleranceMode === "percent" && tolerance >= 100) {
    report(["tolerance"], "a percent tolerance must be below 100: at 100 % or more every answer from 0 to twice the value (or beyond) is right");
    return;
  }
  const value = question.value ?? 0;
  const widest = Math.max(Math.abs(value), 1) * 100;
  if (question.toleranceMode !== "percent" && tolerance >= widest) {
    report(["tolerance"], `must be below ${widest} (100 times the value, or 100 near zero): a tolerance this wide makes nearly every answer right`);
  }
}

export const numericBlock = v.pipe(
  numericFields,
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const question = dataset.value;
    const report = issueAt(addIssue, question);
    const ranged = question.min !== undefined || question.max !== undefined;
    if (question.value === undefined && !ranged) {
      report(["value"], "give the right answer as value (optionally with tolerance), or as a range with min and max");
      return;
    }
    if (question.value !== undefined && ranged) {
      report(["value"], "give value (with tolerance) or min and max, not both");
      return;
    }
    if (question.value === undefined) {
      if (question.min === undefined) report(["min"], "a range needs both min and max");
      else if (question.max === undefined) report(["max"], "a range needs both min and max");
      else if (question.min > question.max) report(["max"], `must be at least min (${question.min})`);
      else if (question.min <= -numericLimit && question.max >= numericLimit) report(["min"], "a range from the lowest to the highest number makes every answer right");
      if (question.tolerance !== undefined || question.toleranceMode !== undefined) report(["tolerance"], "tolerance goes with value, not with min and max");
      return;
    }
    checkTolerance(question, report);
  }),
);
