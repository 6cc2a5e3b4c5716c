/**
 * Item statistics against Moodle's own walkthrough data (../shared/fixtures/moodle-quiz-statistics, read in
 * place): 25 attempts at a 7-question quiz and what Moodle's statistics report says per slot. Every column
 * of every slot must match to 1e-6 (relative, for the percentages).
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { itemStatistics, type QuizAttemptMarks } from "../src/review/results/item-statistics.ts";

const fixtures = join(import.meta.dir, "../../../shared/fixtures/moodle-quiz-statistics");
const fixtureDir = [fixtures, "/work/shared/fixtures/moodle-quiz-statistics"].find((dir) => {
  try {
    readFileSync(join(dir, "results00.csv"));
    return true;
  } catch {
    return false;
  }
}) as string;

function csv(name: string): Record<string, number>[] {
  const [head, ...rows] = readFileSync(join(fixtureDir, name), "utf8").trim().split(/\r?\n/);
  const names = (head as string).split(",");
  return rows.map((row) => Object.fromEntries(row.split(",").map((cell, index) => [names[index] as string, Number(cell)])));
}

test("facility, SD, effective weight, covariances, discrimination index and efficiency match Moodle's for every slot", () => {
  const results = csv("results00.csv");
  const expected = csv("qstats00.csv");
  const slots = expected.map((row) => String(row.slot));
  const attempts: QuizAttemptMarks[] = results.map((row) => ({ marks: new Map(slots.map((slot) => [slot, row[`slots.${slot}.mark`] as number])), total: slots.reduce((sum, slot) => sum + (row[`slots.${slot}.mark`] as number), 0) }));
  // The total is the sum of the slot marks: summarks is rounded to 5 decimals in the file (4.33333), Moodle sums the marks.
  const stats = itemStatistics(attempts, new Map(slots.map((slot) => [slot, 1])));
  const close = (actual: number | null | undefined, wanted: number, scale = 1) => expect(Math.abs((actual ?? Number.NaN) - wanted)).toBeLessThan(1e-6 * scale);
  for (const row of expected) {
    const item = stats.get(String(row.slot));
    expect(item).toBeDefined();
    close(item?.facility, row.facility as number);
    close(item?.sd, row.sd as number);
    close(item?.markVariance, row.markvariance as number);
    close(item?.otherMarkVariance, row.othermarkvariance as number);
    close(item?.covariance, row.covariance as number);
    close(item?.covarianceMax, row.covariancemax as number);
    close(item?.discriminationIndex, row.discriminationindex as number, 100);
    close(item?.discriminativeEfficiency, row.discriminativeefficiency as number, 100);
    close(item?.effectiveWeight, row.effectiveweight as number, 100);
  }
});
