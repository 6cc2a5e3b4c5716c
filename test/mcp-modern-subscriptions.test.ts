/**
 * subscriptions/listen for 2026-07-28 clients (the official v2 client pinned to the revision), on three
 * PostgreSQL replicas reached directly: a stream opened on one replica hears writes made on the others,
 * for course, outline, module, lesson and preview URIs; what the caller may not read is not honored;
 * losing access stops the notifications; list changes are not offered because none are declared.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { connectModernAgent, type ModernAgent } from "./support/modern-client.ts";
import { startDeployment, type McpDeployment } from "./support/mcp-deployments.ts";
import { waitFor } from "./support/wait.ts";

/** The `notifications/resources/updated` URIs a modern agent received, and a way to wait for one. */
function updates(agent: ModernAgent) {
  const received: string[] = [];
  const waiters: { uri: string; count: number; resolve: () => void }[] = [];
  agent.client.setNotificationHandler("notifications/resources/updated", (notification) => {
    received.push(notification.params.uri);
    for (const waiter of [...waiters]) {
      if (received.filter((uri) => uri === waiter.uri).length >= waiter.count) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  });
  return {
    until(uri: string, count: number): Promise<void> {
      return waitFor(
        new Promise<void>((resolve) => {
          if (received.filter((seen) => seen === uri).length >= count) return resolve();
          waiters.push({ uri, count, resolve });
        }),
        30_000,
        () => `update number ${count} of ${uri} (received: ${JSON.stringify(received)})`,
      );
    },
    of: (uri: string) => received.filter((seen) => seen === uri).length,
  };
}

let deployment: McpDeployment;
const opened: { close(): Promise<void> }[] = [];

/** A 2025 agent of `sub` on replica `at`. */
async function writer(sub: string, at: number): Promise<Agent> {
  const agent = await connectAgent({ mcpUrl: `${deployment.replicaUrls[at]}/mcp?toolsets=all` }, await deployment.token(sub), `${sub}-writer-${at}`);
  opened.push(agent);
  return agent;
}

/** A 2026-07-28 agent of `sub` on replica `at`. */
async function listener(sub: string, at: number): Promise<ModernAgent> {
  const agent = await connectModernAgent({ mcpUrl: `${deployment.replicaUrls[at]}/mcp` }, await deployment.token(sub), { name: `${sub}-listener-${at}` });
  opened.push(agent);
  return agent;
}

beforeAll(async () => {
  deployment = await startDeployment("replicas");
}, 90_000);
afterAll(async () => {
  for (const agent of opened) await agent.close().catch(() => undefined);
  await deployment?.stop();
});

describe("subscriptions/listen across three PostgreSQL replicas", () => {
  test("a stream on one replica hears writes made on the others, for every kind of watched URI", async () => {
    const [onOne, onTwo] = [await writer("alice", 1), await writer("alice", 2)];
    const course = await onOne.call("create_course", { title: "Watched", modules: [{ title: "Module", lessons: [{ title: "Lesson" }] }] });
    const modules = course.modules as { id: string; lessons: { id: string }[] }[];
    const moduleId = modules[0]!.id;
    const lessonId = modules[0]!.lessons[0]!.id;
    const uris = [
      `course://${course.id}`,
      `course://${course.id}/outline`,
      `course://${course.id}/modules/${moduleId}`,
      `course://${course.id}/lessons/${lessonId}`,
      `course://${course.id}/preview`,
    ];
    const alice = await listener("alice", 0);
    const heard = updates(alice);
    const subscription = await alice.client.listen({ resourceSubscriptions: uris });
    expect(subscription.honoredFilter.resourceSubscriptions).toEqual(uris);
    expect(subscription.honoredFilter.toolsListChanged).toBeUndefined();
    await onOne.call("update_course", { courseId: course.id, title: "Watched, edited on one" });
    for (const uri of uris) await heard.until(uri, 1);
    await onTwo.call("update_course", { courseId: course.id, title: "Watched, edited on two" });
    for (const uri of uris) await heard.until(uri, 2);
    await subscription.close();
  }, 60_000);

  test("a URI the caller may not read is left out of the acknowledgment, like one that does not exist", async () => {
    const bob = await writer("bob", 1);
    const theirs = await bob.call("create_course", { title: "Bob's" });
    const mallory = await listener("mallory", 0);
    const subscription = await mallory.client.listen({ resourceSubscriptions: [`course://${theirs.id}`, "course://crs_doesnotexist"] });
    expect(subscription.honoredFilter.resourceSubscriptions ?? []).toEqual([]);
    await subscription.close();
  });

  test("losing access stops the notifications at the next change", async () => {
    const bob = await writer("bob", 2);
    const shared = await bob.call("create_course", { title: "Shared for a while" });
    await bob.call("share_course", { courseId: shared.id, sub: "carol", role: "viewer" });
    const carolWriter = await writer("carol", 1);
    const marker = await carolWriter.call("create_course", { title: "Carol's marker" });
    const carol = await listener("carol", 0);
    const heard = updates(carol);
    const uri = `course://${shared.id}`;
    const markerUri = `course://${marker.id}`;
    const subscription = await carol.client.listen({ resourceSubscriptions: [uri, markerUri] });
    expect(subscription.honoredFilter.resourceSubscriptions).toEqual([uri, markerUri]);
    await bob.call("update_course", { courseId: shared.id, title: "Shared, edited" });
    await heard.until(uri, 1);
    await bob.call("unshare_course", { courseId: shared.id, sub: "carol" });
    const afterUnshare = heard.of(uri);
    await bob.call("update_course", { courseId: shared.id, title: "Not carol's any more" });
    await carolWriter.call("update_course", { courseId: marker.id, title: "Carol's marker, edited" });
    await heard.until(markerUri, 1);
    expect(heard.of(uri)).toBe(afterUnshare);
    await subscription.close();
  }, 60_000);
});
