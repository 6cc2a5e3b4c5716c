/**
 * export_course's choices and refusals through the real service: the published snapshot or the draft,
 * an unknown format, a course that was never published, and a block whose asset is gone — each a tool
 * error that says what is wrong, with no export written.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { createRichCourse, embeddedBytes, exportPackage } from "./support/transfer.ts";

let service: TestService;
let alice: Agent;

beforeAll(async () => {
  service = await startTestService();
  alice = await connectAgent(service, await devAccessToken(service, "alice"));
});

afterAll(async () => {
  await alice?.close();
  await service?.dispose();
});

async function exportFiles(courseId: string): Promise<string[]> {
  return readdir(join(service.dataDir, "exports", courseId)).catch(() => []);
}

function jsonDocument(result: Parameters<typeof embeddedBytes>[0]): { course: { title: string; version: number } } {
  return JSON.parse(new TextDecoder().decode(embeddedBytes(result).bytes)) as { course: { title: string; version: number } };
}

describe("draft or published", () => {
  test("variant published exports the snapshot while the draft has moved on; draft exports the working copy", async () => {
    const courseId = await createRichCourse(alice, "Published title");
    const published = (await alice.call("set_status", { courseId, status: "published" })) as { version: number };
    await alice.call("update_course", { courseId, title: "Draft title" });

    const snapshot = await exportPackage(alice, { delivery: "embedded", courseId, format: "json", variant: "published" });
    expect(snapshot.structured).toMatchObject({ variant: "published", courseVersion: published.version });
    expect(jsonDocument(snapshot.result).course.title).toBe("Published title");

    const draft = await exportPackage(alice, { delivery: "embedded", courseId, format: "json" });
    expect(draft.structured.variant).toBe("draft");
    expect(jsonDocument(draft.result).course.title).toBe("Draft title");
  });

  test("a course never published has no published variant to export", async () => {
    const courseId = await createRichCourse(alice, "Never published");
    const error = await alice.fail("export_course", { courseId, format: "scorm12", variant: "published" });
    expect(error.code).toBe("invalid_state");
    expect(error.message).toContain("has not been published");
    expect(await exportFiles(courseId)).toEqual([]);
  });
});

describe("refusals", () => {
  test("an unknown format is invalid_arguments naming the formats", async () => {
    const courseId = await createRichCourse(alice, "Formats");
    const error = await alice.fail("export_course", { courseId, format: "pdf" });
    expect(error.code).toBe("invalid_arguments");
    expect(error.message).toContain("format");
    expect(error.message).toContain("scorm12, scorm2004, cmi5, imscc, html, json");
  });

  test("a block whose asset is gone is an error naming the block, and nothing is written", async () => {
    const courseId = await createRichCourse(alice, "Broken asset");
    const course = (await alice.call("get_course", { courseId })) as { modules: { lessons: { blocks: { id: string; type: string; assetId?: string }[] }[] }[] };
    const image = course.modules[0]?.lessons[0]?.blocks.find((block) => block.type === "image");
    // Only damage outside the tools can break a reference: the tools refuse to make one.
    const database = new Database(join(service.dataDir, "course-authoring.db"));
    database.run("PRAGMA foreign_keys = OFF");
    database.run("DELETE FROM assets WHERE id = ?", [image?.assetId ?? ""]);
    database.close();

    for (const format of ["scorm2004", "json"]) {
      const error = await alice.fail("export_course", { courseId, format });
      expect(error.code).toBe("invalid_state");
      expect(error.message).toContain(`block ${image?.id}`);
      expect(error.message).toContain(`asset ${image?.assetId}`);
      expect(error.details).toMatchObject({ blockId: image?.id, assetId: image?.assetId });
    }
    expect(await exportFiles(courseId)).toEqual([]);
  });
});
