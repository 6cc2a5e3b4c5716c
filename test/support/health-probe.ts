/**
 * Probing `/api/health` from another connection while a hostile request is in flight: probes go one
 * after another until the request settles, and the result says how many answered 200 before it had.
 * A request that held the event loop would leave every probe waiting until it was done; one answered
 * meanwhile shows the service kept serving. No clock is read: the order of events decides.
 */

export interface ProbedOutcome<T> {
  outcome: { ok: true; value: T } | { ok: false; error: unknown };
  /** Probes answered 200 while the request was still pending. */
  answeredWhilePending: number;
  /**
   * Probes answered 200 in all, the first sent while the request was in flight. A refusal that needs
   * no work may settle before any probe is answered: only long work can show overlap, so a test
   * asserts `answeredWhilePending` for its long inputs and `answered` for the quick ones.
   */
  answered: number;
}

export async function probeHealthWhile<T>(baseUrl: string, work: Promise<T>): Promise<ProbedOutcome<T>> {
  let pending = true;
  const settled = work.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  void settled.then(() => {
    pending = false;
  });
  let answeredWhilePending = 0;
  let answered = 0;
  while (pending) {
    const response = await fetch(`${baseUrl}/api/health`);
    await response.arrayBuffer();
    if (response.status === 200) answered += 1;
    if (response.status === 200 && pending) answeredWhilePending += 1;
  }
  return { outcome: await settled, answeredWhilePending, answered };
}
