/**
 * A translation leads to its source and an agent finds how to translate from the service's own words:
 * `translationOf { courseId, language, sourceVersion }` names the source on the translation's reads and
 * in create_translation's result, and the server instructions name the tools and the toolset. A
 * translation behind its source says what differs (get_course, validate_course, get_translation_units)
 * and one set_translation_units { units: [] } takes it all, keeping every translated text.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { createRichCourse, pngBase64 } from "./support/transfer.ts";

type SourceChange = { kind: string; id: string; change: string; fields?: string[] };
type TranslationOf = { courseId: string; language: string; sourceVersion: number; currentSourceVersion: number; upToDate: boolean; sourceChanges?: { changes: SourceChange[]; moreChanges: number } };
type Finding = { ruleId: string; severity: string; message: string; fix: string };
type Unit = { id: string; source: string; target: string | null; state: string };
type Block = { id: string; type: string; markers?: { x: number; y: number; title: string }[]; image?: { assetId?: string } };
type CourseRead = { id: string; numbering: string; modules: { id: string; lessons: { id: string; blocks: Block[] }[] }[]; translationOf?: TranslationOf };

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

  test("a translation behind its source says what differs, keeps its texts, and takes every structural change in one call", async () => {
    const first = (await alice.call("upload_asset", { courseId, filename: "plan.png", dataBase64: pngBase64 })) as { asset: { id: string } };
    const course = (await alice.call("get_course", { courseId })) as CourseRead;
    const lessonId = course.modules[0]!.lessons[0]!.id;
    const added = (await alice.call("add_blocks", {
      courseId,
      lessonId,
      blocks: [{ type: "labeled_graphic", image: { assetId: first.asset.id }, alt: "Floor plan", markers: [{ x: 10, y: 20, title: "Exit" }, { x: 50, y: 50, title: "Shower" }] }],
    })) as { blocks: { id: string }[] };
    const graphicId = added.blocks[0]!.id;
    const created = (await alice.call("create_translation", { courseId, language: "fr" })) as { courseId: string };
    const units = (await alice.call("get_translation_units", { courseId, language: "fr" })) as { units: Unit[] };
    const exit = units.units.find((unit) => unit.id === `${graphicId}/markers/0/title`) as Unit;
    await alice.call("set_translation_units", { courseId, language: "fr", units: [{ id: exit.id, target: "Sortie" }, { id: `${courseId}/title`, target: "Sécurité au labo" }] });
    const inStep = (await alice.call("get_course", { courseId: created.courseId, includeBlocks: false })) as CourseRead;
    expect(inStep.translationOf).toMatchObject({ upToDate: true });

    // The source changes its structure: a marker moves, a block moves, one is added, a setting and the graphic's image change.
    const second = (await alice.call("upload_asset", { courseId, filename: "plan-2.png", dataBase64: pngBase64 })) as { asset: { id: string } };
    await alice.call("update_block", {
      courseId,
      blockId: graphicId,
      block: { type: "labeled_graphic", image: { assetId: second.asset.id }, alt: "Floor plan", markers: [{ x: 80, y: 90, title: "Exit" }, { x: 50, y: 50, title: "Shower" }] },
    });
    await alice.call("move_block", { courseId, blockId: graphicId, position: 0 });
    await alice.call("add_blocks", { courseId, lessonId, blocks: [{ type: "text", markdown: "Brand new." }] });
    await alice.call("update_course", { courseId, numbering: "none" });

    const behind = (await alice.call("get_course", { courseId: created.courseId, includeBlocks: false })) as CourseRead;
    const link = behind.translationOf as TranslationOf;
    expect(link.upToDate).toBe(false);
    expect(link.sourceVersion).toBeLessThan(link.currentSourceVersion);
    const changes = link.sourceChanges!.changes;
    expect(changes).toEqual(
      expect.arrayContaining([
        { kind: "block", id: graphicId, change: "changed", fields: expect.arrayContaining(["position", "body.markers", "body.image"]) },
        { kind: "block", id: expect.stringMatching(/^blk_/), change: "added" },
        { kind: "course", id: courseId, change: "changed", fields: ["numbering"] },
        { kind: "asset", id: second.asset.id, change: "added" },
      ]),
    );
    const validation = (await alice.callRaw("validate_course", { courseId: created.courseId })) as {
      structuredContent: { translationOf: TranslationOf; findings: Finding[]; counts: { warning: number } };
      content: { type: string; text?: string }[];
    };
    expect(validation.structuredContent.translationOf).toMatchObject({ upToDate: false, sourceVersion: link.sourceVersion });
    // A finding of its own, with the version followed, the current one, what differs and the call that takes it.
    const behindFinding = validation.structuredContent.findings.find((finding) => finding.ruleId === "translation.behind_source");
    expect(behindFinding?.severity).toBe("warning");
    expect(behindFinding?.message).toContain(`follows version ${link.sourceVersion} of source course ${courseId}, which is at version ${link.currentSourceVersion}`);
    expect(behindFinding?.message).toContain(`block ${graphicId} changed (position, body.image, body.markers)`);
    expect(behindFinding?.fix).toContain(`set_translation_units { courseId: "${courseId}", language: "fr", units: [] }`);
    expect(validation.content[0]?.text).toContain("warning translation.behind_source");
    expect(validation.content[0]?.text).toContain(`It follows source version ${link.sourceVersion} of ${link.currentSourceVersion}`);
    const unitsBehind = (await alice.call("get_translation_units", { courseId, language: "fr" })) as { translation: { translationOf: TranslationOf }; units: Unit[] };
    expect(unitsBehind.translation.translationOf.sourceChanges?.changes.length).toBe(changes.length);

    // Its package says so too: nothing stale goes out without a warning.
    const staleExport = (await alice.call("export_course", { courseId: created.courseId, format: "html" })) as { notices: string[] };
    expect(staleExport.notices.join(" ")).toContain(`It follows source version ${link.sourceVersion} of ${link.currentSourceVersion}`);

    // One call takes it all and says what it took; the translator's texts stay.
    const synced = (await alice.call("set_translation_units", { courseId, language: "fr", units: [] })) as { takenFromSource: { changes: SourceChange[] }; translation: { translationOf: TranslationOf } };
    expect(synced.takenFromSource.changes).toEqual(changes);
    expect(synced.translation.translationOf).toMatchObject({ upToDate: true, sourceVersion: link.currentSourceVersion });
    const source = (await alice.call("get_course", { courseId })) as CourseRead;
    const translation = (await alice.call("get_course", { courseId: created.courseId })) as CourseRead & { title: string };
    expect(translation.translationOf).toMatchObject({ upToDate: true });
    expect(translation.numbering).toBe("none");
    expect(translation.title).toBe("Sécurité au labo");
    const freshExport = (await alice.call("export_course", { courseId: created.courseId, format: "html" })) as { notices: string[] };
    expect(freshExport.notices.join(" ")).not.toContain("behind its source");
    const freshValidation = (await alice.call("validate_course", { courseId: created.courseId })) as { findings: Finding[] };
    expect(freshValidation.findings.map((finding) => finding.ruleId)).not.toContain("translation.behind_source");
    const sourceBlocks = source.modules[0]!.lessons[0]!.blocks;
    const translatedBlocks = translation.modules[0]!.lessons[0]!.blocks;
    expect(translatedBlocks.map((block) => block.type)).toEqual(sourceBlocks.map((block) => block.type));
    const graphic = translatedBlocks[0] as Block;
    expect(graphic.markers?.map((marker) => [marker.x, marker.y, marker.title])).toEqual([[80, 90, "Sortie"], [50, 50, "Shower"]]);
    expect(graphic.image?.assetId).not.toBe((sourceBlocks[0] as Block).image?.assetId);
  });
});
