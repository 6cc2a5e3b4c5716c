/**
 * Answers to the server's own requests (an elicitation, a sampling or roots request) of a 2025 session,
 * across replicas. The server waiting for the answer lives on the replica that sent the request; the
 * client POSTs its JSON-RPC response to whichever replica the balancer picks. A replica that receives a
 * response it is not waiting for appends it to the session's relay stream in the shared event store
 * (PostgreSQL: the append NOTIFYs every replica), and the replica that sent the request, which watches
 * that stream while it waits, delivers it to its server. Outgoing request ids are made unique
 * (session-transport.ts), so an answer can only ever reach the request it was written for.
 */
import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import type { StreamEventStore } from "../store/stream-events.ts";
import type { JsonObject } from "../store/types.ts";
import type { Logger } from "../log.ts";

/** The relay's stream in each session: never a stream a client reads. */
export const serverRequestAnswersStream = "_server_request_answers";
const readBatch = 100;

export interface ServerRequestRelay {
  /**
   * Watches the session's relay stream, handing each answer found to `deliver`, until the returned stop is
   * called. Resolves once watching is in effect, so an answer appended after it is never missed.
   */
  watch(sessionId: string, deliver: (message: JSONRPCMessage) => void): Promise<() => void>;
  /** Passes a client's response on to the replica waiting for it. */
  forward(sessionId: string, message: JSONRPCMessage): Promise<void>;
}

/** A JSON-RPC response (result or error to a request of ours), or a batch of nothing else. */
export function responsesOf(parsedBody: unknown): JSONRPCMessage[] | undefined {
  const messages = Array.isArray(parsedBody) ? parsedBody : [parsedBody];
  if (messages.length === 0) return undefined;
  for (const message of messages) {
    if (typeof message !== "object" || message === null || "method" in message || !("id" in message)) return undefined;
    if (!("result" in message) && !("error" in message)) return undefined;
  }
  return messages as JSONRPCMessage[];
}

export function createServerRequestRelay(options: { events: StreamEventStore; logger: Logger }): ServerRequestRelay {
  const { events, logger } = options;

  async function watch(sessionId: string, deliver: (message: JSONRPCMessage) => void): Promise<() => void> {
    let lastId: string | undefined;
    let reading: Promise<void> | undefined;
    let again = false;
    let stopped = false;
    const read = async (): Promise<void> => {
      for (;;) {
        const batch = await events.after(sessionId, serverRequestAnswersStream, lastId, readBatch);
        for (const event of batch) {
          lastId = event.id;
          if (event.message && !stopped) deliver(event.message as unknown as JSONRPCMessage);
        }
        if (batch.length < readBatch) return;
      }
    };
    // One read at a time; a wake during a read reads once more after it.
    const wake = (): void => {
      if (stopped) return;
      if (reading) {
        again = true;
        return;
      }
      reading = read()
        .catch((error: unknown) => logger.warn("reading answers relayed for this session failed", { session: sessionId, error: String(error) }))
        .finally(() => {
          reading = undefined;
          if (again) {
            again = false;
            wake();
          }
        });
    };
    const stop = await events.watch(sessionId, serverRequestAnswersStream, wake);
    // Answers already kept belong to earlier requests (ids are unique), but reading them sets where to go on from.
    wake();
    return () => {
      stopped = true;
      stop();
    };
  }

  async function forward(sessionId: string, message: JSONRPCMessage): Promise<void> {
    await events.append(sessionId, serverRequestAnswersStream, message as unknown as JsonObject, { concurrentWriters: true });
  }

  return { watch, forward };
}
