/**
 * Sharing by e-mail trusts only a verified e-mail, over HTTP with real tokens: a course shared with
 * an address opens to a token whose `email` is that address (trimmed, compared case-insensitively)
 * and whose `email_verified` claim is the boolean `true`. Anyone can put any address in an unverified
 * claim, so `false`, a missing claim or the string "true" gets exactly what a stranger gets.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { TestService } from "./support/service.ts";
import { startTestIssuer, type TestIssuer } from "./support/test-issuer.ts";
import { startServiceFor } from "./auth-requests.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";

let idp: TestIssuer;
let service: TestService;
let courseId: string;
const agents: Agent[] = [];

beforeAll(async () => {
  idp = await startTestIssuer();
  service = await startServiceFor(idp);
  const owner = await agentFor({ sub: "owner", email: "owner@example.test", email_verified: true });
  const course = await owner.call("create_course", { title: "Shared by e-mail" });
  courseId = course.id as string;
  await owner.call("share_course", { courseId, email: "  Colleague@Example.TEST ", role: "viewer" });
});

afterAll(async () => {
  for (const agent of agents) await agent.close();
  await service?.dispose();
  await idp?.stop();
});

async function agentFor(claims: Record<string, unknown>): Promise<Agent> {
  const agent = await connectAgent(service, await idp.sign(claims));
  agents.push(agent);
  return agent;
}

async function expectNoAccess(agent: Agent): Promise<void> {
  expect((await agent.fail("get_course", { courseId })).code).toBe("not_found");
  const list = await agent.call("list_courses", {});
  expect((list.courses as { id: string }[]).map((course) => course.id)).not.toContain(courseId);
}

async function expectViewer(agent: Agent): Promise<void> {
  expect((await agent.call("get_course", { courseId })).role).toBe("viewer");
  const list = await agent.call("list_courses", {});
  expect((list.courses as { id: string; role: string }[]).find((course) => course.id === courseId)?.role).toBe("viewer");
}

describe("an unverified e-mail grants nothing", () => {
  const unverified: [string, Record<string, unknown>][] = [
    ["email_verified false", { email_verified: false }],
    ["email_verified missing", {}],
    ['email_verified the string "true"', { email_verified: "true" }],
    ["email_verified the number 1", { email_verified: 1 }],
  ];
  for (const [name, claims] of unverified) {
    test(`${name}: the shared course is not found and not listed`, async () => {
      await expectNoAccess(await agentFor({ sub: `intruder-${name}`, email: "colleague@example.test", ...claims }));
    });
  }

  test("an unverified e-mail in other case or with spaces grants nothing either", async () => {
    await expectNoAccess(await agentFor({ sub: "intruder-case", email: " COLLEAGUE@example.test ", email_verified: false }));
  });
});

describe("a verified e-mail gets the shared role", () => {
  test("email_verified true with the exact address", async () => {
    await expectViewer(await agentFor({ sub: "colleague-1", email: "colleague@example.test", email_verified: true }));
  });

  test("email_verified true matches case-insensitively and ignores surrounding spaces", async () => {
    await expectViewer(await agentFor({ sub: "colleague-2", email: "COLLEAGUE@Example.Test", email_verified: true }));
    await expectViewer(await agentFor({ sub: "colleague-3", email: "\tcolleague@example.test  ", email_verified: true }));
  });

  test("a verified but different address grants nothing", async () => {
    await expectNoAccess(await agentFor({ sub: "other", email: "colleague@example.test.evil", email_verified: true }));
  });

  test("a viewer by verified e-mail still cannot edit", async () => {
    const colleague = await agentFor({ sub: "colleague-4", email: "colleague@example.test", email_verified: true });
    expect((await colleague.fail("update_course", { courseId, title: "Mine now" })).code).toBe("forbidden");
  });
});
