/**
 * Item statistics as Moodle's quiz statistics report defines them ("Quiz statistics calculations",
 * Moodle developer docs; checked against Moodle's own walkthrough data in
 * `test/results-moodle-statistics.test.ts`). For one question over the quiz attempts that include it,
 * with x its mark in an attempt and X the attempt's total mark:
 * - facility index F = mean(x) / max mark;
 * - standard deviation SD of x / max mark (sample, n − 1);
 * - discrimination index D = 100 × r(x, X − x), the correlation of the question's mark with the rest of the quiz;
 * - discriminative efficiency = 100 × cov(x, X − x) / cov_max, where cov_max pairs the sorted marks with the
 *   sorted rest-of-quiz marks (the largest covariance those two distributions allow);
 * - effective weight = 100 × √cov(x, X) / Σ √cov(x_j, X) over the questions (none when the covariance is negative).
 */

export interface QuizAttemptMarks {
  /** The mark of each question the attempt included, by question id. */
  readonly marks: ReadonlyMap<string, number>;
  /** The attempt's total mark. */
  readonly total: number;
}

export interface ItemStatistics {
  readonly attempts: number;
  readonly facility: number;
  readonly sd: number;
  readonly markVariance: number;
  readonly otherMarkVariance: number;
  readonly covariance: number;
  readonly covarianceMax: number;
  readonly discriminationIndex: number | null;
  readonly discriminativeEfficiency: number | null;
  readonly effectiveWeight: number | null;
}

const mean = (values: readonly number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;

function covariance(xs: readonly number[], ys: readonly number[]): number {
  if (xs.length < 2) return 0;
  const [mx, my] = [mean(xs), mean(ys)];
  let sum = 0;
  for (let index = 0; index < xs.length; index++) sum += ((xs[index] as number) - mx) * ((ys[index] as number) - my);
  return sum / (xs.length - 1);
}

/** Statistics of each question over the attempts that include it; `maxMarks` gives each question's maximum mark. */
export function itemStatistics(attempts: readonly QuizAttemptMarks[], maxMarks: ReadonlyMap<string, number>): Map<string, ItemStatistics> {
  const out = new Map<string, Omit<ItemStatistics, "effectiveWeight"> & { covarianceWithTotal: number }>();
  for (const [question, maxMark] of maxMarks) {
    const including = attempts.filter((attempt) => attempt.marks.has(question));
    if (including.length === 0) continue;
    const xs = including.map((attempt) => attempt.marks.get(question) as number);
    const rest = including.map((attempt, index) => attempt.total - (xs[index] as number));
    const totals = including.map((attempt) => attempt.total);
    const markVariance = covariance(xs, xs);
    const otherMarkVariance = covariance(rest, rest);
    const cov = covariance(xs, rest);
    const sortedX = [...xs].sort((a, b) => a - b);
    const sortedRest = [...rest].sort((a, b) => a - b);
    const covarianceMax = covariance(sortedX, sortedRest);
    const spread = Math.sqrt(markVariance * otherMarkVariance);
    out.set(question, {
      attempts: including.length,
      facility: maxMark > 0 ? mean(xs) / maxMark : 0,
      sd: maxMark > 0 ? Math.sqrt(markVariance) / maxMark : 0,
      markVariance,
      otherMarkVariance,
      covariance: cov,
      covarianceMax,
      discriminationIndex: spread > 0 ? (100 * cov) / spread : null,
      discriminativeEfficiency: covarianceMax > 0 ? (100 * cov) / covarianceMax : null,
      covarianceWithTotal: covariance(xs, totals),
    });
  }
  const weightSum = [...out.values()].reduce((sum, item) => sum + (item.covarianceWithTotal >= 0 ? Math.sqrt(item.covarianceWithTotal) : 0), 0);
  const result = new Map<string, ItemStatistics>();
  for (const [question, { covarianceWithTotal, ...item }] of out) {
    result.set(question, { ...item, effectiveWeight: covarianceWithTotal >= 0 && weightSum > 0 ? (100 * Math.sqrt(covarianceWithTotal)) / weightSum : null });
  }
  return result;
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}
