/**
 * Translator notes reach a translator's tools (issue 41): every note an XLIFF 1.2 export writes for
 * people (where a string sits, what a translator said) survives translate-toolkit's `xliff2po` as a PO
 * comment (`#.` for the developer's, `# ` for the translator's), and comes back through `po2xliff`: the
 * import succeeds, the translator's note stays the translator's, and the export's own notes are never
 * taken for a translator's. A unit's state travels as the PO's fuzzy flag.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { createRichCourse, readExport } from "./support/transfer.ts";
import { allUnits } from "./support/translation-units.ts";
import { validateXliff } from "./support/xliff-schemas.ts";

interface ExportedNote {
  unitId: string;
  from: string;
  text: string;
}

interface PoEntry {
  location: string;
  developerComments: string[];
  translatorComments: string[];
  lines: string[];
}

const translatorNote = "Keep the title under 40 characters";

async function exportXliff12(agent: Agent, courseId: string, language: string): Promise<string> {
  const result = await agent.callRaw("export_translation", { courseId, language, format: "xliff12" });
  expect(result.isError).toBeFalsy();
  const link = result.content.find((item) => item.type === "resource_link") as { uri: string };
  return new TextDecoder().decode((await readExport(agent, link.uri)).bytes);
}

const unescapeXml = (text: string): string => text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, "&");

/** Every note of every unit, with its `from`; a unit is named by its ID, or (po2xliff) by the PO location it carries. */
function notesOf(xliff: string): ExportedNote[] {
  return [...xliff.matchAll(/<trans-unit [^>]*?id="([^"]+)"[\s\S]*?<\/trans-unit>/g)].flatMap(([unit, id]) => {
    const location = /<context context-type="sourcefile">([^<]*)<\/context>/.exec(unit)?.[1];
    const unitId = unescapeXml(location ?? id ?? "");
    return [...unit.matchAll(/<note from="([^"]*)">([\s\S]*?)<\/note>/g)].map(([, from, text]) => ({ unitId, from: from ?? "", text: unescapeXml(text ?? "") }));
  });
}

/** PO entries by their location (`#: unitId`), with their comments split by kind. */
function poEntries(po: string): Map<string, PoEntry> {
  const entries = new Map<string, PoEntry>();
  for (const block of po.split(/\n\n+/)) {
    const lines = block.split("\n");
    const location = lines.find((line) => line.startsWith("#: "))?.slice(3);
    if (!location) continue;
    entries.set(location, {
      location,
      developerComments: lines.filter((line) => line.startsWith("#. ")).map((line) => line.slice(3)),
      translatorComments: lines.filter((line) => line.startsWith("# ")).map((line) => line.slice(2)),
      lines,
    });
  }
  return entries;
}

