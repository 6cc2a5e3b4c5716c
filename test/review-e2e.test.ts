/**
 * Review and publishing end to end: the real service, real tokens from the embedded identity provider
 * and the official SDK client. A reviewer comments on a block; the author's agent (an editor) reads the
 * comment through the tools, is refused publishing with the blocking finding named, fixes the block,
 * resolves the comment, validates clean and publishes; a later edit leaves the published snapshot as it
 * was.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { cleanOutline, type Course } from "./support/review-courses.ts";
import { startTestService, type TestService } from "./support/service.ts";

type Json = Record<string, unknown>;

let service: TestService;
let owner: Agent;
let reviewer: Agent;
let agent: Agent;

beforeAll(async () => {
  service = await startTestService();
  owner = await connectAgent(service, await devAccessToken(service, "alice"), "owner");
  reviewer = await connectAgent(service, await devAccessToken(service, "rita"), "reviewer");
  agent = await connectAgent(service, await devAccessToken(service, "bob"), "authoring-agent");
});
afterAll(async () => {
  for (const client of [owner, reviewer, agent]) await client?.close();
  await service?.dispose();
});

test("a reviewer's comment is acted on by an agent: block fixed, comment resolved, validated clean, published; a later edit leaves the snapshot unchanged", async () => {
  const outline = cleanOutline();
  const firstLesson = (outline.modules as { lessons: { blocks: Json[] }[] }[])[0]!.lessons[0]!;
  firstLesson.blocks.push({ type: "text", markdown: "Study the map before your first day.\n\n![](https://example.com/evacuation-map.png)" });
  const created = (await owner.call("create_course", outline)) as Course;
  await owner.call("share_course", { courseId: created.id, sub: "rita", role: "reviewer" });
  await owner.call("share_course", { courseId: created.id, sub: "bob", role: "editor" });
  await owner.call("set_status", { courseId: created.id, status: "in_review" });

  // The reviewer reads the course and comments on the block with the map.
  const seen = (await reviewer.call("get_course", { courseId: created.id })) as Course;
  const mapBlock = seen.modules[0]!.lessons[0]!.blocks.at(-1)!;
  const comment = (await reviewer.call("add_comment", {
    courseId: created.id,
    targetId: mapBlock.id,
    body: "The evacuation map has no alt text; screen-reader users cannot use it. Describe the route to the exits.",
    quote: "Study the map",
  })).comment as Json;
  expect((await reviewer.fail("set_status", { courseId: created.id, status: "published" })).code).toBe("forbidden");
  expect((await reviewer.fail("add_comment", { courseId: created.id, targetId: "blk_nosuchblock", body: "?" })).code).toBe("not_found");

  // The agent tries to publish and is told exactly what blocks it.
  const refused = await agent.fail("set_status", { courseId: created.id, status: "published" });
  expect(refused.code).toBe("invalid_state");
  expect(refused.message).toContain("image.missing_alt");
  expect(refused.details.blockingFindings).toEqual([
    expect.objectContaining({ ruleId: "image.missing_alt", location: expect.objectContaining({ blockId: mapBlock.id, field: "markdown" }) }),
  ]);

  // It reads the open comments, finds the block, fixes it and resolves the comment.
  const open = await agent.call("list_comments", { courseId: created.id, status: "open" });
  expect(open.counts).toEqual({ open: 1, resolved: 0 });
  const [todo] = open.comments as (Json & { target: Json; author: Json })[];
  expect(todo).toMatchObject({ id: comment.id, target: { kind: "block", id: mapBlock.id, lessonId: seen.modules[0]!.lessons[0]!.id }, author: { sub: "rita", name: "Rita" } });
  const fixed = await agent.call("update_block", {
    courseId: created.id,
    blockId: todo!.target.id,
    expectedVersion: seen.version,
    block: { type: "text", markdown: "Study the map before your first day.\n\n![Floor plan: from every desk, follow the green arrows to stairs A or B](https://example.com/evacuation-map.png)" },
  });
  const resolved = await agent.call("resolve_comment", { courseId: created.id, commentId: todo!.id, note: "Added alt text describing the route." });
  expect(resolved).toMatchObject({ changed: true, comment: { status: "resolved", resolvedBy: "bob" }, counts: { open: 0, resolved: 1 } });

  const validation = await agent.call("validate_course", { courseId: created.id });
  expect(validation).toMatchObject({ publishable: true, counts: { error: 0, warning: 0, info: 0 } });
  const published = await agent.call("set_status", { courseId: created.id, status: "published", expectedVersion: fixed.version });
  expect(published).toMatchObject({ previousStatus: "in_review", status: "published", changed: true, publication: { publishedBy: "bob", hasUnpublishedChanges: false } });

  const reviewerView = await reviewer.call("list_comments", { courseId: created.id });
  expect(reviewerView.comments).toEqual([expect.objectContaining({ id: comment.id, status: "resolved", resolvedBy: "bob", resolutionNote: "Added alt text describing the route." })]);

  // A later edit changes the draft only.
  const snapshot = await reviewer.call("get_course", { courseId: created.id, variant: "published" });
  await agent.call("update_course", { courseId: created.id, title: "Fire safety basics, second edition" });
  const { publication: _before, ...snapshotContent } = snapshot;
  const { publication: after, ...laterContent } = await reviewer.call("get_course", { courseId: created.id, variant: "published" });
  expect(laterContent).toEqual(snapshotContent);
  expect(after).toMatchObject({ version: published.version, hasUnpublishedChanges: true });
  expect(await reviewer.call("get_course", { courseId: created.id, includeBlocks: false })).toMatchObject({
    title: "Fire safety basics, second edition",
    status: "published",
    publication: { hasUnpublishedChanges: true },
  });
});

test("tools/list advertises the review tools with read-only hints where they only read", async () => {
  const { tools } = await agent.client.listTools();
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  for (const name of ["validate_course", "set_status", "add_comment", "list_comments", "resolve_comment"]) expect(byName.has(name)).toBe(true);
  expect(byName.get("validate_course")!.annotations?.readOnlyHint).toBe(true);
  expect(byName.get("list_comments")!.annotations?.readOnlyHint).toBe(true);
  // A writing tool says so by leaving readOnlyHint out (MCP's default is false); it never claims to only read.
  expect(byName.get("set_status")!.annotations?.readOnlyHint ?? false).toBe(false);
  expect(byName.get("set_status")!.annotations).not.toHaveProperty("readOnlyHint");
  expect(byName.get("validate_course")!.description).toContain("image.missing_alt");
});
