/**
 * MCP resource subscriptions (`resources/subscribe`), per session: which course URIs a session wants
 * `notifications/resources/updated` for, and who subscribed (so access can be checked again when the
 * course changes). PostgreSQL shares them between replicas (`postgres/resource-subscriptions.ts`), so a
 * write on any replica finds every subscriber; a single SQLite process keeps them in memory.
 */

/** The subscriber's identity as the access rules need it (shares by `sub` or by verified e-mail). */
export interface Subscriber {
  sub: string;
  email?: string | undefined;
  emailVerified?: boolean | undefined;
}

export interface ResourceSubscription {
  sessionId: string;
  uri: string;
  courseId: string;
  subscriber: Subscriber;
}

export interface ResourceSubscriptionStore {
  /** Adds the subscription (subscribing twice to one URI keeps one). */
  add(subscription: ResourceSubscription): Promise<void>;
  /** How many URIs the session is subscribed to. */
  count(sessionId: string): Promise<number>;
  /** Removes one; false when the session had no such subscription. */
  remove(sessionId: string, uri: string): Promise<boolean>;
  forCourse(courseId: string): Promise<ResourceSubscription[]>;
  /** Removes the session's subscriptions to one course (it lost access). */
  removeCourse(sessionId: string, courseId: string): Promise<void>;
  forgetSession(sessionId: string): Promise<void>;
}

export class InProcessResourceSubscriptions implements ResourceSubscriptionStore {
  /** By course, then by session and URI. */
  private readonly byCourse = new Map<string, Map<string, ResourceSubscription>>();
  private readonly bySession = new Map<string, Map<string, ResourceSubscription>>();

  private static key(subscription: Pick<ResourceSubscription, "sessionId" | "uri">): string {
    return `${subscription.sessionId} ${subscription.uri}`;
  }

  async add(subscription: ResourceSubscription): Promise<void> {
    const key = InProcessResourceSubscriptions.key(subscription);
    let course = this.byCourse.get(subscription.courseId);
    if (!course) this.byCourse.set(subscription.courseId, (course = new Map()));
    course.set(key, subscription);
    let session = this.bySession.get(subscription.sessionId);
    if (!session) this.bySession.set(subscription.sessionId, (session = new Map()));
    session.set(subscription.uri, subscription);
  }

  async count(sessionId: string): Promise<number> {
    return this.bySession.get(sessionId)?.size ?? 0;
  }

  async remove(sessionId: string, uri: string): Promise<boolean> {
    const subscription = this.bySession.get(sessionId)?.get(uri);
    if (!subscription) return false;
    this.drop(subscription);
    return true;
  }

  async forCourse(courseId: string): Promise<ResourceSubscription[]> {
    return [...(this.byCourse.get(courseId)?.values() ?? [])];
  }

  async removeCourse(sessionId: string, courseId: string): Promise<void> {
    for (const subscription of [...(this.bySession.get(sessionId)?.values() ?? [])]) if (subscription.courseId === courseId) this.drop(subscription);
  }

  async forgetSession(sessionId: string): Promise<void> {
    for (const subscription of [...(this.bySession.get(sessionId)?.values() ?? [])]) this.drop(subscription);
  }

  private drop(subscription: ResourceSubscription): void {
    const course = this.byCourse.get(subscription.courseId);
    course?.delete(InProcessResourceSubscriptions.key(subscription));
    if (course?.size === 0) this.byCourse.delete(subscription.courseId);
    const session = this.bySession.get(subscription.sessionId);
    session?.delete(subscription.uri);
    if (session?.size === 0) this.bySession.delete(subscription.sessionId);
  }
}