/** A translator's pass over the PO file: every entry gets msgstr = msgid + " (fr)" (media units keep the source's asset). */
function translatePo(po: string): string {
  return po
    .split(/\n\n+/)
    .map((block) => {
      const lines = block.split("\n").filter((line) => line !== "#, fuzzy");
      const location = lines.find((line) => line.startsWith("#: "));
      if (!location || location.endsWith("/assetId")) return lines.join("\n");
      const idStart = lines.findIndex((line) => line.startsWith("msgid "));
      const strStart = lines.findIndex((line) => line.startsWith("msgstr "));
      const msgid = lines.slice(idStart, strStart);
      const last = msgid.length - 1;
      const msgstr = msgid.map((line, index) => (index === 0 ? line.replace(/^msgid /, "msgstr ") : line)).map((line, index) => (index === last ? line.replace(/"$/, ' (fr)"') : line));
      return [...lines.slice(0, idStart), ...msgid, ...msgstr].join("\n");
    })
    .join("\n\n");
}

function run(command: string[], cwd: string): void {
  const done = Bun.spawnSync(command, { cwd });
  if (done.exitCode !== 0) throw new Error(`${command.join(" ")} failed: ${done.stderr.toString()}`);
}

describe("XLIFF 1.2 notes through translate-toolkit", () => {
  let service: TestService;
  let alice: Agent;
  let courseId: string;
  let directory: string;
  let exported: string;

  beforeAll(async () => {
    service = await startTestService();
    alice = await connectAgent(service, await devAccessToken(service, "alice"));
    courseId = await createRichCourse(alice);
    // A translator's note on the course title, as a CAT tool would add it.
    const first = await exportXliff12(alice, courseId, "fr");
    const withNote = first.replace(/(<trans-unit id="crs_[^"/]+\/title"[\s\S]*?)(<\/trans-unit>)/, `$1<note from="translator">${translatorNote}</note>$2`);
    await alice.call("import_translation", { courseId, language: "fr", xliff: withNote });
    exported = await exportXliff12(alice, courseId, "fr");
    directory = mkdtempSync(join(tmpdir(), "xliff-notes-"));
    writeFileSync(join(directory, "course.xlf"), exported);
    run(["xliff2po", "--progress=none", "course.xlf", "course.po"], directory);
  }, 60_000);

  afterAll(async () => {
    await alice?.close();
    await service?.dispose();
  });

  test("the export is valid XLIFF 1.2 and writes each unit's context as a developer note", () => {
    expect(validateXliff("xliff12", exported).ok).toBe(true);
    const notes = notesOf(exported);
    const units = new Set([...exported.matchAll(/<trans-unit [^>]*?id="([^"]+)"/g)].map(([, id]) => id));
    expect(units.size).toBeGreaterThan(10);
    const developer = notes.filter((note) => note.from === "developer");
    expect(new Set(developer.map((note) => note.unitId)).size).toBe(units.size);
    expect(notes.some((note) => note.from === "context")).toBe(false);
    expect(notes.filter((note) => note.from === "translator")).toEqual([{ unitId: `${courseId}/title`, from: "translator", text: translatorNote }]);
  });

  test("xliff2po keeps every note meant for people: the context as `#.`, the translator's as `# `", () => {
    const entries = poEntries(readFileSync(join(directory, "course.po"), "utf8"));
    // The state note is machine data (the PO's fuzzy flag carries it); every other note is for the translator's eyes.
    const forPeople = notesOf(exported).filter((note) => note.from !== "state");
    const missing = forPeople.filter((note) => {
      const entry = entries.get(note.unitId);
      const comments = note.from === "translator" ? entry?.translatorComments : entry?.developerComments;
      return !comments?.includes(note.text);
    });
    expect({ kept: forPeople.length - missing.length, of: forPeople.length, missing }).toEqual({ kept: forPeople.length, of: forPeople.length, missing: [] });
    expect(entries.get(`${courseId}/title`)?.translatorComments).toEqual([translatorNote]);
  });

  test("po2xliff brings the notes back; the import succeeds and keeps only the translator's note as the translator's", async () => {
    const po = readFileSync(join(directory, "course.po"), "utf8");
    writeFileSync(join(directory, "translated.po"), translatePo(po));
    run(["po2xliff", "--progress=none", "translated.po", "translated.xlf"], directory);
    const back = readFileSync(join(directory, "translated.xlf"), "utf8");
    const returned = notesOf(back);
    const contextNotes = notesOf(exported).filter((note) => note.from === "developer");
    for (const note of contextNotes) expect(returned).toContainEqual(note);
    expect(returned).toContainEqual({ unitId: `${courseId}/title`, from: "po-translator", text: translatorNote });

    const imported = (await alice.call("import_translation", { courseId, language: "fr", xliff: back })) as { translation: { untranslated: number } };
    expect(imported.translation.untranslated).toBe(0);
    const units = await allUnits(alice, courseId, "fr");
    expect(units.filter((unit) => unit.translatorNote !== undefined).map((unit) => [unit.id, unit.translatorNote])).toEqual([[`${courseId}/title`, translatorNote]]);

    // The next export carries the same notes, once each, and they reach the next PO file again.
    const next = await exportXliff12(alice, courseId, "fr");
    expect(notesOf(next).filter((note) => note.from !== "state")).toEqual(notesOf(exported).filter((note) => note.from !== "state"));
    writeFileSync(join(directory, "next.xlf"), next);
    run(["xliff2po", "--progress=none", "next.xlf", "next.po"], directory);
    const nextEntries = poEntries(readFileSync(join(directory, "next.po"), "utf8"));
    expect(nextEntries.get(`${courseId}/title`)?.translatorComments).toEqual([translatorNote]);
    for (const note of contextNotes) expect(nextEntries.get(note.unitId)?.developerComments).toContain(note.text);
  }, 60_000);

  test("a unit's state reaches the PO as its fuzzy flag: translated entries are not fuzzy, one whose source changed is", async () => {
    await alice.call("update_course", { courseId, description: "How to work **safely** in any lab." });
    writeFileSync(join(directory, "changed.xlf"), await exportXliff12(alice, courseId, "fr"));
    run(["xliff2po", "--progress=none", "changed.xlf", "changed.po"], directory);
    const entries = poEntries(readFileSync(join(directory, "changed.po"), "utf8"));
    const fuzzy = [...entries.values()].filter((entry) => entry.lines.includes("#, fuzzy")).map((entry) => entry.location);
    expect(fuzzy).toEqual([`${courseId}/description`]);
    expect(entries.get(`${courseId}/description`)?.developerComments.length).toBe(1);
  }, 60_000);

  test("an XLIFF 1.2 file exported before (context notes `from=\"context\"`) still imports without taking them for a translator's", async () => {
    const old = exported.replace(/<note from="developer">/g, '<note from="context">');
    await alice.call("import_translation", { courseId, language: "fr", xliff: old });
    const units = await allUnits(alice, courseId, "fr");
    expect(units.filter((unit) => unit.translatorNote !== undefined).map((unit) => unit.id)).toEqual([`${courseId}/title`]);
  });
});
