/**
 * Task records' statements for both stores (see `../task-records.ts`). `SqlTransaction` extends this
 * class, so they run inside a transaction: the seal that makes a task's work final runs in the work's
 * own write transaction, and it and a cancel update the same row, so exactly one of them wins.
 */
import type { TaskRow, TaskStatus } from "../task-records.ts";
import type { SqlRecord } from "./statements.ts";
import { SqlTranslationRecords } from "./translation-records.ts";

/** The table, shared by both stores' migrations. */
export const taskTablesSql = `
  CREATE TABLE mcp_tasks (
    task_id TEXT PRIMARY KEY, owner_sub TEXT NOT NULL, tool TEXT NOT NULL, status TEXT NOT NULL,
    status_message TEXT, sealed INTEGER NOT NULL DEFAULT 0, result TEXT,
    created_at TEXT NOT NULL, last_updated_at TEXT NOT NULL, expires_at TEXT NOT NULL,
    ttl_ms INTEGER NOT NULL, poll_interval_ms INTEGER NOT NULL
  );
  CREATE INDEX mcp_tasks_by_owner ON mcp_tasks (owner_sub, created_at, task_id);
  CREATE INDEX mcp_tasks_by_expiry ON mcp_tasks (expires_at);
  CREATE TABLE mcp_task_beats (task_id TEXT PRIMARY KEY, beat_at TEXT NOT NULL);
`;

/** Every column but the result, which only `tasks/result` reads. */
const columns = "task_id, owner_sub, tool, status, status_message, sealed, created_at, last_updated_at, expires_at, ttl_ms, poll_interval_ms";
/**
 * What is read of a task: its columns and its last beat. The beats are a table of their own so that a
 * beat never touches the task's row, which the work's seal and a cancel race for.
 */
const selected = `${columns}, (SELECT beat_at FROM mcp_task_beats WHERE mcp_task_beats.task_id = mcp_tasks.task_id) AS beat_at`;

function taskFromRecord(record: SqlRecord): TaskRow {
  return {
    taskId: String(record.task_id),
    ownerSub: String(record.owner_sub),
    tool: String(record.tool),
    status: String(record.status) as TaskStatus,
    statusMessage: record.status_message === null || record.status_message === undefined ? null : String(record.status_message),
    sealed: Number(record.sealed) === 1,
    createdAt: String(record.created_at),
    lastUpdatedAt: String(record.last_updated_at),
    expiresAt: String(record.expires_at),
    ttlMs: Number(record.ttl_ms),
    pollIntervalMs: Number(record.poll_interval_ms),
    beatAt: typeof record.beat_at === "string" ? record.beat_at : null,
  };
}

export abstract class SqlTaskRecords extends SqlTranslationRecords {
  async serviceSecret(name: string, fresh: string, now: string): Promise<string> {
    await this.run("INSERT INTO service_secrets (name, secret, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING", [name, fresh, now]);
    const record = await this.get("SELECT secret FROM service_secrets WHERE name = ?", [name]);
    if (typeof record?.secret !== "string") throw new Error(`the service secret ${name} could not be read back`);
    return record.secret;
  }

  async claimConfirmation(nonce: string, expiresAt: string, now: string): Promise<boolean> {
    await this.run("DELETE FROM mcp_used_confirmations WHERE expires_at < ?", [now]);
    const claimed = await this.run("INSERT INTO mcp_used_confirmations (nonce, expires_at) VALUES (?, ?) ON CONFLICT (nonce) DO NOTHING", [nonce, expiresAt]);
    return claimed === 1;
  }

  async insertTask(row: TaskRow): Promise<void> {
    await this.run(
      `INSERT INTO mcp_tasks (${columns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ${this.dialect.integer}, ${this.dialect.integer})`,
      [row.taskId, row.ownerSub, row.tool, row.status, row.statusMessage, row.sealed ? 1 : 0, row.createdAt, row.lastUpdatedAt, row.expiresAt, row.ttlMs, row.pollIntervalMs],
    );
    await this.beatTask(row.taskId, row.createdAt);
  }

  async beatTask(taskId: string, now: string): Promise<void> {
    await this.run("INSERT INTO mcp_task_beats (task_id, beat_at) VALUES (?, ?) ON CONFLICT (task_id) DO UPDATE SET beat_at = excluded.beat_at", [taskId, now]);
  }

