/**
 * Many units, one answer: an import or a units write with bad units is refused naming every one (the
 * first 20, then how many more), with nothing written. Translators' notes survive: XLIFF 2.0 and 1.2
 * notes are kept and written back, and so is a PO translator comment through translate-toolkit
 * (export XLIFF 1.2 → xliff2po → edit → po2xliff → import_translation), whose flattened tags come back
 * as the Markdown they stood for.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { allUnits, type TranslationUnit } from "./support/translation-units.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { createRichCourse, readExport } from "./support/transfer.ts";
import { validateXliff } from "./support/xliff-schemas.ts";

type Unit = TranslationUnit;
type Counts = { units: number; translated: number; untranslated: number; outdated: number };

async function exportXliff(agent: Agent, courseId: string, language: string, format: "xliff20" | "xliff12"): Promise<string> {
  const result = await agent.callRaw("export_translation", { courseId, language, format });
  expect(result.isError).toBeFalsy();
  const link = result.content.find((item) => item.type === "resource_link") as { uri: string };
  return new TextDecoder().decode((await readExport(agent, link.uri)).bytes);
}

function run(command: string[], cwd: string): void {
  const done = Bun.spawnSync(command, { cwd });
  if (done.exitCode !== 0) throw new Error(`${command.join(" ")} failed: ${done.stderr.toString()}`);
}

/** A translator's edit of a PO file: every entry with a location gets msgstr = msgid + " (de)"; one gets a translator comment. */
function translatePo(po: string, commentOn: string, comment: string): string {
  return po
    .split(/\n\n+/)
    .map((entry) => {
      const lines = entry.split("\n").filter((line) => line !== "#, fuzzy");
      const location = lines.find((line) => line.startsWith("#: "));
      // Media units (…/assetId) keep the source's asset: left untranslated.
      if (!location || location.endsWith("/assetId")) return lines.join("\n");
      const idStart = lines.findIndex((line) => line.startsWith("msgid "));
      const strStart = lines.findIndex((line) => line.startsWith("msgstr "));
      const msgid = lines.slice(idStart, strStart);
      const last = msgid.length - 1;
      const msgstr = msgid.map((line, index) => (index === 0 ? line.replace(/^msgid /, "msgstr ") : line)).map((line, index) => (index === last ? line.replace(/"$/, ' (de)"') : line));
      const head = lines.slice(0, idStart);
      if (location === `#: ${commentOn}`) head.unshift(`# ${comment}`);
      return [...head, ...msgid, ...msgstr].join("\n");
    })
    .join("\n\n");
}

describe("bad units named together, translators' notes kept", () => {
  let service: TestService;
  let alice: Agent;
  let linksCourseId: string;
  let richCourseId: string;

  beforeAll(async () => {
    service = await startTestService();
    alice = await connectAgent(service, await devAccessToken(service, "alice"));
    const course = (await alice.call("create_course", {
      title: "Links",
      language: "en",
      modules: [
        {
          title: "Sites",
          lessons: [{ title: "Where to look", blocks: Array.from({ length: 25 }, (_, index) => ({ type: "text", markdown: `See [site ${index}](https://example.com/${index}) today.` })) }],
        },
      ],
    })) as { id: string };
    linksCourseId = course.id;
    richCourseId = await createRichCourse(alice);
  });

  afterAll(async () => {
    await alice?.close();
    await service?.dispose();
  });

  test("an XLIFF whose 25 units lost their inline codes is refused naming 20 of them and counting the other 5; nothing is written", async () => {
    const xliff = await exportXliff(alice, linksCourseId, "de", "xliff20");
    // Every target is the source's words without the link's tags (what a PO round trip without care does).
    const flattened = xliff.replace(/<source xml:space="preserve">([\s\S]*?)<\/source>/g, (_m, inner: string) => `<source xml:space="preserve">${inner}</source><target xml:space="preserve">${inner.replace(/<[^>]+>/g, "")} (de)</target>`);
    const error = await alice.fail("import_translation", { courseId: linksCourseId, language: "de", xliff: flattened });
    expect(error.code).toBe("invalid_arguments");
    expect(error.message).toContain("25 units are refused, nothing was written");
    expect(error.message).toContain("and 5 more unit(s)");
    const listed = error.details.units as { unitId: string; reason: string }[];
    expect(listed).toHaveLength(20);
    expect(error.details.moreUnits).toBe(5);
    for (const unit of listed) {
      expect(unit.unitId).toMatch(/^blk_[0-9a-z]+\/markdown$/);
      expect(unit.reason).toContain("missing from the target");
      expect(error.message).toContain(unit.unitId);
    }
    expect(new Set(listed.map((unit) => unit.unitId)).size).toBe(20);
    // Nothing written: the translation was not even created.
    expect((await alice.fail("get_translation_units", { courseId: linksCourseId, language: "de" })).code).toBe("not_found");
  });

  test("set_translation_units names every bad unit (unknown, given twice, title too long) in one error and writes nothing", async () => {
    await alice.call("create_translation", { courseId: linksCourseId, language: "fr" });
    const units = await allUnits(alice, linksCourseId, "fr");
    const title = units.find((unit) => unit.id === `${linksCourseId}/title`) as Unit;
    const text = units.find((unit) => unit.id.endsWith("/markdown")) as Unit;
    const error = await alice.fail("set_translation_units", {
      courseId: linksCourseId,
      language: "fr",
      units: [
        { id: text.id, target: "Voir [site 0](https://example.com/0) aujourd'hui." },
        { id: "blk_nothere/markdown", target: "Rien" },
        { id: text.id, target: "Encore" },
        { id: title.id, target: "T".repeat(1000) },
      ],
    });
    expect(error.code).toBe("invalid_arguments");
    const listed = error.details.units as { unitId: string; field: string; reason: string }[];
    expect(listed.map((unit) => [unit.field, unit.unitId])).toEqual(
      expect.arrayContaining([
        ["units[1].id", "blk_nothere/markdown"],
        ["units[2].id", text.id],
        ["units", title.id],
      ]),
    );
    expect(error.message).toContain("3 units are refused");
    const after = (await alice.call("get_translation_units", { courseId: linksCourseId, language: "fr" })) as { translation: Counts };
    expect(after.translation.translated).toBe(0);
  });

  for (const format of ["xliff20", "xliff12"] as const) {
    test(`${format}: a translator's note is kept and written back on the next export, valid against the schema`, async () => {
      const language = format === "xliff20" ? "es" : "it";
      const xliff = await exportXliff(alice, richCourseId, language, format);
      const note = `Keep it short (${format})`;
      const withNote =
        format === "xliff20"
          ? xliff.replace(/(<unit id="[^"]+" name="crs_[^"/]+\/title"[^>]*><notes>)/, `$1<note>${note}</note>`)
          : xliff.replace(/(<trans-unit id="crs_[^"/]+\/title"[\s\S]*?)(<\/trans-unit>)/, `$1<note from="translator">${note}</note>$2`);
      expect(withNote).toContain(note);
      await alice.call("import_translation", { courseId: richCourseId, language, xliff: withNote });
      const units = await allUnits(alice, richCourseId, language);
      expect(units.find((unit) => unit.id === `${richCourseId}/title`)?.translatorNote).toBe(note);
      const again = await exportXliff(alice, richCourseId, language, format);
      expect(again).toContain(note);
      expect(validateXliff(format, again).ok).toBe(true);
    });
  }

  test("a PO round trip with translate-toolkit (xliff2po, po2xliff) imports every unit, Markdown intact, and keeps the translator's comment", async () => {
    expect(Bun.which("xliff2po")).not.toBeNull();
    const directory = mkdtempSync(join(tmpdir(), "po-round-trip-"));
    writeFileSync(join(directory, "course.xlf"), await exportXliff(alice, richCourseId, "de", "xliff12"));
    run(["xliff2po", "--progress=none", "course.xlf", "course.po"], directory);
    const po = readFileSync(join(directory, "course.po"), "utf8");
    // The pairs' markup survives the flattening as Markdown.
    expect(po).toContain("**safely**");
    writeFileSync(join(directory, "translated.po"), translatePo(po, `${richCourseId}/title`, "Titel bitte kurz halten"));
    run(["po2xliff", "--progress=none", "translated.po", "translated.xlf"], directory);
    const xliff = readFileSync(join(directory, "translated.xlf"), "utf8");
    const imported = (await alice.call("import_translation", { courseId: richCourseId, language: "de", xliff })) as { translation: Counts };
    expect(imported.translation.untranslated).toBe(0);
    const units = await allUnits(alice, richCourseId, "de");
    const description = units.find((unit) => unit.id === `${richCourseId}/description`) as Unit;
    expect(description.target).toBe("How to work **safely** in a teaching lab. (de)");
    const list = units.find((unit) => unit.source.startsWith("1. Stop.")) as Unit;
    expect(list.target).toBe(`${list.source} (de)`);
    expect(units.find((unit) => unit.id === `${richCourseId}/title`)?.translatorNote).toBe("Titel bitte kurz halten");
    // The note goes out again with the next export, and from there back into the next PO file.
    writeFileSync(join(directory, "next.xlf"), await exportXliff(alice, richCourseId, "de", "xliff12"));
    run(["xliff2po", "--progress=none", "next.xlf", "next.po"], directory);
    expect(readFileSync(join(directory, "next.po"), "utf8")).toContain("# Titel bitte kurz halten");
  });
});
