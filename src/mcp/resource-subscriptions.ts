/**
 * `resources/subscribe` and `resources/unsubscribe` for the course resources, and the fan-out that
 * follows a write: the store reports which courses each committed write changed (store/course-changes.ts),
 * and every session subscribed to one of them gets `notifications/resources/updated` { uri } stored on
 * its standalone stream, which whichever replica holds that stream delivers (event-streams.ts). A
 * subscriber is checked again at each change: one who lost access (unshared, course deleted) gets
 * nothing and loses the subscription. Subscribing to a course one may not read is `not_found`, in the
 * words of a read; so is unsubscribing from what this session never subscribed to.
 */
import type { AuthoringServices } from "../authoring/services.ts";
import { readAs } from "../authoring/services.ts";
import { openCourse } from "../authoring/access.ts";
import { notFound } from "../authoring/errors.ts";
import { CourseAuthoringError } from "../course-authoring-error.ts";
import { matchCourseUri } from "../course-uris.ts";
import type { ResourceSubscriptionStore, Subscriber } from "../store/resource-subscriptions.ts";
import type { StreamEventStore } from "../store/stream-events.ts";
import type { Logger } from "../log.ts";
import type { CallerIdentity } from "./registry.ts";
import { DatabaseUnavailableError, outageRefusalMessage, outageRetryAfterSeconds } from "../store/unavailable.ts";
import { parsePreviewUri } from "./tools/preview-resources.ts";
import { standaloneStreamId } from "./event-streams.ts";

/** Course URIs one session may watch at once. */
export const maxSubscriptionsPerSession = 100;

export interface ResourceSubscriptionDeps {
  subscriptions: ResourceSubscriptionStore;
  events: StreamEventStore;
  services: AuthoringServices;
  logger: Logger;
}

/** What a subscribable URI names: a course, and maybe one module or lesson of it. */
interface Watched {
  courseId: string;
  moduleId?: string;
  lessonId?: string;
}

function watchedBy(uri: string): Watched | null {
  const preview = parsePreviewUri(uri);
  if (preview) return { courseId: preview.courseId, ...(preview.moduleId ? { moduleId: preview.moduleId } : {}), ...(preview.lessonId ? { lessonId: preview.lessonId } : {}) };
  for (const kind of ["course", "outline", "module", "lesson", "lessonBlocks"] as const) {
    const match = matchCourseUri(kind, uri);
    if (match?.courseId) return { courseId: match.courseId, ...(match.moduleId ? { moduleId: match.moduleId } : {}), ...(match.lessonId ? { lessonId: match.lessonId } : {}) };
  }
  return null;
}

const subscriberOf = (user: CallerIdentity): Subscriber => ({ sub: user.sub, email: user.email, emailVerified: user.emailVerified });

const resourceNotFound = (uri: string) => new CourseAuthoringError("not_found", `Resource ${uri} was not found`, { uri });

/** A database outage met part-way is said as such (nothing changed, retry), not as an unexpected failure. */
async function answeringOutage<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof DatabaseUnavailableError)) throw error;
    throw new CourseAuthoringError("invalid_state", outageRefusalMessage(what), {
      retryable: true,
      retryAfterSeconds: outageRetryAfterSeconds,
    });
  }
}

export function createResourceSubscriptions(deps: ResourceSubscriptionDeps) {
  const { subscriptions, events, services, logger } = deps;

  /** Whether `subscriber` may still read the course. */
  async function mayRead(subscriber: Subscriber, courseId: string): Promise<boolean> {
    try {
      await readAs(services, subscriber, (session) => openCourse(session, courseId, "read"));
      return true;
    } catch (error) {
      if (error instanceof CourseAuthoringError && (error.code === "not_found" || error.code === "forbidden")) return false;
      throw error;
    }
  }

  async function notifyCourse(courseId: string): Promise<void> {
    const subscribed = await subscriptions.forCourse(courseId);
    const access = new Map<string, Promise<boolean>>();
    await Promise.all(
      subscribed.map(async (subscription) => {
        const who = JSON.stringify(subscription.subscriber);
        if (!access.has(who)) access.set(who, mayRead(subscription.subscriber, courseId));
        if (!(await access.get(who))) return subscriptions.removeCourse(subscription.sessionId, courseId);
        const message = { jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: subscription.uri } };
        await events.append(subscription.sessionId, standaloneStreamId, message, { concurrentWriters: true });
      }),
    );
  }

  async function subscribe(sessionId: string, user: CallerIdentity, uri: string): Promise<void> {
    const watched = watchedBy(uri);
    if (!watched) throw resourceNotFound(uri);
    await readAs(services, user, async (session) => {
      await openCourse(session, watched.courseId, "read");
      // A module or lesson of another course is as absent as one that does not exist.
      const part = watched.moduleId ? await session.tx.find("module", watched.moduleId) : watched.lessonId ? await session.tx.find("lesson", watched.lessonId) : undefined;
      if ((watched.moduleId || watched.lessonId) && part?.courseId !== watched.courseId) throw notFound(watched.moduleId ? "module" : "lesson", watched.moduleId ?? watched.lessonId!);
    });
    if ((await subscriptions.count(sessionId)) >= maxSubscriptionsPerSession && !(await subscriptions.remove(sessionId, uri))) {
      throw new CourseAuthoringError("limit_exceeded", `this session already watches ${maxSubscriptionsPerSession} resources; unsubscribe from one first`, {
        limit: maxSubscriptionsPerSession,
      });
    }
    await subscriptions.add({ sessionId, uri, courseId: watched.courseId, subscriber: subscriberOf(user) });
  }

  return {
    subscribe(sessionId: string, user: CallerIdentity, uri: string): Promise<void> {
      return answeringOutage("resources/subscribe", () => subscribe(sessionId, user, uri));
    },

    unsubscribe(sessionId: string, uri: string): Promise<void> {
      return answeringOutage("resources/unsubscribe", async () => {
        if (!(await subscriptions.remove(sessionId, uri))) {
          throw new CourseAuthoringError("not_found", `this session has no subscription to ${uri}`, { uri });
        }
      });
    },

    /** The store's report after a committed write; notifies in the background and never fails the write. */
    courseChanged(courseIds: ReadonlySet<string>): void {
      for (const courseId of courseIds) {
        notifyCourse(courseId).catch((error: unknown) => {
          logger.warn("notifying resource subscribers failed", { courseId, error: error instanceof Error ? error.message : String(error) });
        });
      }
    },

    forgetSession(sessionId: string): void {
      subscriptions.forgetSession(sessionId).catch(() => undefined);
    },
  };
}

export type ResourceSubscriptions = ReturnType<typeof createResourceSubscriptions>;
