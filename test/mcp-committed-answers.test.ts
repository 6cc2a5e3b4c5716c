/**
 * A committed write is never reported as refused (issue 39, item 7): an `edit_course` that adds 100
 * lessons of 20 blocks commits (version 1 → 2), and its whole answer would pass the 61,440-byte result
 * cap. It answers a success that fits the cap, that the SDK clients of both eras accept against the
 * tool's output schema, whose text says the write is committed, at which version, not to send it again
 * and how to read the result in parts; the course then holds the 100 lessons once.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestService, type TestService } from "./support/service.ts";
import { startTestIssuer, type TestIssuer } from "./support/test-issuer.ts";
import { waitForOAuthConfiguration } from "./support/rest-fixture.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { connectModernAgent, type ModernAgent } from "./support/modern-client.ts";

const resultCap = 61_440;
let idp: TestIssuer;
let service: TestService;
let legacy: Agent;
let modern: ModernAgent;

beforeAll(async () => {
  idp = await startTestIssuer();
  service = await startTestService({ AUTH_URL: idp.url, AUTH_AUDIENCE: idp.audience });
  await waitForOAuthConfiguration(service.url);
  const token = await idp.sign({ sub: "author" });
  legacy = await connectAgent(service, token, "legacy-author");
  modern = await connectModernAgent(service, token, { name: "modern-author" });
}, 30_000);

afterAll(async () => {
  await legacy?.close();
  await modern?.close();
  await service?.dispose();
  await idp?.stop();
});

const hundredLessons = (moduleId: string) =>
  Array.from({ length: 100 }, (_, lesson) => ({
    op: "add_lesson",
    moduleId,
    title: `Lesson ${lesson + 1}`,
    blocks: Array.from({ length: 20 }, (_, block) => ({ type: "text", markdown: `Paragraph ${block + 1} of lesson ${lesson + 1}.` })),
  }));

interface AgentLike {
  call(name: string, args?: Record<string, unknown>): Promise<Record<string, unknown>>;
  callRaw(name: string, args?: Record<string, unknown>): Promise<{ isError?: boolean; content: unknown[]; structuredContent?: unknown }>;
}

const agents: [string, () => AgentLike][] = [
  ["2025 session", () => legacy],
  ["2026-07-28", () => modern],
];

describe("a write whose answer would pass the result cap", () => {
  for (const [era, agentOf] of agents) {
    test(`edit_course adding 100 lessons of 20 blocks answers success: committed at version 2, not to be sent again, how to read it in parts, within the cap (${era})`, async () => {
      const agent = agentOf();
      const course = await agent.call("create_course", { title: `Big batch ${era}`, modules: [{ title: "Only module" }] });
      expect(course.version).toBe(1);
      const moduleId = (course.modules as { id: string }[])[0]!.id;

      const result = await agent.callRaw("edit_course", { courseId: course.id, expectedVersion: 1, operations: hundredLessons(moduleId) });
      expect(result.isError).toBeFalsy();
      // Accepted against the output schema by the SDK client, and small enough.
      const structured = result.structuredContent as { version?: number; courseId?: string } | undefined;
      expect(structured?.version).toBe(2);
      expect(structured?.courseId).toBe(String(course.id));
      expect(JSON.stringify(result).length).toBeLessThanOrEqual(resultCap);
      const text = (result.content[0] as { type: string; text: string }).text;
      expect(text).toStartWith("edit_course succeeded and is committed as version 2: do not send it again");
      expect(text).toContain(`over this server's ${resultCap}-byte cap per result`);
      expect(text).toContain(`get_course { courseId: "${course.id}", includeBlocks: false }`);
      expect(text).toContain("lessonIds");

      // Committed once: the outline read as the answer says holds the 100 lessons at version 2.
      const outline = await agent.call("get_course", { courseId: course.id, includeBlocks: false });
      expect(outline.version).toBe(2);
      const lessons = (outline.modules as { lessons: { title: string }[] }[])[0]!.lessons;
      expect(lessons.length).toBe(100);
      expect(lessons[99]!.title).toBe("Lesson 100");

      // A retry with the old expectedVersion is a conflict, not a second copy.
      const retry = await agent.callRaw("edit_course", { courseId: course.id, expectedVersion: 1, operations: hundredLessons(moduleId) });
      expect(retry.isError).toBe(true);
      expect(JSON.stringify(retry.content)).toContain("conflict");
    }, 60_000);
  }
});
