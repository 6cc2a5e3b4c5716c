/**
 * Watching the service stay responsive while one hostile request is in flight: `/api/health` and,
 * optionally, a second user's call are each probed about every 100 ms from their own connections until
 * the request settles. The result gives, per probe, how many answered and the worst gap between two
 * answers (the first gap counted from the moment the work began, the last up to the moment it settled),
 * so a request that held the event loop shows as one long gap. The bound a test asserts is generous
 * (seconds, for a loaded 2-core machine); the gap itself is what the test's name states.
 */

export interface ProbeStats {
  /** Probes answered successfully while the work was pending. */
  answers: number;
  /** The longest time, in ms, with no successful answer while the work was pending. */
  worstGapMs: number;
  /** Probes that failed (non-2xx or a thrown call): each one a finding in itself. */
  failures: string[];
}

export interface Responsiveness<T> {
  outcome: { ok: true; value: T } | { ok: false; error: unknown };
  health: ProbeStats;
  secondUser?: ProbeStats;
  /** How long the work took, in ms. */
  workMs: number;
}

export interface WatchOptions {
  /** A call made as another user (e.g. `() => bob.call("get_course", …)`); it must succeed. */
  secondUser?: () => Promise<unknown>;
  /** Time between the starts of two probes of one kind; 100 ms unless told. */
  everyMs?: number;
}

async function probeLoop(probe: () => Promise<void>, isPending: () => boolean, startedAt: number, everyMs: number): Promise<ProbeStats> {
  const stats: ProbeStats = { answers: 0, worstGapMs: 0, failures: [] };
  let lastAnswerAt = startedAt;
  while (isPending()) {
    const sentAt = performance.now();
    try {
      await probe();
      if (!isPending()) break;
      const now = performance.now();
      stats.answers += 1;
      stats.worstGapMs = Math.max(stats.worstGapMs, now - lastAnswerAt);
      lastAnswerAt = now;
    } catch (error) {
      stats.failures.push(error instanceof Error ? error.message : String(error));
    }
    const wait = sentAt + everyMs - performance.now();
    if (wait > 0 && isPending()) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  return { ...stats, worstGapMs: Math.max(stats.worstGapMs, performance.now() - lastAnswerAt) };
}

/** Runs the probes while `work` is pending and reports what they saw. */
export async function watchResponsiveness<T>(service: { url: string }, work: Promise<T>, options: WatchOptions = {}): Promise<Responsiveness<T>> {
  const everyMs = options.everyMs ?? 100;
  const startedAt = performance.now();
  let pending = true;
  let settledAt = startedAt;
  const settled = work.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  void settled.then(() => {
    pending = false;
    settledAt = performance.now();
  });
  const isPending = () => pending;
  const healthProbe = async () => {
    const response = await fetch(`${service.url}/api/health`);
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`/api/health answered ${response.status}`);
  };
  const secondUser = options.secondUser;
  const [health, second] = await Promise.all([
    probeLoop(healthProbe, isPending, startedAt, everyMs),
    secondUser
      ? probeLoop(
          async () => {
            await secondUser();
          },
          isPending,
          startedAt,
          everyMs,
        )
      : Promise.resolve(undefined),
  ]);
  const outcome = await settled;
  return { outcome, health, ...(second ? { secondUser: second } : {}), workMs: settledAt - startedAt };
}

/**
 * Throws, saying what was seen, unless health (and the second user, when probed) answered with no gap
 * longer than `maxGapMs` and no failed probe.
 */
export function assertResponsive(seen: Responsiveness<unknown>, maxGapMs: number): void {
  const problems: string[] = [];
  for (const [name, stats] of [["/api/health", seen.health], ["the second user", seen.secondUser]] as const) {
    if (!stats) continue;
    if (stats.failures.length > 0) problems.push(`${name}: ${stats.failures.length} failed probes (${stats.failures[0]})`);
    if (stats.worstGapMs > maxGapMs) problems.push(`${name}: worst gap ${Math.round(stats.worstGapMs)} ms over ${maxGapMs} ms (${stats.answers} answers in ${Math.round(seen.workMs)} ms of work)`);
  }
  if (problems.length > 0) throw new Error(`the service stalled while the work ran: ${problems.join("; ")}`);
}
