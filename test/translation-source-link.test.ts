/**
 * A translation leads to its source and an agent finds how to translate from the service's own words:
 * `translationOf { courseId, language, sourceVersion }` names the source on the translation's reads and
 * in create_translation's result, and the server instructions name the tools and the toolset.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { createRichCourse } from "./support/transfer.ts";

type TranslationOf = { courseId: string; language: string; sourceVersion: number; currentSourceVersion: number };

describe("translationOf and the service's own words", () => {
  let service: TestService;
  let alice: Agent;
  let courseId: string;

  beforeAll(async () => {
    service = await startTestService();
    alice = await connectAgent(service, await devAccessToken(service, "alice"));
    courseId = await createRichCourse(alice);
  });

  afterAll(async () => {
    await alice?.close();
    await service?.dispose();
  });

  test("create_translation's result and the translation's get_course and validate_course name the source, its language and the version followed", async () => {
    const source = (await alice.call("get_course", { courseId, includeBlocks: false })) as { version: number };
    const created = (await alice.call("create_translation", { courseId, language: "de" })) as { courseId: string; language: string; translationOf: TranslationOf };
    expect(created.courseId).not.toBe(courseId);
    expect(created.language).toBe("de");
    expect(created.translationOf).toMatchObject({ courseId, language: "en-GB", sourceVersion: source.version });
    const read = (await alice.call("get_course", { courseId: created.courseId, includeBlocks: false })) as { translationOf: TranslationOf };
    expect(read.translationOf).toMatchObject({ courseId, language: "en-GB", sourceVersion: source.version, currentSourceVersion: source.version });
    const validated = (await alice.call("validate_course", { courseId: created.courseId })) as { translationOf: TranslationOf };
    expect(validated.translationOf).toMatchObject({ courseId, language: "en-GB", sourceVersion: source.version });
    const ofSource = (await alice.call("get_course", { courseId, includeBlocks: false })) as { translations: { courseId: string; language: string }[]; translationOf?: unknown };
    expect(ofSource.translationOf).toBeUndefined();
    expect(ofSource.translations).toEqual([expect.objectContaining({ courseId: created.courseId, language: "de" })]);
  });

  test("the server instructions say how to translate: the tools, the translation toolset and how to list it", async () => {
    const instructions = alice.client.getInstructions() ?? "";
    for (const words of ["create_translation", "set_translation_units", "export_translation", "import_translation", "translation toolset", "?toolsets=default,translation"]) {
      expect(instructions).toContain(words);
    }
    // What the instructions promise works: that listing has the translation tools.
    const listed = await connectAgent({ mcpUrl: `${service.mcpUrl}?toolsets=default,translation` }, await devAccessToken(service, "alice"));
    try {
      const names = (await listed.client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(["create_translation", "get_translation_units", "set_translation_units", "export_translation", "import_translation", "get_course"]));
    } finally {
      await listed.close();
    }
  });
});
