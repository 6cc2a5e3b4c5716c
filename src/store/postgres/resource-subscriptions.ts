/**
 * MCP resource subscriptions in PostgreSQL (`mcp_subscriptions`), visible to every replica: a session
 * subscribes on one, the write that changes the course happens on another. A subscription belongs to
 * its session's record and goes with it (`ON DELETE CASCADE`), whichever replica ends the session.
 */
import type { SQL } from "bun";
import type { ResourceSubscription, ResourceSubscriptionStore, Subscriber } from "../resource-subscriptions.ts";
import { classifiedQuery } from "./connect.ts";

export class PostgresResourceSubscriptions implements ResourceSubscriptionStore {
  constructor(private readonly sql: SQL) {}

  private query(text: string, bindings: unknown[] = []): Promise<Record<string, unknown>[] & { count: number | null }> {
    return classifiedQuery(this.sql, text, bindings);
  }

  async add(subscription: ResourceSubscription): Promise<void> {
    await this.query(
      `INSERT INTO mcp_subscriptions (session_id, uri, course_id, subscriber) VALUES ($1, $2, $3, $4)
       ON CONFLICT (session_id, uri) DO UPDATE SET subscriber = excluded.subscriber`,
      [subscription.sessionId, subscription.uri, subscription.courseId, JSON.stringify(subscription.subscriber)],
    );
  }

  async count(sessionId: string): Promise<number> {
    const [row] = await this.query("SELECT COUNT(*) AS count FROM mcp_subscriptions WHERE session_id = $1", [sessionId]);
    return Number(row?.count ?? 0);
  }

  async remove(sessionId: string, uri: string): Promise<boolean> {
    const result = await this.query("DELETE FROM mcp_subscriptions WHERE session_id = $1 AND uri = $2", [sessionId, uri]);
    return Number(result.count ?? 0) > 0;
  }

  async forCourse(courseId: string): Promise<ResourceSubscription[]> {
    const rows = await this.query("SELECT session_id, uri, course_id, subscriber FROM mcp_subscriptions WHERE course_id = $1", [courseId]);
    return rows.map((row) => ({
      sessionId: String(row.session_id),
      uri: String(row.uri),
      courseId: String(row.course_id),
      subscriber: JSON.parse(String(row.subscriber)) as Subscriber,
    }));
  }

  async removeCourse(sessionId: string, courseId: string): Promise<void> {
    await this.query("DELETE FROM mcp_subscriptions WHERE session_id = $1 AND course_id = $2", [sessionId, courseId]);
  }

  async forgetSession(sessionId: string): Promise<void> {
    await this.query("DELETE FROM mcp_subscriptions WHERE session_id = $1", [sessionId]);
  }
}
