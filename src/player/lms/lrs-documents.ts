/**
 * Reading and writing the xAPI documents a cmi5 AU uses (`LMS.LaunchData`, its own State document).
 * Reads retry transient failures a few
 * times before the AU gives up on the launch; the progress document is written one request at a time,
 * latest wins, and a write that fails transiently is retried with back-off so progress is not lost to a
 * short outage. A 401/403 is reported once and ends the writes.
 */

export interface LrsDocumentOptions {
  headers(): Record<string, string>;
  /** The LRS refused our credentials. */
  onAuthLost(): void;
}

export interface LrsDocuments {
  /** GET a JSON document; `body` is null when it is missing (404), unreadable or could not be fetched. */
  read(url: string): Promise<{ status: number; body: unknown }>;
  /** Schedules a PUT of `body()` (read when the request is made, so the latest state is sent). */
  save(url: string, body: () => string): void;
  /** A PUT that outlives the page, for when the learner leaves. */
  saveOnLeave(url: string, body: string): Promise<unknown>;
}

export function createLrsDocuments(options: LrsDocumentOptions): LrsDocuments {
  const isTransient = (status: number): boolean => status === 0 || status === 408 || status === 429 || status >= 500;
  const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
  let inFlight = false;
  let dirty = false;
  let failures = 0;
  let stopped = false;
  let pending: { url: string; body: () => string } | null = null;

  async function read(url: string): Promise<{ status: number; body: unknown }> {
    let status = 0;
    for (let attempt = 0; attempt < 5; attempt++) {
      if (attempt > 0) await wait(400 * 2 ** attempt);
      try {
        const response = await fetch(url, { headers: options.headers() });
        status = response.status;
        if (response.ok) return { status, body: await response.json().catch(() => null) };
        if (!isTransient(status)) return { status, body: null };
      } catch {
        status = 0;
      }
    }
    return { status, body: null };
  }

  function write(): void {
    if (inFlight || stopped || !pending) return;
    const target = pending;
    dirty = false;
    inFlight = true;
    const done = (status: number): void => {
      inFlight = false;
      if (status === 401 || status === 403) {
        stopped = true;
        options.onAuthLost();
        return;
      }
      if (isTransient(status)) {
        failures += 1;
        void wait(Math.min(30_000, 500 * 2 ** Math.min(failures, 6))).then(write);
        return;
      }
      failures = 0;
      if (dirty) write();
    };
    fetch(target.url, { method: "PUT", headers: options.headers(), body: target.body() }).then(
      (response) => done(response.status),
      () => done(0),
    );
  }

  return {
    read,
    save(url, body) {
      pending = { url, body };
      dirty = true;
      write();
    },
    saveOnLeave(url, body) {
      if (stopped) return Promise.resolve();
      return fetch(url, { method: "PUT", headers: options.headers(), body, keepalive: true }).catch(() => undefined);
    },
  };
}
