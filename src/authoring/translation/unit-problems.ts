/**
 * A write of many units is checked whole and refused naming every bad unit, not just the first: a
 * translator who lost inline codes in seven units fixes all seven before the next import. The list is
 * bounded (the first `unitProblemsListed`, then how many more) so the error stays a small result.
 */
import { CourseAuthoringError } from "../errors.ts";

export const unitProblemsListed = 20;

export interface UnitProblem {
  unitId: string;
  /** The argument path to fix (`units[3].target`), or the argument itself (`xliff`). */
  field: string;
  /** Reads after "unit <ID> ": "adds a link to …", "must keep {{1}} …", "is given twice", or ": inline code 2 … is missing". */
  reason: string;
}

/** Collects problems while a write is checked; `throwIfAny` refuses the write when there is one. */
export class UnitProblems {
  readonly list: UnitProblem[] = [];

  /** `field`: the argument the units came in (`units`, `xliff`), for problems found without a finer place. */
  constructor(readonly field: string) {}

  add(problem: UnitProblem): void {
    this.list.push(problem);
  }

  throwIfAny(advice: string): void {
    if (this.list.length === 0) return;
    throw unitProblemsError(this.field, this.list, advice);
  }
}

export function unitProblemsError(field: string, problems: readonly UnitProblem[], advice: string): CourseAuthoringError {
  const listed = problems.slice(0, unitProblemsListed);
  const more = problems.length - listed.length;
  const lines = listed.map((problem) => `- ${problem.field === field ? "" : `${problem.field}: `}unit ${problem.unitId}${problem.reason.startsWith(":") ? "" : " "}${problem.reason}`);
  const tail = more > 0 ? `\n- and ${more} more unit(s) (fix these and send again to see them)` : "";
  const count = problems.length === 1 ? "1 unit is" : `${problems.length} units are`;
  return new CourseAuthoringError("invalid_arguments", `${field}: ${count} refused, nothing was written. ${advice}\n${lines.join("\n")}${tail}`, {
    field,
    unitId: listed[0]?.unitId,
    units: listed.map((problem) => ({ unitId: problem.unitId, field: problem.field, reason: problem.reason.replace(/^: /, "") })),
    moreUnits: more,
  });
}
