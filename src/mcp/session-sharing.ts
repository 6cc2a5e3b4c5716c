/**
 * MCP sessions shared between replicas through a `SessionRecordStore` (PostgreSQL), so a plain
 * round-robin balancer may send any request of a session to any replica. At `initialize` the
 * session's record (id, owner `sub`, negotiated protocol version, client capabilities and info) is
 * written before the response leaves, so the client's next request finds it everywhere. A replica that
 * meets a session it has not seen rebuilds it by replaying that handshake into a fresh server and
 * transport, through the SDK's public API only: the transport takes the recorded id from its
 * `sessionIdGenerator`, and the server learns the client's capabilities exactly as it did first time.
 * Ownership is as strict as in one process: a record of another user is answered like no record.
 * A cached session is re-checked against the record every few seconds, so one ended on any replica
 * (DELETE, idle sweep) stops working on all of them.
 */
import type { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, type InitializeRequest } from "@modelcontextprotocol/server";
import type { McpSessionRecord, SessionRecordStore } from "../store/session-records.ts";
import type { JsonObject } from "../store/types.ts";
import type { Logger } from "../log.ts";

export interface SessionSharingOptions {
  records: SessionRecordStore;
  logger: Logger;
  idleTimeoutMs: number;
  /** How long a replica trusts its cached copy before checking the record again. */
  recheckMs?: number;
}

type AuthInfo = Parameters<WebStandardStreamableHTTPServerTransport["handleRequest"]>[1] extends infer O ? (O extends { authInfo?: infer A } ? A : never) : never;

export function createSessionSharing(options: SessionSharingOptions) {
  const recheckMs = options.recheckMs ?? 5000;
  const checkedAt = new Map<string, number>();

  const sweep = setInterval(() => {
    options.records.removeIdleSince(new Date(Date.now() - options.idleTimeoutMs)).catch((error: unknown) => {
      options.logger.warn("sweeping idle MCP sessions failed", { error: String(error) });
    });
  }, Math.min(60_000, options.idleTimeoutMs));
  sweep.unref?.();

  return {
    /** Records a session as it initialises on this replica; the transport awaits this before answering. */
    async opened(id: string, sub: string, initialize: InitializeRequest): Promise<void> {
      const requested = initialize.params.protocolVersion;
      const record: McpSessionRecord = {
        id,
        ownerSub: sub,
        protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION,
        clientCapabilities: initialize.params.capabilities as JsonObject,
        clientInfo: initialize.params.clientInfo as unknown as JsonObject,
      };
      await options.records.save(record);
      checkedAt.set(id, Date.now());
    },

    /** The session's record when it exists and belongs to `sub`; otherwise undefined, whichever the reason. */
    async lookup(id: string, sub: string): Promise<McpSessionRecord | undefined> {
      const record = await options.records.find(id);
      if (!record || record.ownerSub !== sub) return undefined;
      checkedAt.set(id, Date.now());
      return record;
    },

    /** Whether a session cached here still exists in the record; checked at most every `recheckMs`. */
    async stillExists(id: string): Promise<boolean> {
      const last = checkedAt.get(id) ?? 0;
      if (Date.now() - last < recheckMs) return true;
      // One check at a time per session: requests arriving meanwhile trust the copy a moment longer.
      checkedAt.set(id, Date.now());
      const exists = (await options.records.find(id)) !== undefined;
      if (exists) {
        checkedAt.set(id, Date.now());
        await options.records.touch(id);
      }
      return exists;
    },

    /** Replays the recorded `initialize` and `notifications/initialized` into a fresh transport. */
    async replayHandshake(transport: Pick<WebStandardStreamableHTTPServerTransport, "handleRequest">, record: McpSessionRecord, url: string, authInfo: AuthInfo): Promise<void> {
      const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
      const initialize = {
        jsonrpc: "2.0" as const,
        id: "session-restore",
        method: "initialize" as const,
        params: { protocolVersion: record.protocolVersion, capabilities: record.clientCapabilities, clientInfo: record.clientInfo },
      };
      const answer = await transport.handleRequest(new Request(url, { method: "POST", headers, body: JSON.stringify(initialize) }), {
        parsedBody: initialize,
        authInfo,
      });
      // The replayed answer goes nowhere; reading it to the end closes its stream.
      await answer.text();
      if (!answer.ok) throw new Error(`restoring MCP session failed with HTTP ${answer.status}`);
      const initialized = { jsonrpc: "2.0" as const, method: "notifications/initialized" as const };
      const sessionHeaders = { ...headers, "mcp-session-id": record.id, "mcp-protocol-version": record.protocolVersion };
      const ack = await transport.handleRequest(new Request(url, { method: "POST", headers: sessionHeaders, body: JSON.stringify(initialized) }), {
        parsedBody: initialized,
        authInfo,
      });
      await ack.text();
    },

    /** The level the session chose with `logging/setLevel`, read from the record when a message is about to go out. */
    async logLevelOf(id: string): Promise<string | undefined> {
      return (await options.records.find(id))?.logLevel;
    },

    setLogLevel(id: string, level: string): Promise<void> {
      return options.records.setLogLevel(id, level);
    },

    /** Forgets a session everywhere (the client ended it). */
    async closed(id: string): Promise<void> {
      checkedAt.delete(id);
      await options.records.remove(id);
    },

    forgetLocally(id: string): void {
      checkedAt.delete(id);
    },

    count: () => options.records.count(),

    stop(): void {
      clearInterval(sweep);
    },
  };
}

export type SessionSharing = ReturnType<typeof createSessionSharing>;
