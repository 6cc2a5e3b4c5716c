/**
 * Resource subscriptions, on one SQLite process and on three PostgreSQL replicas behind a round-robin
 * balancer, with the official SDK client: a session subscribed through the balancer hears of a write
 * made on each replica; unsubscribing stops it; losing access (unshared, course deleted) stops it;
 * another user's subscribe (or unsubscribe) is not_found, exactly as for a course that does not exist.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { McpError, ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { startDeployment, type DeploymentKind, type McpDeployment } from "./support/mcp-deployments.ts";
import { waitFor } from "./support/wait.ts";

/** The `notifications/resources/updated` URIs an agent received, and a way to wait for one. */
function updates(agent: Agent) {
  const received: string[] = [];
  const waiters: { uri: string; count: number; resolve: () => void }[] = [];
  agent.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
    received.push(notification.params.uri);
    for (const waiter of [...waiters]) {
      if (received.filter((uri) => uri === waiter.uri).length >= waiter.count) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  });
  return {
    received,
    /** Resolves once `count` updates of `uri` have arrived in all. */
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

async function subscribeError(agent: Agent, uri: string, action: "subscribe" | "unsubscribe" = "subscribe"): Promise<McpError> {
  try {
    await (action === "subscribe" ? agent.client.subscribeResource({ uri }) : agent.client.unsubscribeResource({ uri }));
  } catch (error) {
    if (error instanceof McpError) return error;
    throw error;
  }
  throw new Error(`${action} of ${uri} succeeded`);
}

for (const kind of ["sqlite", "replicas"] as DeploymentKind[]) {
  describe(`resource subscriptions (${kind === "sqlite" ? "one SQLite process" : "three PostgreSQL replicas behind a round-robin balancer"})`, () => {
    let deployment: McpDeployment;
    const agents: Agent[] = [];
    const connect = async (sub: string, url?: string) => {
      const agent = await connectAgent({ mcpUrl: url ?? deployment.mcpUrl }, await deployment.token(sub), `${sub}-agent`);
      agents.push(agent);
      return agent;
    };
    /** An agent of `sub` on each replica's own URL, so a write can be placed on each. */
    const onEachReplica = (sub: string) => Promise.all(deployment.replicaUrls.map((url) => connect(sub, `${url}/mcp`)));

    beforeAll(async () => {
      deployment = await startDeployment(kind);
    }, 120_000);

    afterAll(async () => {
      for (const agent of agents) await agent.close().catch(() => undefined);
      await deployment?.stop();
    });

    test("the server offers subscriptions; a subscription made through the balancer hears of a write made on each replica", async () => {
      const alice = await connect("alice");
      expect(alice.client.getServerCapabilities()?.resources?.subscribe).toBe(true);
      const heard = updates(alice);
      const course = await alice.call("create_course", { title: "Watched" });
      const uris = [`course://${course.id}`, `course://${course.id}/outline`, `course://${course.id}/preview`];
      for (const uri of uris) await alice.client.subscribeResource({ uri });
      const writers = await onEachReplica("alice");
      for (const [index, writer] of writers.entries()) {
        await writer.call("update_course", { courseId: course.id, title: `Watched, edit ${index + 1}` });
        for (const uri of uris) await heard.until(uri, index + 1);
      }
      for (const uri of uris) expect(heard.of(uri)).toBe(writers.length);
    }, 120_000);

    test("unsubscribing stops the notifications", async () => {
      const alice = await connect("alice");
      const heard = updates(alice);
      const watched = await alice.call("create_course", { title: "Soon unwatched" });
      const marker = await alice.call("create_course", { title: "Marker" });
      const uri = `course://${watched.id}`;
      await alice.client.subscribeResource({ uri });
      await alice.client.subscribeResource({ uri: `course://${marker.id}` });
      const [writer] = await onEachReplica("alice");
      await writer!.call("update_course", { courseId: watched.id, title: "Still watched" });
      await heard.until(uri, 1);
      await alice.client.unsubscribeResource({ uri });
      await writer!.call("update_course", { courseId: watched.id, title: "No longer watched" });
      // A later write to a watched course arrives; the unwatched one's must not have come before it.
      await writer!.call("update_course", { courseId: marker.id, title: "Marker, edited" });
      await heard.until(`course://${marker.id}`, 1);
      expect(heard.of(uri)).toBe(1);
      // Unsubscribing again: this session has no such subscription.
      expect((await subscribeError(alice, uri, "unsubscribe")).code).toBe(-32602);
    }, 120_000);

    test("losing access stops the notifications: an unshared collaborator, and a deleted course", async () => {
      const bob = await connect("bob");
      const carol = await connect("carol");
      const heard = updates(carol);
      const shared = await bob.call("create_course", { title: "Shared for a while" });
      await bob.call("share_course", { courseId: shared.id, sub: "carol", role: "viewer" });
      const uri = `course://${shared.id}/outline`;
      await carol.client.subscribeResource({ uri });
      await bob.call("update_course", { courseId: shared.id, title: "Shared, edited" });
      await heard.until(uri, 1);
      await bob.call("unshare_course", { courseId: shared.id, sub: "carol" });
      const afterUnshare = heard.of(uri);
      await bob.call("update_course", { courseId: shared.id, title: "Not carol's any more" });

      const own = await carol.call("create_course", { title: "Carol's own" });
      const ownUri = `course://${own.id}`;
      await carol.client.subscribeResource({ uri: ownUri });
      await carol.call("delete_course", { courseId: own.id });
      const marker = await carol.call("create_course", { title: "Carol's marker" });
      await carol.client.subscribeResource({ uri: `course://${marker.id}` });
      await carol.call("update_course", { courseId: marker.id, title: "Carol's marker, edited" });
      await heard.until(`course://${marker.id}`, 1);
      // The unshare may be announced to nobody at all; nothing after it reached carol, nor the deletion.
      expect(afterUnshare).toBe(1);
      expect(heard.of(uri)).toBe(1);
      expect(heard.of(ownUri)).toBe(0);
    }, 120_000);

    test("another user's subscribe or unsubscribe is not_found, exactly as for a course that does not exist", async () => {
      const alice = await connect("alice");
      const heard = updates(alice);
      const mallory = await connect("mallory");
      const course = await alice.call("create_course", { title: "Private" });
      const uri = `course://${course.id}/preview`;
      await alice.client.subscribeResource({ uri });
      const denied = await subscribeError(mallory, uri);
      const missing = await subscribeError(mallory, "course://crs_doesnotexist/preview");
      expect(denied.code).toBe(-32602);
      expect(missing.code).toBe(-32602);
      expect(denied.message.replace(String(course.id), "ID")).toBe(missing.message.replace("crs_doesnotexist", "ID"));
      expect(JSON.stringify(denied.data).replace(String(course.id), "ID")).toBe(JSON.stringify(missing.data).replace("crs_doesnotexist", "ID"));
      expect((await subscribeError(mallory, uri, "unsubscribe")).code).toBe(-32602);
      // Alice's subscription is untouched.
      await alice.call("update_course", { courseId: course.id, title: "Private, edited" });
      await heard.until(uri, 1);
      expect((await subscribeError(alice, "ui://course-authoring/course-preview.html")).code).toBe(-32602);
    }, 120_000);
  });
}
