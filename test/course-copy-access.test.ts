/**
 * Duplicating or exporting a course takes its content out, so it needs the editor role or ownership;
 * viewers and reviewers read and preview only. Over HTTP with real tokens and the SDK client: each
 * refusal is `forbidden`, names the caller's role and what is needed, and creates nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { TestService } from "./support/service.ts";
import { startTestIssuer, type TestIssuer } from "./support/test-issuer.ts";
import { startServiceFor } from "./auth-requests.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";

let idp: TestIssuer;
let service: TestService;
let courseId: string;
const agents = new Map<string, Agent>();

async function agent(sub: string): Promise<Agent> {
  if (!agents.has(sub)) agents.set(sub, await connectAgent(service, await idp.sign({ sub })));
  return agents.get(sub)!;
}

beforeAll(async () => {
  idp = await startTestIssuer();
  service = await startServiceFor(idp);
  const owner = await agent("owner");
  const course = await owner.call("create_course", {
    title: "Compliance basics",
    modules: [{ title: "Rules", lessons: [{ title: "Why", blocks: [{ type: "text", markdown: "Because." }] }] }],
  });
  courseId = course.id as string;
  for (const role of ["editor", "reviewer", "viewer"]) await owner.call("share_course", { courseId, sub: role, role });
});

afterAll(async () => {
  for (const client of agents.values()) await client.close();
  await service?.dispose();
  await idp?.stop();
});

async function ownCourseCount(sub: string): Promise<number> {
  const list = await (await agent(sub)).call("list_courses", {});
  return (list.courses as { role: string }[]).filter((course) => course.role === "owner").length;
}

describe("viewers and reviewers may not copy", () => {
  for (const role of ["viewer", "reviewer"]) {
    test(`a ${role} is refused duplicate_course with forbidden, and owns no new course`, async () => {
      const error = await (await agent(role)).fail("duplicate_course", { courseId });
      expect(error.code).toBe("forbidden");
      expect(error.message).toContain(`You are a ${role}`);
      expect(error.message).toContain("editor role");
      expect(await ownCourseCount(role)).toBe(0);
    });

    test(`a ${role} is refused export_course with forbidden, in every format`, async () => {
      for (const format of ["json", "html", "scorm12"]) {
        const error = await (await agent(role)).fail("export_course", { courseId, format });
        expect({ format, code: error.code }).toEqual({ format, code: "forbidden" });
        expect(error.message).toContain("duplicating or exporting it needs the editor role");
      }
    });

    test(`a ${role} still reads and previews the course`, async () => {
      const client = await agent(role);
      expect((await client.call("get_course", { courseId })).role).toBe(role);
      const preview = await client.callRaw("preview_course", { courseId });
      expect(preview.isError).toBeFalsy();
    });
  }
});

describe("editors and owners may copy", () => {
  for (const sub of ["editor", "owner"]) {
    test(`the ${sub} duplicates the course into a draft of their own`, async () => {
      const before = await ownCourseCount(sub);
      const copy = await (await agent(sub)).call("duplicate_course", { courseId });
      expect(copy.role).toBe("owner");
      expect(await ownCourseCount(sub)).toBe(before + 1);
    });

    test(`the ${sub} exports the course`, async () => {
      const exported = await (await agent(sub)).call("export_course", { courseId, format: "json" });
      expect(exported).toMatchObject({ courseId, format: "json" });
    });
  }
});

test("a stranger is told the course does not exist, for copying as for reading", async () => {
  const stranger = await agent("stranger");
  expect((await stranger.fail("duplicate_course", { courseId })).code).toBe("not_found");
  expect((await stranger.fail("export_course", { courseId, format: "json" })).code).toBe("not_found");
});
