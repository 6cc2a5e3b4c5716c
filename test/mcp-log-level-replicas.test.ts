/**
 * `logging/setLevel` is the session's choice, not one replica's: through three replicas on one
 * PostgreSQL behind a round-robin proxy, a level set on one replica holds for calls any other replica
 * serves, and a new choice replaces it everywhere.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { LoggingMessageNotificationSchema, type LoggingMessageNotification } from "@modelcontextprotocol/sdk/types.js";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { startDeployment, type McpDeployment } from "./support/mcp-deployments.ts";

type Message = LoggingMessageNotification["params"];

/** A Markdown outline whose import keeps three things in another form: a warning, a notice and an info. */
const outline = ["# Fire safety", "## Basics", "### Exits", "![Evacuation map](./map.png)", "", "---", "", "- [x] The stairs", "- [ ] The lift", "", "```{.shell}", "echo drill", "```"].join("\n");

let deployment: McpDeployment;
let alice: Agent;
const received: Message[] = [];

beforeAll(async () => {
  deployment = await startDeployment("replicas");
  alice = await connectAgent({ mcpUrl: deployment.mcpUrl }, await deployment.token("alice"), "alice-agent");
  alice.client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void received.push(notification.params));
}, 120_000);

afterAll(async () => {
  await alice?.close();
  await deployment?.stop();
});

/** The levels of the log messages each import brings (they arrive on its stream before its result), and which replica served it. */
async function importsSeen(count: number): Promise<{ levels: string[][]; replicas: number[] }> {
  const levels: string[][] = [];
  const replicas: number[] = [];
  for (let i = 0; i < count; i++) {
    const before = received.length;
    const servedBefore = deployment.proxy!.served.length;
    await alice.call("import_course", { content: outline, format: "markdown" });
    levels.push(received.slice(before).map((message) => message.level));
    const call = deployment.proxy!.served.slice(servedBefore).find((request) => request.method === "POST");
    if (call) replicas.push(call.replica);
  }
  return { levels, replicas };
}

test("a level set through one replica holds on every replica, until the session sets another", async () => {
  const everything = await importsSeen(1);
  expect(everything.levels).toEqual([["warning", "notice", "info"]]);

  await alice.client.setLoggingLevel("warning");
  const setOn = deployment.proxy!.served.filter((request) => request.method === "POST").at(-1)!.replica;
  const warnings = await importsSeen(6);
  expect(warnings.levels).toEqual(Array.from({ length: 6 }, () => ["warning"]));
  // The imports reached replicas other than the one that took the level.
  expect(warnings.replicas.some((replica) => replica !== setOn)).toBe(true);

  await alice.client.setLoggingLevel("error");
  expect((await importsSeen(4)).levels).toEqual(Array.from({ length: 4 }, () => []));

  await alice.client.setLoggingLevel("info");
  expect((await importsSeen(4)).levels).toEqual(Array.from({ length: 4 }, () => ["warning", "notice", "info"]));
}, 120_000);
