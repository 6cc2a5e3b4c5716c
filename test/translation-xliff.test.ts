/**
 * The translation round trip through the real service with the SDK client: a translation linked to its
 * source, XLIFF 2.0 and 1.2 valid against the OASIS schemas, a CAT-style pseudo-translation that keeps
 * every inline code imported back, exports of the translation in its language, exactly the edited
 * units outdated after a source edit, and hostile or wrong XLIFF refused with nothing written.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { strFromU8, unzipSync } from "fflate";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { storeKinds, testDatabaseFor } from "./support/postgres.ts";
import { createRichCourse, readExport } from "./support/transfer.ts";
import { validateXliff } from "./support/xliff-schemas.ts";

type Summary = { courseId: string; units: number; translated: number; untranslated: number; outdated: number; language: string; sourceVersion?: number };
type Unit = { id: string; source: string; target: string | null; state: string };

async function exportXliff(agent: Agent, courseId: string, args: Record<string, unknown>): Promise<string> {
  const result = await agent.callRaw("export_translation", { courseId, ...args });
  expect(result.isError).toBeFalsy();
  const link = result.content.find((item) => item.type === "resource_link") as { uri: string } | undefined;
  expect(link).toBeDefined();
  return new TextDecoder().decode((await readExport(agent, (link as { uri: string }).uri)).bytes);
}

/** What a CAT tool does: each text run of the source gets a marker, inline tags stay exactly where they are. */
function pseudoText(inner: string): string {
  return inner.replace(/(^|>)([^<]+)/g, (_match, before: string, text: string) => before + text.replace(/[A-Za-z][A-Za-z'’]*/g, (word) => `ŧ${word}`));
}

function pseudoTranslate(xliff: string, trgLang?: string): string {
  let out = xliff.replace(/<target\b[\s\S]*?<\/target>/g, "");
  if (trgLang) out = out.replace(/trgLang="[^"]*"/, `trgLang="${trgLang}"`).replace(/target-language="[^"]*"/, `target-language="${trgLang}"`);
  // Media units (source "name.png (image/png)") keep the source's asset: their target is left out.
  return out.replace(/<source( xml:space="preserve")?>([\s\S]*?)<\/source>/g, (match, space: string | undefined, inner: string) =>
    /\(\w+\/[\w.+-]+\)$/.test(inner) ? match : `<source${space ?? ""}>${inner}</source><target${space ?? ""}>${pseudoText(inner)}</target>`,
  );
}

async function allUnits(agent: Agent, courseId: string, args: Record<string, unknown>): Promise<Unit[]> {
  const units: Unit[] = [];
  let cursor: string | undefined;
  do {
    const page = (await agent.call("get_translation_units", { courseId, ...args, ...(cursor ? { cursor } : {}) })) as { units: Unit[]; nextCursor: string | null };
    units.push(...page.units);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return units;
}

for (const kind of storeKinds) {
describe(`on ${kind}`, () => {
  let service: TestService;
  let alice: Agent;
  let mallory: Agent;
  let courseId: string;

  let database: { env: Record<string, string>; drop(): Promise<void> };

  beforeAll(async () => {
    database = await testDatabaseFor(kind);
    service = await startTestService(database.env);
    alice = await connectAgent(service, await devAccessToken(service, "alice"));
    mallory = await connectAgent(service, await devAccessToken(service, "mallory"));
    courseId = await createRichCourse(alice);
  });

  afterAll(async () => {
    await alice?.close();
    await mallory?.close();
    await service?.dispose();
    await database?.drop();
  });

  describe("a translation round trip in XLIFF", () => {
    let translationId: string;

    test("create_translation makes a course linked to its source, every unit untranslated and showing the source text", async () => {
      const created = (await alice.call("create_translation", { courseId, language: "fr" })) as Summary;
      translationId = created.courseId;
      expect(translationId).not.toBe(courseId);
      expect(created.units).toBeGreaterThan(15);
      expect(created).toMatchObject({ translated: 0, outdated: 0, untranslated: created.units, language: "fr" });
      const copy = (await alice.call("get_course", { courseId: translationId })) as { title: string; language: string; translationOf: Summary };
      expect(copy).toMatchObject({ title: "Lab safety", language: "fr" });
      expect(copy.translationOf.untranslated).toBe(created.units);
      // The link leads to the source, on the translation's reads and in create_translation's result.
      expect(copy.translationOf).toMatchObject({ courseId, language: "en-GB", sourceVersion: expect.any(Number) });
      expect((created as Summary & { translationOf: unknown }).translationOf).toMatchObject({ courseId, language: "en-GB", sourceVersion: copy.translationOf.sourceVersion });
      const units = await allUnits(alice, courseId, { language: "fr" });
      expect(units.map((unit) => unit.id)).toContain(`${courseId}/title`);
      expect(units.some((unit) => /^blk_[0-9a-z]+\/choices\/0\/text$/.test(unit.id))).toBe(true);
      expect(units.every((unit) => unit.state === "untranslated" && unit.target === null)).toBe(true);
      const again = await alice.fail("create_translation", { courseId, language: "fr" });
      expect(again.code).toBe("conflict");
    });

    for (const format of ["xliff20", "xliff12"] as const) {
      test(`${format}: the export validates against the OASIS schema, one unit per string, Markdown as inline codes`, async () => {
        const xliff = await exportXliff(alice, courseId, { language: "fr", format });
        const validation = validateXliff(format, xliff);
        expect(validation.output).toContain("validates");
        expect(validation.ok).toBe(true);
        const unitCount = (xliff.match(format === "xliff20" ? /<unit /g : /<trans-unit /g) ?? []).length;
        const { translation } = (await alice.call("get_translation_units", { courseId, language: "fr" })) as { translation: Summary };
        // Text units, and media units (counted apart: without a target the source's asset stays).
        expect(unitCount).toBe((await allUnits(alice, courseId, { language: "fr" })).length);
        expect(unitCount).toBeGreaterThan(translation.units);
        // "How to work **safely** in a teaching lab." — the emphasis is a pair code, not asterisks.
        expect(xliff).toMatch(format === "xliff20" ? /How to work <pc id="\d+"[^>]*>safely<\/pc>/ : /How to work <bpt id="(\d+)"[^>]*>\*\*<\/bpt>safely<ept id="\1">\*\*<\/ept>/);
      });
    }

    test("a pseudo-translated XLIFF 2.0 imports as one revision: every unit applied, none untranslated", async () => {
      const translated = pseudoTranslate(await exportXliff(alice, courseId, { language: "fr", format: "xliff20" }));
      expect(validateXliff("xliff20", translated).ok).toBe(true);
      const before = (await alice.call("get_course", { courseId: translationId, includeBlocks: false })) as { version: number };
      const result = (await alice.call("import_translation", { courseId, language: "fr", xliff: translated })) as Summary & { applied: number; unchanged: number; version: number; translation: Summary };
      expect(result).toMatchObject({ untranslated: 0, outdated: 0, unchanged: 0 });
      expect(result.applied).toBe(result.translation.units);
      expect(result.version).toBe(before.version + 1);
      const again = (await alice.call("import_translation", { courseId, language: "fr", xliff: translated })) as { applied: number; unchanged: number };
      expect(again).toMatchObject({ applied: 0, unchanged: result.applied });
      const source = (await alice.call("get_course", { courseId, includeBlocks: false })) as { translations: Summary[] };
      expect(source.translations).toEqual([expect.objectContaining({ courseId: translationId, language: "fr", untranslated: 0, outdated: 0 })]);
    });

    test("the translation exports in French throughout: HTML lang, texts, SCORM manifest title; inline Markdown still renders", async () => {
      const html = await alice.call("export_course", { courseId: translationId, format: "html" });
      const htmlFiles = unzipSync((await readExport(alice, String(html.uri))).bytes);
      const pages = Object.entries(htmlFiles).filter(([path]) => path.endsWith(".html")).map(([, bytes]) => strFromU8(bytes)).join("\n");
      expect(pages).toContain('<html lang="fr"');
      expect(pages).toContain("ŧLab ŧsafety");
      expect(pages).toContain("ŧWhy ŧsafety ŧmatters");
      expect(pages).toMatch(/ŧHow ŧto ŧwork <(strong|em)>ŧsafely<\/(strong|em)>/);
      expect(pages).toContain("ŧStop ŧand ŧassess");
      expect(pages).not.toContain("Why safety matters");
      // Every plain-text unit shows translated; its source text shows nowhere.
      const plain = (await allUnits(alice, courseId, { language: "fr" })).filter((unit) => /^[A-Za-z][A-Za-z ,.?!-]*$/.test(unit.source));
      expect(plain.length).toBeGreaterThan(10);
      for (const unit of plain) {
        expect(pages).toContain(unit.source.replace(/[A-Za-z][A-Za-z'’]*/g, (word) => `ŧ${word}`));
        expect(pages).not.toMatch(new RegExp(`>\\s*${unit.source.replace(/[.?!]/g, "\\$&")}\\s*<`));
      }
      const scorm = await alice.call("export_course", { courseId: translationId, format: "scorm12" });
      const manifest = strFromU8(unzipSync((await readExport(alice, String(scorm.uri))).bytes)["imsmanifest.xml"] as Uint8Array);
      expect(manifest).toContain("ŧLab ŧsafety");
      expect(manifest).not.toContain(">Lab safety<");
      expect(pages).toContain("Aller au contenu");
      expect(pages).toContain("Vérifier la réponse");
      expect(pages).not.toContain("Skip to content");
      const cmi5 = await alice.call("export_course", { courseId: translationId, format: "cmi5" });
      const cmi5Xml = strFromU8(unzipSync((await readExport(alice, String(cmi5.uri))).bytes)["cmi5.xml"] as Uint8Array);
      expect(cmi5Xml).toContain('<langstring lang="fr">ŧLab ŧsafety</langstring>');
      const cartridge = await alice.call("export_course", { courseId: translationId, format: "imscc" });
      const cartridgeXml = strFromU8(unzipSync((await readExport(alice, String(cartridge.uri))).bytes)["imsmanifest.xml"] as Uint8Array);
      expect(cartridgeXml).toContain('language="fr">ŧLab ŧsafety');
      expect(html.notices).toEqual([]);
    });

    test("a language the player has no interface text for gets English buttons, and the export says so", async () => {
      const created = (await alice.call("create_translation", { courseId, language: "fi" })) as Summary;
      const html = await alice.call("export_course", { courseId: created.courseId, format: "html" });
      expect((html.notices as string[]).join(" ")).toMatch(/in English: it has no fi interface text/);
      const index = strFromU8(unzipSync((await readExport(alice, String(html.uri))).bytes)["index.html"] as Uint8Array);
      expect(index).toContain('<html lang="fi"');
      expect(index).toContain("Skip to content");
      // Nothing is translated yet: every block shows the source text, marked with the source language.
      expect((html.notices as string[]).join(" ")).toMatch(/block\(s\) are not translated yet and show the source text, marked as en-GB/);
      expect(index).toMatch(/<div lang="en-GB"><h2[^>]*>Why safety matters<\/h2>/);
    });

    test("editing the source marks exactly the edited units outdated; a new block appears untranslated", async () => {
      const source = (await alice.call("get_course", { courseId })) as { version: number; modules: { id: string; lessons: { id: string; blocks: { id: string; type: string }[] }[] }[] };
      const lesson = source.modules[0]!.lessons[0]!;
      const heading = lesson.blocks.find((block) => block.type === "heading")!;
      await alice.call("update_block", { courseId, blockId: heading.id, block: { type: "heading", text: "Why safety matters most", level: 2 } });
      await alice.call("update_lesson", { courseId, lessonId: lesson.id, title: "Welcome aboard" });
      await alice.call("add_blocks", { courseId, lessonId: lesson.id, blocks: [{ type: "text", markdown: "A brand new paragraph." }] });
      const outdated = await allUnits(alice, courseId, { language: "fr", onlyOutdated: true });
      expect(outdated.map((unit) => unit.id).sort()).toEqual([`${heading.id}/text`, `${lesson.id}/title`].sort());
      const { translation } = (await alice.call("get_translation_units", { courseId, language: "fr" })) as { translation: Summary };
      expect(translation).toMatchObject({ outdated: 2, untranslated: 1 });
      const validation = (await alice.call("validate_course", { courseId: translationId })) as { translationOf: Summary; findings: { ruleId: string; severity: string; message: string; fix: string }[] };
      expect(validation.translationOf).toMatchObject({ outdated: 2, untranslated: 1 });
      const outdatedFinding = validation.findings.find((finding) => finding.ruleId === "translation.outdated_units");
      expect(outdatedFinding).toMatchObject({ severity: "warning", message: expect.stringContaining("2 translated unit(s) are outdated") });
      expect(outdatedFinding?.fix).toContain(`get_translation_units { courseId: "${courseId}", language: "fr", onlyOutdated: true }`);
      const onlyOutdated = await exportXliff(alice, courseId, { language: "fr", format: "xliff12", onlyOutdated: true });
      expect((onlyOutdated.match(/<trans-unit /g) ?? []).length).toBe(2);
      expect(validateXliff("xliff12", onlyOutdated).ok).toBe(true);
    });

    test("set_translation_units writes agent translations and the translation takes the source's new block", async () => {
      const units = await allUnits(alice, courseId, { language: "fr" });
      const fresh = units.find((unit) => unit.state === "untranslated" && !unit.id.endsWith("/assetId"))!;
      const result = (await alice.call("set_translation_units", { courseId, language: "fr", units: [{ id: fresh.id, target: "Un tout nouveau paragraphe." }] })) as { applied: number; untranslated: number };
      expect(result).toMatchObject({ applied: 1, untranslated: 0 });
      const copy = (await alice.call("get_course", { courseId: translationId })) as { modules: { lessons: { blocks: { type: string; markdown?: string }[] }[] }[] };
      const texts = copy.modules[0]!.lessons[0]!.blocks.map((block) => block.markdown);
      expect(texts).toContain("Un tout nouveau paragraphe.");
    });

    test("edit tools refuse a translation: structure is edited in the source", async () => {
      const copy = (await alice.call("get_course", { courseId: translationId })) as { modules: { id: string; lessons: { id: string }[] }[] };
      const lessonId = copy.modules[0]!.lessons[0]!.id;
      const error = await alice.fail("add_blocks", { courseId: translationId, lessonId, blocks: [{ type: "text", markdown: "Extra" }] });
      expect(error.code).toBe("invalid_state");
      expect(error.message).toContain(courseId);
      const batch = await alice.fail("edit_course", { courseId: translationId, operations: [{ op: "update_lesson", lessonId, title: "Autre" }] });
      expect(batch.code).toBe("invalid_state");
    });

    test("a pseudo-translated XLIFF 1.2 creates the German translation on import", async () => {
      const exported = await exportXliff(alice, courseId, { language: "de", format: "xliff12" });
      expect(validateXliff("xliff12", exported).ok).toBe(true);
      const result = (await alice.call("import_translation", { courseId, language: "de", xliff: pseudoTranslate(exported) })) as { created: boolean; applied: number; untranslated: number; translation: Summary };
      expect(result).toMatchObject({ created: true, untranslated: 0 });
      expect(result.applied).toBe(result.translation.units);
      const html = await alice.call("export_course", { courseId: result.translation.courseId, format: "html" });
      const index = strFromU8(unzipSync((await readExport(alice, String(html.uri))).bytes)["index.html"] as Uint8Array);
      expect(index).toContain('<html lang="de"');
      expect(index).toContain("ŧLab ŧsafety");
    });
  });

  describe("the course theme's alt texts", () => {
    test("are units, and the translation's theme shows them translated on its own copy of the image", async () => {
      const sourceId = await createRichCourse(alice, "Themed source");
      const source = (await alice.call("get_course", { courseId: sourceId })) as { modules: { lessons: { blocks: { type: string; assetId?: string }[] }[] }[] };
      const assetId = source.modules.flatMap((module) => module.lessons).flatMap((lesson) => lesson.blocks).find((block) => block.type === "image")!.assetId!;
      await alice.call("update_course", { courseId: sourceId, theme: { logo: { assetId, alt: "Acme Safety" }, coverImage: { assetId, alt: "A teaching lab" } } });
      const created = (await alice.call("create_translation", { courseId: sourceId, language: "es" })) as Summary;
      const units = await allUnits(alice, sourceId, { language: "es" });
      expect(units.filter((unit) => unit.id.includes("/theme/") && !unit.id.endsWith("/assetId")).map((unit) => [unit.id, unit.source])).toEqual([
        [`${sourceId}/theme/logo/alt`, "Acme Safety"],
        [`${sourceId}/theme/coverImage/alt`, "A teaching lab"],
      ]);
      const xliff = await exportXliff(alice, sourceId, { language: "es", format: "xliff20" });
      expect(validateXliff("xliff20", xliff).ok).toBe(true);
      expect(xliff).toContain(`name="${sourceId}/theme/logo/alt"`);
      await alice.call("set_translation_units", { courseId: sourceId, language: "es", units: [{ id: `${sourceId}/theme/logo/alt`, target: "Seguridad Acme" }] });
      const copy = (await alice.call("get_course", { courseId: created.courseId })) as { theme: { logo: { assetId: string; alt: string }; coverImage: { assetId: string; alt: string } } };
      expect(copy.theme.logo.alt).toBe("Seguridad Acme");
      expect(copy.theme.coverImage.alt).toBe("A teaching lab");
      // The theme names the translation's copy of the asset, as its image blocks do.
      expect(copy.theme.logo.assetId).not.toBe(assetId);
      const html = await alice.call("export_course", { courseId: created.courseId, format: "html" });
      const index = strFromU8(unzipSync((await readExport(alice, String(html.uri))).bytes)["index.html"] as Uint8Array);
      expect(index).toContain("Seguridad Acme");
    });
  });

  describe("deleting the source", () => {
    test("leaves the translation as a course of its own, no longer linked", async () => {
      const sourceId = await createRichCourse(alice, "Short-lived source");
      const created = (await alice.call("create_translation", { courseId: sourceId, language: "nl" })) as Summary;
      await alice.call("delete_course", { courseId: sourceId });
      const orphan = (await alice.call("get_course", { courseId: created.courseId })) as Record<string, unknown>;
      expect(orphan).toMatchObject({ id: created.courseId, language: "nl" });
      expect(orphan.translationOf).toBeUndefined();
      expect((await alice.fail("get_translation_units", { courseId: created.courseId, language: "nl" })).code).toBe("invalid_arguments");
      await alice.call("add_blocks", { courseId: created.courseId, lessonId: (orphan as { modules: { lessons: { id: string }[] }[] }).modules[0]!.lessons[0]!.id, blocks: [{ type: "text", markdown: "Nu bewerkbaar." }] });
    });
  });

  describe("bad XLIFF is refused with the unit or field named, and nothing is written", () => {
    let good: string;
    let version: number;

    beforeAll(async () => {
      await alice.call("create_translation", { courseId, language: "es" });
      good = pseudoTranslate(await exportXliff(alice, courseId, { language: "es", format: "xliff20" }));
      version = ((await alice.call("get_translation_units", { courseId, language: "es" })) as { translation: Summary & { courseId: string } }).translation.units;
    });

    async function refused(xliff: string, agent = alice): Promise<{ code: string; message: string }> {
      const error = await agent.fail("import_translation", { courseId, language: "es", xliff });
      const { translation } = (await alice.call("get_translation_units", { courseId, language: "es" })) as { translation: Summary };
      expect(translation.translated).toBe(0);
      expect(translation.units).toBe(version);
      return error;
    }

    test("a DOCTYPE (billion laughs, external entity) is refused before any entity is read", async () => {
      const laughs = `<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>\n${good.replace(/^<\?xml[^>]*>\n/, "").replace("ŧLab", "&b;")}`;
      const xxe = `<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>\n${good.replace(/^<\?xml[^>]*>\n/, "").replace("ŧLab", "&e;")}`;
      for (const hostile of [laughs, xxe]) {
        const error = await refused(hostile);
        expect(error.code).toBe("invalid_arguments");
        expect(error.message).toMatch(/DOCTYPE at line 2/);
      }
    });

    test("malformed XML reports its line and column", async () => {
      const broken = good.replace("</file>", "</fil>");
      const error = await refused(broken);
      expect(error.code).toBe("invalid_arguments");
      expect(error.message).toMatch(/xliff: malformed XML at line \d+, column \d+/);
    });

    test("a wrong trgLang or srcLang names the attribute", async () => {
      expect((await refused(good.replace('trgLang="es"', 'trgLang="it"'))).message).toContain("trgLang");
      expect((await refused(good.replace('srcLang="en-GB"', 'srcLang="de"'))).message).toContain("srcLang");
    });

    test("a unit the source does not have is named", async () => {
      const error = await refused(good.replace(/name="([a-z]+_[0-9a-z]+)\/title"/, 'name="les_doesnotexist/title"'));
      expect(error.message).toContain("les_doesnotexist/title");
    });

    test("a target that drops or invents an inline code is named by unit", async () => {
      const dropped = good.replace(/(<target xml:space="preserve">[^<]*)<pc id="(\d+)"[^>]*>([^<]*)<\/pc>/, "$1$3");
      expect(dropped).not.toBe(good);
      expect((await refused(dropped)).message).toMatch(/unit [a-z]+_[0-9a-z]+\/description: inline code \d+ .*missing/);
      const invented = good.replace(/(<target xml:space="preserve">)/, '$1<ph id="99" dataRef="d1"/>');
      expect((await refused(invented)).message).toMatch(/inline code 99 is not in the source/);
    });

    test("a translated text that breaks its block's rules (a heading over 200 characters) is named by unit", async () => {
      const units = await allUnits(alice, courseId, { language: "es" });
      const heading = units.find((unit) => unit.source === "Why safety matters most")!;
      const error = await alice.fail("set_translation_units", { courseId, language: "es", units: [{ id: heading.id, target: "Por qué ".repeat(30) }] });
      expect(error.code).toBe("invalid_arguments");
      expect(error.message).toContain(`unit ${heading.id}`);
      const { translation } = (await alice.call("get_translation_units", { courseId, language: "es" })) as { translation: Summary };
      expect(translation.translated).toBe(0);
    });

    test("someone who cannot read the course is told it was not found", async () => {
      const error = await mallory.fail("import_translation", { courseId, language: "es", xliff: good });
      expect(error.code).toBe("not_found");
      expect((await mallory.fail("export_translation", { courseId, language: "es", format: "xliff20" })).code).toBe("not_found");
      expect((await mallory.fail("create_translation", { courseId, language: "it" })).code).toBe("not_found");
    });
  });
});
}
