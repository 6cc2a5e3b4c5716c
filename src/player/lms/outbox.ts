/**
 * The cmi5 AU's statement outbox. Statements are queued in order and kept in `localStorage` with the session
 * they belong to, so neither an LRS outage nor a reload loses one; the queue goes out oldest first as
 * one batch (xAPI stores a batch whole or not at all, so order holds on every resend), and a statement
 * leaves the queue only once the LRS has accepted it. Transient failures (network, 408, 429, 5xx) are
 * retried with exponential back-off and jitter; 401/403 (an expired or revoked token) stop retrying,
 * since only a new launch brings a new token; any other rejection is retried one statement at a time,
 * so one statement the LRS can never accept is dropped without holding back the others.
 *
 * Each statement is sent once: a batch small enough goes out as a `keepalive` request, which outlives
 * the page, so the final send on leaving carries only what no surviving request holds. A statement is
 * sent again only after its request failed (or could not survive the page going away).
 */

type Json = Record<string, unknown>;

export interface OutboxOptions {
  /** `localStorage` key for this AU and registration. */
  readonly storageKey: string;
  /** The launch session; a queue left by another session is discarded (that session is over). */
  readonly sessionId: string;
  /** Sends a batch; `keepalive` asks for a request that outlives the page. */
  post(batch: readonly Json[], keepalive: boolean): Promise<Response>;
  /** Called with each batch the LRS accepted, in order. */
  onAccepted(batch: readonly Json[]): void;
  /** The LRS refused our credentials: nothing more will be sent in this launch. */
  onAuthLost(status: number): void;
  /** Called once when sending keeps failing, and once when it recovers. */
  onDelayed(delayed: boolean): void;
}

export interface StatementOutbox {
  /** Queues a statement (already stamped with its id and timestamp) and sends when it can. */
  enqueue(statement: Json): void;
  /** Verbs queued or sent in this session so far (kept across a reload of the same launch). */
  readonly verbs: ReadonlySet<string>;
  remember(verb: string): void;
  /** Statements not yet accepted. */
  pending(): number;
  /** The page is going away: send what is queued in one request that outlives the page. */
  flushOnLeave(): Promise<unknown>;
  /** True once the LRS refused the token. */
  readonly stopped: boolean;
}

/** What is kept in storage between pages of one session: the queue and the verbs sent once. */
interface Stored {
  sessionId: string;
  queue: Json[];
  verbs: string[];
}

const maxDelayMs = 30_000;
const firstDelayMs = 500;
// Browsers refuse keepalive bodies over 64 KiB in flight at once: ordinary batches take at most half,
// the rest is kept for the final batch on leaving (and the State document); larger ones go as ordinary requests.
const keepaliveLimit = 60_000;
const batchKeepaliveLimit = 30_000;

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** The queue a previous page of this session left, or an empty one. */
function load(options: OutboxOptions): Stored {
  try {
    const parsed = JSON.parse(storage()?.getItem(options.storageKey) ?? "null") as Partial<Stored> | null;
    if (parsed && parsed.sessionId === options.sessionId && Array.isArray(parsed.queue) && Array.isArray(parsed.verbs)) {
      return { sessionId: options.sessionId, queue: parsed.queue.filter((entry) => typeof entry === "object" && entry !== null), verbs: parsed.verbs.filter((verb) => typeof verb === "string") };
    }
  } catch {
    // A corrupted record is treated as none.
  }
  return { sessionId: options.sessionId, queue: [], verbs: [] };
}

type Outcome = "accepted" | "transient" | "auth" | "rejected";
function classify(status: number): Outcome {
  // 409: a statement with this id is already stored (an earlier send did arrive), so it is not lost.
  if ((status >= 200 && status < 300) || status === 409) return "accepted";
  if (status === 401 || status === 403) return "auth";
  if (status === 408 || status === 429 || status >= 500) return "transient";
  return "rejected";
}

/**
 * A page going away aborts its keepalive requests on its side before its pagehide listeners run (a
 * microtask checkpoint after any earlier listener delivers the rejection), yet the browser still sends
 * them. So a failure is believed one task later: leaving runs first, and its final batch leaves these out.
 */
function failOneTaskLater(error: unknown, release: () => void): Promise<Response> {
  return new Promise<Response>((_resolve, reject) => {
    setTimeout(() => {
      release();
      reject(error);
    }, 0);
  });
}

