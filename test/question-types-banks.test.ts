/**
 * The question types of issue 42 in the question-bank formats: QTI 2.1 items validate against 1EdTech's
 * schema and use the interactions the standard has for them (a float text entry scored by `equal` with
 * its tolerance, `hotspotInteraction`, `graphicGapMatchInteraction`, `inlineChoiceInteraction`,
 * `extendedTextInteraction` with the rubric for scorers, likert as unscored choices); QTI 3.0 writes the
 * same in its names; and what each format writes comes back through the import as the same question.
 */
import { describe, expect, test } from "bun:test";
import { readdir, readFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import * as v from "valibot";
import { buildPackage } from "../src/export/build-package.ts";
import { readBank, type BankImportFormat } from "../src/formats/question-bank/read-bank.ts";
import { renderCourseHtml } from "../src/render/index.ts";
import { blockSchema } from "../src/authoring/schemas/blocks.ts";
import type { ExportCourse } from "../src/formats/package/types.ts";
import { streamBytes, unpackToDirectory } from "./support/export-course.ts";
import { bankAssets } from "./support/question-bank-course.ts";
import { newQuestionTypeBlocks } from "./support/question-types.ts";

type Block = Record<string, unknown>;

const qtiSchemas = [resolve(import.meta.dir, "../../shared/schemas/qti"), resolve(import.meta.dir, "../../../shared/schemas/qti"), "/work/shared/schemas/qti"].find((path) => existsSync(path)) ?? "/work/shared/schemas/qti";
const qti21Schema = join(qtiSchemas, "2.1/imsqti_v2p1.xsd");

const ids = ["blk_numeric", "blk_hotspot", "blk_drag", "blk_inline", "blk_open", "blk_likert"];

/** The six blocks as stored: parsed by the block schema (defaults filled), with IDs. */
function storedBlocks(): Block[] {
  return newQuestionTypeBlocks("ast_goggles").map((block, index) => ({ id: ids[index], ...(v.parse(blockSchema, block) as Block) }));
}

function course(): ExportCourse {
  return {
    id: "crs_types",
    title: "Pump safety bank",
    description: "",
    language: "en",
    objectives: [],
    modules: [{ id: "mod_one", title: "Module one", lessons: [{ id: "les_quiz", title: "Pump quiz", kind: "quiz", passingScore: 80, shuffleChoices: false, blocks: storedBlocks() }] }],
  } as unknown as ExportCourse;
}

async function built(format: BankImportFormat): Promise<{ bytes: Uint8Array; notices: string[] }> {
  const notices: string[] = [];
  const result = await buildPackage(course(), { format, assets: bankAssets(), renderer: renderCourseHtml, onNotice: (notice) => notices.push(notice) });
  return { bytes: await streamBytes(result.stream), notices };
}

async function itemsOf(format: "qti21" | "qti3"): Promise<{ directory: string; items: Map<string, string> }> {
  const result = await buildPackage(course(), { format, assets: bankAssets(), renderer: renderCourseHtml });
  const directory = await unpackToDirectory(result.stream, `types-${format}`);
  const names = (await readdir(join(directory, "items"))).filter((name) => name.endsWith(".xml"));
  const items = new Map<string, string>();
  for (const name of names) items.set(name.replace(/^Q_/, "").replace(/\.xml$/, ""), await readFile(join(directory, "items", name), "utf8"));
  return { directory, items };
}

describe("QTI 2.1 items of the six types", () => {
  test("every item validates against imsqti_v2p1.xsd and uses the standard's interaction for its type", { timeout: 60_000 }, async () => {
    const { directory, items } = await itemsOf("qti21");
    expect([...items.keys()].sort()).toEqual([...ids].sort());
    const files = [...items.keys()].map((id) => `items/Q_${id}.xml`);
    const run = Bun.spawnSync(["xmllint", "--nonet", "--noout", "--schema", qti21Schema, ...files], { cwd: directory });
    const output = `${run.stdout.toString()}${run.stderr.toString()}`;
    expect(files.filter((file) => !output.includes(`${file} validates`))).toEqual([]);

    const numeric = items.get("blk_numeric") ?? "";
    expect(numeric).toContain('baseType="float"');
    expect(numeric).toContain('<equal toleranceMode="absolute" tolerance="0.1 0.1">');
    expect(numeric).toMatch(/<textEntryInteraction[^>]*\/> ml<\/p>/);
    const hotspot = items.get("blk_hotspot") ?? "";
    expect(hotspot).toContain("<hotspotInteraction");
    expect(hotspot).toContain('<hotspotChoice identifier="H1" shape="circle" coords="60,150,30" hotspotLabel="Valve A"/>');
    expect(hotspot).toContain('shape="rect" coords="170,120,230,180"');
    expect(hotspot).toContain('shape="poly" coords="300,120,360,120,330,180"');
    expect(hotspot).toMatch(/<object data="\.\.\/[^"]+\.png" type="image\/png" width="400" height="300">/);
    const drag = items.get("blk_drag") ?? "";
    expect(drag).toContain("<graphicGapMatchInteraction");
    // QTI 2.1 has picture gaps only: each text label is a drawing of its text, its name kept.
    expect(drag).toContain('objectLabel="Inlet"');
    expect(drag).toContain('type="image/svg+xml"');
    expect(drag).toContain('<associableHotspot identifier="Z_outlet" matchMax="1" shape="circle" coords="340,150,30" hotspotLabel="Zone 3"/>');
    expect(drag).toContain('<mapEntry mapKey="G1 Z_inlet"');
    expect(drag).not.toContain("G4 Z_");
    const inline = items.get("blk_inline") ?? "";
    expect(inline.match(/<inlineChoiceInteraction /g)).toHaveLength(2);
    expect(inline).toContain('<value>G2C2</value>');
    const open = items.get("blk_open") ?? "";
    expect(open).toContain('<extendedTextInteraction responseIdentifier="RESPONSE" expectedLength="200"/>');
    expect(open).toContain('<rubricBlock view="scorer">');
    expect(open).toContain("Stops the pump first (2)");
    expect(open).not.toContain("<responseCondition>");
    const likert = items.get("blk_likert") ?? "";
    expect(likert.match(/<choiceInteraction /g)).toHaveLength(2);
    expect(likert).not.toContain("<correctResponse>");
    expect(likert).toContain('normalMaximum="0"');
  });

  test("the schema check can fail: an item with a hotspot choice missing its coordinates does not validate", { timeout: 60_000 }, async () => {
    const { directory, items } = await itemsOf("qti21");
    const broken = (items.get("blk_hotspot") ?? "").replace(' coords="60,150,30"', "");
    await Bun.write(join(directory, "broken.xml"), broken);
    const run = Bun.spawnSync(["xmllint", "--nonet", "--noout", "--schema", qti21Schema, "broken.xml"], { cwd: directory });
    expect(run.exitCode).not.toBe(0);
  });
});

describe("QTI 3.0 items of the six types", () => {
  test("are written in QTI 3.0's names: text labels as qti-gap-text, the rubric in a content body", { timeout: 60_000 }, async () => {
    const { items } = await itemsOf("qti3");
    expect(items.get("blk_numeric")).toContain('<qti-equal tolerance-mode="absolute" tolerance="0.1 0.1">');
    expect(items.get("blk_hotspot")).toContain('<qti-hotspot-choice identifier="H1" shape="circle" coords="60,150,30" hotspot-label="Valve A"/>');
    expect(items.get("blk_drag")).toContain('<qti-gap-text identifier="G1" match-max="1">Inlet</qti-gap-text>');
    expect(items.get("blk_inline")).toContain("<qti-inline-choice-interaction ");
    expect(items.get("blk_open")).toMatch(/<qti-rubric-block view="scorer">\s*<qti-content-body>/);
    expect(items.get("blk_likert")).toContain('<qti-choice-interaction response-identifier="RESPONSE_1" shuffle="false" max-choices="1" class="likert">');
  });
});

/** The block as import gives it back: no ID; asset IDs differ by nature. */
function comparable(block: Block): Block {
  const { id: _id, objectiveIds: _objectives, ...rest } = block;
  return JSON.parse(JSON.stringify(rest, (key, value: unknown) => (key === "assetId" ? "(asset)" : value))) as Block;
}

for (const format of ["qti3", "qti21"] as const) {
  describe(`the six types through ${format} and back`, () => {
    for (const [index, id] of ids.entries()) {
      test(`${id} comes back as the same question`, { timeout: 60_000 }, async () => {
        const bank = await readBank(format, (await built(format)).bytes);
        const blocks = bank.pools.flatMap((pool) => pool.blocks) as Block[];
        const original = comparable(storedBlocks()[index] as Block);
        const back = blocks.find((block) => block.type === original.type);
        expect(back).toBeDefined();
        expect(v.safeParse(blockSchema, back).success).toBe(true);
        expect(comparable(v.parse(blockSchema, back) as Block)).toEqual(original);
      });
    }
  });
}

describe("the six types through Moodle XML and GIFT", () => {
  test("Moodle XML writes numerical, ddmarker, cloze drop-downs and essay, names likert as left out, and reads each back", { timeout: 60_000 }, async () => {
    const { bytes, notices } = await built("moodle_xml");
    const xml = new TextDecoder().decode(bytes);
    expect(xml).toContain('<question type="numerical">');
    expect(xml).toContain("<tolerance>0.1</tolerance>");
    expect(xml).toContain("<unit_name>ml</unit_name>");
    expect(xml.match(/<question type="ddmarker">/g)).toHaveLength(2);
    expect(xml).toContain("<coords>60,150;30</coords>");
    expect(xml).toContain("{1:MULTICHOICE:=switch off~restart}");
    expect(xml).toContain('<question type="essay">');
    expect(notices.some((notice) => notice.includes("blk_likert") && notice.includes("no opinion scale"))).toBe(true);
    const blocks = (await readBank("moodle_xml", bytes)).pools.flatMap((pool) => pool.blocks) as Block[];
    const byType = (type: string): Block => blocks.find((block) => block.type === type) as Block;
    expect(blocks.map((block) => block.type).sort()).toEqual(["drag_onto_image", "hotspot", "inline_choice", "numeric", "open_response"]);
    expect(byType("numeric")).toMatchObject({ value: 2.5, tolerance: 0.1, unit: "ml", correctFeedback: "Right: 2.5 ml.", incorrectFeedback: "Check the dilution table." });
    expect(byType("inline_choice")).toMatchObject({ text: "First {{1}} the pump, then {{2}} the inlet valve.", gaps: [{ choices: [{ text: "switch off", correct: true }, { text: "restart" }] }, { feedback: "An open inlet floods the pump." }] });
    expect(byType("open_response")).toMatchObject({ modelAnswer: "Stop the pump at the main switch, then close the inlet valve and call the supervisor.", rubric: { criteria: [{ text: "Stops the pump first", points: 2 }, { text: "Calls the supervisor", points: 1 }] } });
    expect(byType("hotspot")).toMatchObject({ regions: [{ shape: "circle", x: 60, y: 150, radius: 30, correct: true }] });
    const drag = byType("drag_onto_image");
    expect((drag.labels as Block[]).map((label) => [label.text, label.zone])).toEqual([["Inlet", "zone1"], ["Motor", "zone2"], ["Outlet", "zone3"], ["Exhaust", undefined]]);
    for (const block of blocks) expect(v.safeParse(blockSchema, block).success).toBe(true);
  });

  test("GIFT writes numeric {#value:tolerance} and essay {}, names the others, and gift-pegjs reads them", { timeout: 60_000 }, async () => {
    const { bytes, notices } = await built("gift");
    const text = new TextDecoder().decode(bytes);
    expect(text).toContain("=2.5:0.1#Right\\: 2.5 ml.");
    const { parse } = await import("gift-pegjs");
    const parsed = parse(text) as { type: string }[];
    expect(parsed.map((question) => question.type).filter((type) => type !== "Category")).toEqual(["Numerical", "Essay"]);
    for (const id of ["blk_hotspot", "blk_drag", "blk_inline", "blk_likert"]) expect(notices.some((notice) => notice.includes(id) && notice.includes("left out"))).toBe(true);
    const blocks = (await readBank("gift", bytes)).pools.flatMap((pool) => pool.blocks) as Block[];
    expect(blocks.find((block) => block.type === "numeric")).toMatchObject({ value: 2.5, tolerance: 0.1, correctFeedback: "Right: 2.5 ml." });
    expect(blocks.find((block) => block.type === "open_response")).toMatchObject({ prompt: "In two sentences, what would you do if the pressure alarm sounds?" });
  });
});