  async failStaleTask(taskId: string, staleBefore: string, message: string, result: string, now: string): Promise<boolean> {
    const changed = await this.run(
      `UPDATE mcp_tasks SET status = 'failed', status_message = ?, result = ?, last_updated_at = ?
        WHERE task_id = ? AND status = 'working' AND task_id IN (SELECT task_id FROM mcp_task_beats WHERE task_id = ? AND beat_at < ?)`,
      [message, result, now, taskId, taskId, staleBefore],
    );
    return changed === 1;
  }

  async findTask(taskId: string, ownerSub: string, now: string): Promise<TaskRow | undefined> {
    const record = await this.get(`SELECT ${selected} FROM mcp_tasks WHERE task_id = ? AND owner_sub = ? AND expires_at > ?`, [taskId, ownerSub, now]);
    return record ? taskFromRecord(record) : undefined;
  }

  async taskResult(taskId: string, ownerSub: string, now: string): Promise<string | undefined> {
    const record = await this.get("SELECT result FROM mcp_tasks WHERE task_id = ? AND owner_sub = ? AND expires_at > ?", [taskId, ownerSub, now]);
    return typeof record?.result === "string" ? record.result : undefined;
  }

  async listTasks(ownerSub: string, now: string, after: { createdAt: string; id: string } | undefined, limit: number): Promise<TaskRow[]> {
    const keyset = after ? " AND (created_at < ? OR (created_at = ? AND task_id < ?))" : "";
    const records = await this.all(
      `SELECT ${selected} FROM mcp_tasks WHERE owner_sub = ? AND expires_at > ?${keyset} ORDER BY created_at DESC, task_id DESC LIMIT ${this.dialect.integer}`,
      [ownerSub, now, ...(after ? [after.createdAt, after.createdAt, after.id] : []), limit],
    );
    return records.map(taskFromRecord);
  }

  async countWorkingTasks(ownerSub: string, now: string): Promise<number> {
    const record = await this.get("SELECT COUNT(*) AS count FROM mcp_tasks WHERE owner_sub = ? AND status = 'working' AND expires_at > ?", [ownerSub, now]);
    return Number(record?.count ?? 0);
  }

  async cancelTask(taskId: string, ownerSub: string, message: string, now: string): Promise<boolean> {
    const changed = await this.run(
      "UPDATE mcp_tasks SET status = 'cancelled', status_message = ?, last_updated_at = ? WHERE task_id = ? AND owner_sub = ? AND status = 'working' AND sealed = 0 AND expires_at > ?",
      [message, now, taskId, ownerSub, now],
    );
    return changed === 1;
  }

  async sealTask(taskId: string, now: string): Promise<boolean> {
    return (await this.run("UPDATE mcp_tasks SET sealed = 1 WHERE task_id = ? AND status = 'working' AND expires_at > ?", [taskId, now])) === 1;
  }

  async finishTask(taskId: string, status: "completed" | "failed", message: string | null, result: string, now: string): Promise<boolean> {
    const changed = await this.run(
      "UPDATE mcp_tasks SET status = ?, status_message = ?, result = ?, last_updated_at = ? WHERE task_id = ? AND status = 'working'",
      [status, message, result, now, taskId],
    );
    return changed === 1;
  }

  async taskStatus(taskId: string, now: string): Promise<TaskStatus | undefined> {
    const record = await this.get("SELECT status FROM mcp_tasks WHERE task_id = ? AND expires_at > ?", [taskId, now]);
    return record ? (String(record.status) as TaskStatus) : undefined;
  }

  async removeExpiredTasks(now: string, ownerSub?: string): Promise<number> {
    const owned = ownerSub === undefined ? "" : " AND owner_sub = ?";
    const bindings = ownerSub === undefined ? [now] : [now, ownerSub];
    await this.run(`DELETE FROM mcp_task_beats WHERE task_id IN (SELECT task_id FROM mcp_tasks WHERE expires_at <= ?${owned})`, bindings);
    return this.run(`DELETE FROM mcp_tasks WHERE expires_at <= ?${owned}`, bindings);
  }

  async failWorkingTasks(message: string, now: string): Promise<number> {
    return this.run("UPDATE mcp_tasks SET status = 'failed', status_message = ?, last_updated_at = ? WHERE status = 'working'", [message, now]);
  }
}