export function createStatementOutbox(options: OutboxOptions): StatementOutbox {
  const stored = load(options);
  const queue: Json[] = stored.queue;
  const verbs = new Set<string>(stored.verbs);
  let inFlight = false;
  /** Ids of statements in requests that survive the page (keepalive), and those requests' body sizes. */
  const surviving = new Set<unknown>();
  let survivingBytes = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let failures = 0;
  let oneAtATime = false;
  let stopped = false;
  let delayed = false;

  function persist(): void {
    try {
      storage()?.setItem(options.storageKey, JSON.stringify({ sessionId: options.sessionId, queue, verbs: [...verbs] }));
    } catch {
      // Storage full or unavailable: the queue still lives in memory for this page.
    }
  }
  persist();


  function schedule(): void {
    const ceiling = Math.min(maxDelayMs, firstDelayMs * 2 ** Math.min(failures - 1, 10));
    const wait = ceiling / 2 + Math.random() * (ceiling / 2);
    timer = setTimeout(() => {
      timer = null;
      pump();
    }, wait);
  }

  /** Takes statements out by id (the queue's head may be in another request). */
  function remove(batch: readonly Json[]): void {
    const ids = new Set(batch.map((statement) => statement.id));
    for (let index = queue.length - 1; index >= 0; index--) if (ids.has(queue[index]?.id)) queue.splice(index, 1);
    persist();
  }

  function settle(batch: readonly Json[], outcome: Outcome, status: number): void {
    inFlight = false;
    if (outcome === "accepted") {
      remove(batch);
      failures = 0;
      if (delayed) {
        delayed = false;
        options.onDelayed(false);
      }
      options.onAccepted(batch);
    } else if (outcome === "auth") {
      stopped = true;
      options.onAuthLost(status);
      return;
    } else if (outcome === "transient") {
      failures += 1;
      if (failures >= 3 && !delayed) {
        delayed = true;
        options.onDelayed(true);
      }
      schedule();
      return;
    } else if (batch.length > 1) {
      oneAtATime = true;
    } else {
      remove(batch);
    }
    pump();
  }

  /** Posts a batch, marking its statements as held by a surviving request while a keepalive one is out. */
  function send(batch: readonly Json[], keepalive: boolean): Promise<Response> {
    const bytes = JSON.stringify(batch).length;
    if (!keepalive) return options.post(batch, false);
    for (const statement of batch) surviving.add(statement.id);
    survivingBytes += bytes;
    const release = (): void => {
      for (const statement of batch) surviving.delete(statement.id);
      survivingBytes -= bytes;
    };
    return options.post(batch, true).then(
      (response) => {
        release();
        return response;
      },
      (error: unknown) => failOneTaskLater(error, release),
    );
  }

  const unsent = (): Json[] => queue.filter((statement) => !surviving.has(statement.id));

  function pump(): void {
    if (inFlight || stopped || timer !== null) return;
    const waiting = unsent();
    if (waiting.length === 0) return;
    const batch = oneAtATime ? waiting.slice(0, 1) : waiting;
    inFlight = true;
    send(batch, JSON.stringify(batch).length < batchKeepaliveLimit).then(
      (response) => settle(batch, classify(response.status), response.status),
      () => settle(batch, "transient", 0),
    );
  }

  // Back online: try at once rather than at the end of the current back-off.
  window.addEventListener("online", () => {
    if (timer === null) return;
    clearTimeout(timer);
    timer = null;
    pump();
  });

  return {
    enqueue(statement) {
      queue.push(statement);
      persist();
      pump();
    },
    verbs,
    remember(verb) {
      verbs.add(verb);
      persist();
    },
    pending: () => queue.length,
    flushOnLeave() {
      const batch = unsent();
      if (stopped || batch.length === 0) return Promise.resolve();
      const fits = JSON.stringify(batch).length < keepaliveLimit - survivingBytes;
      return send(batch, fits).then(
        (response) => {
          if (classify(response.status) === "accepted") {
            remove(batch);
            options.onAccepted(batch);
          }
          // Still here (the learner used Exit, or the page came back): anything refused goes out as usual.
          pump();
        },
        () => pump(),
      );
    },
    get stopped() {
      return stopped;
    },
  };
}
