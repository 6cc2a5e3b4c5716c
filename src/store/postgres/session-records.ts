/**
 * MCP session records in PostgreSQL (`mcp_sessions`): written once when a session initialises, read
 * by a replica that meets the session for the first time, touched as it is used so the idle sweep of
 * any replica removes only sessions nobody uses, deleted when the client ends the session.
 */
import type { SQL } from "bun";
import type { JsonObject } from "../types.ts";
import type { McpSessionRecord, SessionRecordStore } from "../session-records.ts";
import { DatabaseUnavailableError } from "../unavailable.ts";
import { classifiedQuery } from "./connect.ts";

export class PostgresSessionRecords implements SessionRecordStore {
  /** `health` hears of a connection failure, so /mcp answers 503 until the database is back. */
  constructor(
    private readonly sql: SQL,
    private readonly health?: { setAvailable(available: boolean): void },
  ) {}

  private async query(text: string, bindings: unknown[] = []): Promise<Record<string, unknown>[] & { count: number | null }> {
    try {
      return await classifiedQuery(this.sql, text, bindings);
    } catch (error) {
      if (error instanceof DatabaseUnavailableError) this.health?.setAvailable(false);
      throw error;
    }
  }

  async save(record: McpSessionRecord): Promise<void> {
    await this.query(
      "INSERT INTO mcp_sessions (id, owner_sub, protocol_version, client_capabilities, client_info) VALUES ($1, $2, $3, $4, $5)",
      [record.id, record.ownerSub, record.protocolVersion, JSON.stringify(record.clientCapabilities), JSON.stringify(record.clientInfo)],
    );
  }

  async find(id: string): Promise<McpSessionRecord | undefined> {
    const [row] = await this.query("SELECT * FROM mcp_sessions WHERE id = $1", [id]);
    if (!row) return undefined;
    return {
      id: String(row.id),
      ownerSub: String(row.owner_sub),
      protocolVersion: String(row.protocol_version),
      clientCapabilities: JSON.parse(String(row.client_capabilities)) as JsonObject,
      clientInfo: JSON.parse(String(row.client_info)) as JsonObject,
      ...(row.log_level ? { logLevel: String(row.log_level) } : {}),
    };
  }

  async setLogLevel(id: string, level: string): Promise<void> {
    await this.query("UPDATE mcp_sessions SET log_level = $2 WHERE id = $1", [id, level]);
  }

  async touch(id: string): Promise<void> {
    await this.query("UPDATE mcp_sessions SET last_seen_at = now() WHERE id = $1", [id]);
  }

  async remove(id: string): Promise<void> {
    await this.query("DELETE FROM mcp_sessions WHERE id = $1", [id]);
  }

  async removeIdleSince(cutoff: Date): Promise<number> {
    const result = await this.query("DELETE FROM mcp_sessions WHERE last_seen_at < $1", [cutoff.toISOString()]);
    return Number(result.count ?? 0);
  }

  async count(): Promise<number> {
    const [row] = await this.query("SELECT COUNT(*) AS count FROM mcp_sessions");
    return Number(row?.count ?? 0);
  }
}
