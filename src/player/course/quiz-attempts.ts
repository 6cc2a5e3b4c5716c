/**
 * Question pools and shuffled choices at play time: the draw for an attempt (spread across objectives when asked, and never the same
 * set twice running when the pool allows another), the order of a question's choices (fixed ones keep
 * their place), and the compact JSON an attempt is saved as. SCORM 1.2 leaves 4,096 characters of
 * `suspend_data` for the whole course, so an attempt is arrays of numbers and short strings, not objects.
 */

/** One drawn question of an attempt, in the order shown. */
export interface AttemptEntry {
  /** Index of the question in the lesson's pool (authored order). */
  readonly question: number;
  /** Choice questions: the authored index shown at each place; empty when not shuffled. */
  readonly order: readonly number[];
  /** The answer in the quiz script's own form (a string, or one string per blank). */
  readonly answer: string | readonly string[];
  /** Checked on its own (immediate feedback), so it stays locked. */
  readonly checked: boolean;
}

export interface Attempt {
  readonly submitted: boolean;
  readonly entries: readonly AttemptEntry[];
}

/** What a saved attempt must fit: the pool's size and, per question, how many choices it has. */
export interface PoolShape {
  readonly drawSize: number;
  readonly choiceCounts: readonly number[];
}

export interface AttemptTools {
  draw(objectives: readonly (readonly string[])[], count: number | null, byObjective: boolean, previous: readonly number[] | null): number[];
  shuffle(fixed: readonly boolean[]): number[];
  encode(attempt: Attempt): unknown;
  /** The attempt, or null when the value is not one that fits this pool (damaged or hand-edited). */
  decode(value: unknown, shape: PoolShape): Attempt | null;
}

/** `Array.isArray`, which the quiz scripts call a dozen times on saved and sealed JSON. */
export const { isArray } = Array;

/**
 * One character per index (0-35, base 36) in a saved attempt's orders and answers; the quiz writes answers
 * with them too. No question has 36 parts (the schemas allow at most 30 items and 20 choices).
 */
export const digitOf = (index: number): string => index.toString(36);
/** The index a digit stands for; -1 for any other character. */
export const indexOfDigit = (digit: string): number => "0123456789abcdefghijklmnopqrstuvwxyz".indexOf(digit);

export function createAttemptTools(): AttemptTools {
  const randomBelow = (limit: number): number => {
    const values = new Uint32Array(1);
    crypto.getRandomValues(values);
    return (values[0] as number) % limit;
  };

  function shuffled<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let index = copy.length - 1; index > 0; index--) {
      const other = randomBelow(index + 1);
      [copy[index], copy[other]] = [copy[other] as T, copy[index] as T];
    }
    return copy;
  }

  /** Picks round-robin from one bucket per objective (questions without one share a bucket), each bucket shuffled. */
  function spreadDraw(objectives: readonly (readonly string[])[], count: number): number[] {
    const buckets = new Map<string, number[]>();
    objectives.forEach((ids, question) => {
      for (const id of ids.length > 0 ? ids : [""]) buckets.set(id, [...(buckets.get(id) ?? []), question]);
    });
    const queues = shuffled([...buckets.values()].map((bucket) => shuffled(bucket)));
    const picked = new Set<number>();
    while (picked.size < count) {
      let progressed = false;
      for (const queue of queues) {
        while (queue.length > 0 && picked.has(queue[0] as number)) queue.shift();
        const next = queue.shift();
        if (next === undefined || picked.size >= count) continue;
        picked.add(next);
        progressed = true;
      }
      if (!progressed) break;
    }
    return [...picked];
  }

  function draw(objectives: readonly (readonly string[])[], count: number | null, byObjective: boolean, previous: readonly number[] | null): number[] {
    const size = objectives.length;
    const all = objectives.map((_, index) => index);
    if (count === null || count >= size) return all;
    const take = (): number[] => (byObjective ? spreadDraw(objectives, count) : shuffled(all).slice(0, count)).sort((a, b) => a - b);
    let picked = take();
    const same = (candidate: readonly number[]): boolean => previous !== null && candidate.length === previous.length && candidate.every((value, index) => value === previous[index]);
    for (let tries = 0; tries < 20 && same(picked); tries++) picked = take();
    return picked;
  }

  function shuffle(fixed: readonly boolean[]): number[] {
    const movable = shuffled(fixed.flatMap((isFixed, index) => (isFixed ? [] : [index])));
    return fixed.map((isFixed, index) => (isFixed ? index : (movable.shift() as number)));
  }

  function encode(attempt: Attempt): unknown {
    const entries = attempt.entries.map((entry) => {
      const row: unknown[] = [entry.question, entry.order.map(digitOf).join(""), entry.answer];
      if (entry.checked) row.push(1);
      return row;
    });
    return [attempt.submitted ? 1 : 0, entries];
  }

  function isPermutation(values: readonly number[], size: number): boolean {
    return values.length === size && new Set(values).size === size && values.every((value) => value >= 0 && value < size);
  }

  function decode(value: unknown, shape: PoolShape): Attempt | null {
    if (!isArray(value) || value.length !== 2 || (value[0] !== 0 && value[0] !== 1) || !isArray(value[1])) return null;
    const rows = value[1] as unknown[];
    if (rows.length !== shape.drawSize) return null;
    const entries: AttemptEntry[] = [];
    for (const row of rows) {
      if (!isArray(row) || row.length < 3 || row.length > 4) return null;
      const [question, orderText, answer, checked] = row as unknown[];
      if (typeof question !== "number" || !Number.isInteger(question) || question < 0 || question >= shape.choiceCounts.length) return null;
      if (typeof orderText !== "string" || (checked !== undefined && checked !== 1)) return null;
      const order = Array.from(orderText, indexOfDigit);
      if (order.length > 0 && !isPermutation(order, shape.choiceCounts[question] ?? 0)) return null;
      const answerOk = typeof answer === "string" ? answer.length <= 200 : isArray(answer) && answer.length <= 20 && answer.every((part) => typeof part === "string" && part.length <= 500);
      if (!answerOk) return null;
      entries.push({ question, order, answer: answer as string | string[], checked: checked === 1 });
    }
    if (new Set(entries.map((entry) => entry.question)).size !== entries.length) return null;
    return { submitted: value[0] === 1, entries };
  }

  return { draw, shuffle, encode, decode };
}
