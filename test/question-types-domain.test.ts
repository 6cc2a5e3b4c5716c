/**
 * Issue 42, step 1: the six new question types as a domain, through the real service and the official
 * MCP SDK client: stored and read back as sent in a lesson and a quiz, bad input refused naming the
 * field and the rule with nothing written, describe_blocks with a working example of each, the JSON
 * round trip, translation units (a translation swaps the picture, the regions stay), the review copy,
 * and the question-bank formats naming what they do not carry yet.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { unzipSync } from "fflate";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { dragOntoImageQuestion, hotspotQuestion, inlineChoiceQuestion, likertQuestion, newQuestionTypeBlocks, numericQuestion, openResponseQuestion } from "./support/question-types.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { allUnits, uploadAsset } from "./support/translation-units.ts";
import { comparable, embeddedBytes, exportPackage, pngBase64, readExport } from "./support/transfer.ts";

type Json = Record<string, unknown>;
type Block = Json & { id: string; type: string };
type Course = Json & { id: string; version: number; modules: { id: string; lessons: { id: string; blocks: Block[] }[] }[] };

let service: TestService;
let alice: Agent;
let courseId: string;
let pictureId: string;
let lessonId: string;

const getCourse = async (id = courseId): Promise<Course> => (await alice.call("get_course", { courseId: id })) as Course;
const withoutIds = (blocks: Block[]): Json[] => blocks.map(({ id: _id, ...block }) => block);

beforeAll(async () => {
  service = await startTestService();
  alice = await connectAgent(service, await devAccessToken(service, "alice"));
  const created = (await alice.call("create_course", { title: "Pump safety", language: "en", modules: [{ title: "Pumps", lessons: [{ title: "Scratch" }] }] })) as Course;
  courseId = created.id;
  lessonId = (await getCourse()).modules[0]!.lessons[0]!.id;
  pictureId = await uploadAsset(alice, courseId, "pump.png", pngBase64);
  await alice.call("add_module", {
    courseId,
    title: "Checks",
    lessons: [
      { title: "Practice", blocks: newQuestionTypeBlocks(pictureId) },
      { title: "Pump check", kind: "quiz", passingScore: 60, blocks: newQuestionTypeBlocks(pictureId) },
    ],
  });
});

afterAll(async () => {
  await alice?.close();
  await service?.dispose();
});

describe("the six types are stored as sent", () => {
  test("add_module and create_course take each type in a lesson and a quiz; get_course gives them back, defaults filled in", async () => {
    const course = await getCourse();
    const [practice, quiz] = course.modules[1]!.lessons;
    for (const lesson of [practice!, quiz!]) {
      const stored = withoutIds(lesson.blocks);
      expect(stored.map((block) => block.type)).toEqual(["numeric", "hotspot", "drag_onto_image", "inline_choice", "open_response", "likert"]);
      newQuestionTypeBlocks(pictureId).forEach((sent, index) => expect(stored[index]).toMatchObject(sent));
    }
    const hotspot = practice!.blocks[1] as Block & { regions: Json[]; points: number };
    expect(hotspot.regions[1]).toMatchObject({ correct: false });
    expect(hotspot.points).toBe(1);
    // A likert scale is never scored: it has no points at all.
    expect("points" in practice!.blocks[5]!).toBe(false);
    // create_course takes them with URL pictures.
    const other = (await alice.call("create_course", { title: "By URL", modules: [{ title: "M", lessons: [{ title: "Quiz", kind: "quiz", blocks: newQuestionTypeBlocks() }] }] })) as Course;
    const blocks = withoutIds((await getCourse(other.id)).modules[0]!.lessons[0]!.blocks);
    newQuestionTypeBlocks().forEach((sent, index) => expect(blocks[index]).toMatchObject(sent));
  });

  test("the outline names each type, open responses and likert scales as not scored", async () => {
    const outline = (await alice.client.readResource({ uri: `course://${courseId}/outline` })).contents[0] as { text: string };
    for (const words of ["numeric question (1 pt)", "hotspot question (1 pt)", "drag onto image question", "inline choice question", "open response (not scored)", "likert scale (not scored, 2 statement(s))"]) {
      expect(outline.text).toContain(words);
    }
  });

  test("validate_course and preview_course read every type (the preview carries the question-types player)", async () => {
    const validated = (await alice.call("validate_course", { courseId })) as Json;
    expect(JSON.stringify(validated)).not.toContain("internal");
    const preview = (await alice.call("preview_course", { courseId })) as { previewUri: string };
    const page = (await alice.client.readResource({ uri: preview.previewUri })).contents[0] as { text?: string };
    expect(page.text ?? "").toContain("data-xh");
  });

  test("a picture that is not an image asset of the course is refused on its path", async () => {
    const error = await alice.fail("add_blocks", { courseId, lessonId, blocks: [hotspotQuestion("ast_doesnotexist")] });
    expect(error.message).toContain("blocks[0].image");
  });
});

describe("bad input is refused naming the field and the rule; nothing is written", () => {
  const withRegion = (region: Json): Json => {
    const question = hotspotQuestion() as Json & { regions: Json[] };
    return { ...question, regions: [question.regions[0]!, region] };
  };
  const manyZones = (count: number): Json => ({
    ...dragOntoImageQuestion(),
    zones: Array.from({ length: count }, (_, index) => ({ shape: "rect", id: `z${index}`, x: index, y: 0, width: 1, height: 1, name: `Zone ${index + 1}` })),
    labels: [{ text: "A", zone: "z0" }],
  });
  const manyGaps = (count: number): Json => ({
    ...inlineChoiceQuestion(),
    text: Array.from({ length: count }, (_, index) => `{{${index + 1}}}`).join(" "),
    gaps: Array.from({ length: count }, () => ({ choices: [{ text: "a", correct: true }, { text: "b" }] })),
  });
  const cases: [string, Json, string][] = [
    ["a region outside the picture", withRegion({ shape: "rect", x: 380, y: 10, width: 60, height: 20, name: "Edge" }), "blocks[0].regions[1]: lies outside the picture"],
    ["a circle over the edge", withRegion({ shape: "circle", x: 10, y: 10, radius: 20, name: "Corner" }), "blocks[0].regions[1]: lies outside the picture"],
    ["a polygon corner outside", withRegion({ shape: "polygon", points: [[0, 0], [500, 0], [0, 10]], name: "Wedge" }), "blocks[0].regions[1]: lies outside the picture"],
    ["a negative size", withRegion({ shape: "rect", x: 10, y: 10, width: -5, height: 20, name: "Flat" }), "blocks[0].regions[1].width: must be more than 0"],
    ["a zero radius", withRegion({ shape: "circle", x: 10, y: 10, radius: 0, name: "Dot" }), "blocks[0].regions[1].radius: must be more than 0"],
    ["a polygon of two points", withRegion({ shape: "polygon", points: [[0, 0], [10, 10]], name: "Line" }), "blocks[0].regions[1].points: must have at least 3 points"],
    ["an unknown shape", withRegion({ shape: "star", x: 1, y: 1, name: "Star" }), "blocks[0].regions[1].shape"],
    ["no correct region", { ...hotspotQuestion(), regions: [{ shape: "rect", x: 0, y: 0, width: 10, height: 10, name: "A" }] }, "blocks[0].regions: needs at least one region with correct: true"],
    ["two regions of one name", withRegion({ shape: "rect", x: 0, y: 0, width: 10, height: 10, name: "valve a" }), 'blocks[0].regions[1].name: duplicate region name "valve a"'],
    ["a picture without its size", { ...hotspotQuestion(), image: { url: "https://example.com/p.png", alt: "A pump" } }, "blocks[0].image.width"],
    ["more than 50 zones", manyZones(51), "blocks[0].zones: must have at most 50 zones"],
    ["a label on a zone that does not exist", { ...dragOntoImageQuestion(), labels: [{ text: "Inlet", zone: "nowhere" }] }, 'blocks[0].labels[0].zone: no zone "nowhere"; zone ids are inlet, motor, outlet'],
    ["two labels on one zone", { ...dragOntoImageQuestion(), labels: [{ text: "Inlet", zone: "inlet" }, { text: "Intake", zone: "inlet" }] }, 'blocks[0].labels[1].zone: zone "inlet" already holds labels[0]'],
    ["a numeric answer that is not a number", { ...numericQuestion(), value: "two and a half" }, "blocks[0].value: must be a number"],
    ["a tolerance below zero", { ...numericQuestion(), tolerance: -0.1 }, "blocks[0].tolerance: must be 0 or more"],
    ["a percent tolerance that makes every answer right", { ...numericQuestion(), tolerance: 100, toleranceMode: "percent" }, "blocks[0].tolerance: a percent tolerance must be below 100"],
    ["an absolute tolerance that makes nearly every answer right", { ...numericQuestion(), tolerance: 1_000_000 }, "blocks[0].tolerance: must be below 250"],
    ["a range over every number", { type: "numeric", prompt: "Any number?", min: -1e12, max: 1e12 }, "blocks[0].min: a range from the lowest to the highest number makes every answer right"],
    ["a range upside down", { type: "numeric", prompt: "How many?", min: 5, max: 2 }, "blocks[0].max: must be at least min (5)"],
    ["neither value nor range", { type: "numeric", prompt: "How many?" }, "blocks[0].value: give the right answer as value"],
    ["a drop-down with one choice", { ...inlineChoiceQuestion(), gaps: [{ choices: [{ text: "switch off", correct: true }] }, { choices: [{ text: "a", correct: true }, { text: "b" }] }] }, "blocks[0].gaps[0].choices: must have at least 2 choices"],
    ["a gap with no right choice", { ...inlineChoiceQuestion(), gaps: [{ choices: [{ text: "a", correct: true }, { text: "b" }] }, { choices: [{ text: "open" }, { text: "close" }] }] }, "blocks[0].gaps[1].choices: needs exactly one choice with correct: true (this gap has 0)"],
    ["gaps that do not match the text", { ...inlineChoiceQuestion(), text: "Only {{1}} here." }, "blocks[0].text: text must contain the placeholders {{1}}, {{2}}"],
    ["more than 50 gaps", manyGaps(51), "blocks[0].gaps: must have at most 50 gaps"],
    ["a rubric with no criteria", { ...openResponseQuestion(), rubric: { criteria: [] } }, "blocks[0].rubric.criteria: must have at least 1 criterion"],
    ["a length guide over what an LMS keeps", { ...openResponseQuestion(), maxCharacters: 5000 }, "blocks[0].maxCharacters: must be at most 4000"],
    ["a likert scale of two points", { ...likertQuestion(), scale: ["No", "Yes"] }, "blocks[0].scale: must have 3 to 7 points"],
    ["a likert scale of eight points", { ...likertQuestion(), scale: ["1", "2", "3", "4", "5", "6", "7", "8"] }, "blocks[0].scale: must have 3 to 7 points"],
  ];

  test.each(cases)("%s", async (_name, block, message) => {
    const before = (await getCourse()).version;
    const error = await alice.fail("add_blocks", { courseId, lessonId, blocks: [block] });
    expect(error.code).toBe("invalid_arguments");
    expect(error.message).toContain(message);
    expect((await getCourse()).version).toBe(before);
  });

  test("50 zones and 50 gaps are accepted", async () => {
    const added = (await alice.call("add_blocks", { courseId, lessonId, blocks: [manyZones(50), manyGaps(50)] })) as { blocks: { id: string }[] };
    expect(added.blocks).toHaveLength(2);
    for (const block of added.blocks) await alice.call("edit_course", { courseId, operations: [{ op: "remove_block", blockId: block.id }] });
  });
});

describe("describe_blocks", () => {
  test("gives each new type its schema and an example that add_blocks accepts", async () => {
    const types = ["numeric", "hotspot", "drag_onto_image", "inline_choice", "open_response", "likert"];
    const described = (await alice.call("describe_blocks", { types })) as { blocks: { type: string; schema: Json; example?: Json }[]; rules: string };
    expect(described.blocks.map((block) => block.type)).toEqual(types);
    for (const block of described.blocks) {
      expect(block.example?.type).toBe(block.type);
      expect(Object.keys(block.schema.properties as Json)).toEqual(expect.arrayContaining(Object.keys(block.example!).filter((key) => key !== "type")));
    }
    const added = (await alice.call("add_blocks", { courseId, lessonId, blocks: described.blocks.map((block) => block.example) })) as { blocks: { id: string }[] };
    expect(added.blocks).toHaveLength(6);
    for (const block of added.blocks) await alice.call("edit_course", { courseId, operations: [{ op: "remove_block", blockId: block.id }] });
    expect(described.rules).toContain("hotspot");
    const all = (await alice.callRaw("describe_blocks", {})) as { content: { type: string; text?: string }[] };
    expect(JSON.stringify(all).length).toBeLessThan(60 * 1024);
  });
});

describe("the course travels", () => {
  test("JSON export → import → export is unchanged", async () => {
    const exportJson = async (id: string): Promise<Json> => JSON.parse(new TextDecoder().decode((await readExport(alice, (await exportPackage(alice, { courseId: id, format: "json" })).structured.uri)).bytes)) as Json;
    const original = await exportJson(courseId);
    const imported = (await alice.call("import_course", { format: "json", content: JSON.stringify(original) })) as unknown as { course: { id: string } };
    expect(comparable(await exportJson(imported.course.id))).toEqual(comparable(original));
    const types = (await getCourse(imported.course.id)).modules[1]!.lessons[1]!.blocks.map((block) => block.type);
    expect(types).toEqual(["numeric", "hotspot", "drag_onto_image", "inline_choice", "open_response", "likert"]);
  });

  test("translation units hold labels, region names, choices, model answers and statements; a translation swaps the picture and keeps the regions", async () => {
    const source = (await getCourse()).modules[1]!.lessons[0]!.blocks;
    const [numeric, hotspot, drag, inline, open, likert] = source;
    const translationId = ((await alice.call("create_translation", { courseId, language: "de" })) as { courseId: string }).courseId;
    const units = await allUnits(alice, courseId, "de");
    const ids = units.map((unit) => unit.id);
    const expected = [
      `${numeric!.id}/unit`,
      `${numeric!.id}/incorrectFeedback`,
      `${hotspot!.id}/image/alt`,
      `${hotspot!.id}/regions/0/name`,
      `${hotspot!.id}/regions/1/feedback`,
      `${hotspot!.id}/image/assetId`,
      `${drag!.id}/zones/2/name`,
      `${drag!.id}/labels/3/text`,
      `${drag!.id}/labels/0/feedback`,
      `${inline!.id}/text`,
      `${inline!.id}/gaps/1/choices/2/text`,
      `${inline!.id}/gaps/1/feedback`,
      `${open!.id}/modelAnswer`,
      `${open!.id}/rubric/criteria/1/text`,
      `${likert!.id}/statements/1/text`,
      `${likert!.id}/scale/4`,
    ];
    expect(ids).toEqual(expect.arrayContaining(expected));
    // Zone ids and region shapes are structure, not words.
    expect(ids.some((id) => /\/zones\/\d+\/id$|\/labels\/\d+\/zone$|\/shape$/.test(id))).toBe(false);

    const germanPicture = await uploadAsset(alice, translationId, "pumpe.png", pngBase64);
    await alice.call("set_translation_units", {
      courseId,
      language: "de",
      units: [
        { id: `${hotspot!.id}/regions/0/name`, target: "Ventil A" },
        { id: `${hotspot!.id}/image/assetId`, target: germanPicture },
        { id: `${drag!.id}/labels/0/text`, target: "Einlass" },
        { id: `${inline!.id}/gaps/0/choices/0/text`, target: "schalten Sie aus" },
        { id: `${open!.id}/modelAnswer`, target: "Pumpe am Hauptschalter stoppen." },
        { id: `${likert!.id}/scale/0`, target: "Stimme gar nicht zu" },
      ],
    });
    const translated = (await getCourse(translationId)).modules[1]!.lessons[0]!.blocks;
    const germanHotspot = translated[1] as Block & { image: Json; regions: Json[] };
    expect(germanHotspot.image.assetId).toBe(germanPicture);
    expect(germanHotspot.image).toMatchObject({ width: 400, height: 300 });
    expect(germanHotspot.regions.map(({ name: _name, feedback: _feedback, ...shape }) => shape)).toEqual((hotspot as Block & { regions: Json[] }).regions.map(({ name: _name, feedback: _feedback, ...shape }) => shape));
    expect(germanHotspot.regions[0]!.name).toBe("Ventil A");
    expect((translated[2] as Block & { labels: Json[] }).labels[0]).toMatchObject({ text: "Einlass", zone: "inlet" });
    expect((translated[3] as Block & { gaps: { choices: Json[] }[] }).gaps[0]!.choices[0]).toEqual({ text: "schalten Sie aus", correct: true });
    expect((translated[4] as Json).modelAnswer).toBe("Pumpe am Hauptschalter stoppen.");
    expect((translated[5] as unknown as { scale: string[] }).scale[0]).toBe("Stimme gar nicht zu");
  });

  test("the Word review copy reads each type: answers, regions numbered with their shapes, model answer and rubric", async () => {
    const copy = embeddedBytes((await exportPackage(alice, { courseId, format: "docx_review", delivery: "embedded" })).result).bytes;
    const xml = new TextDecoder().decode(unzipSync(copy, { filter: (entry) => entry.name === "word/document.xml" })["word/document.xml"]);
    const text = xml.replace(/<[^>]+>/g, "");
    for (const words of [
      "2.5 ml ± 0.1 ml",
      "Regions in picture coordinates (400×300), numbered as on the picture:",
      "1. ✔ right: ",
      "Valve A (circle at 60,150, radius 30)",
      "2. ✘ wrong: ",
      "Valve B (rectangle at 170,120, 60×60)",
      "Valve C (polygon 300,120 360,120 330,180)",
      "Inlet → zone 1 (Zone 1)",
      "Exhaust → no zone (distractor)",
      "open | ✔ close | remove",
      "Model answer",
      "Stops the pump first (2 points)",
      "1 Strongly disagree | 2 Disagree",
      "Likert · not scored in the course",
    ]) {
      expect(text).toContain(words);
    }
  });

  test("each question-bank format carries what it can of the six types and names the rest in its notices, never silently; the cartridge plays them as pages", async () => {
    // What each format leaves out (test/question-types-banks.test.ts checks what it writes and reads back).
    const leftOut: Record<string, readonly string[]> = { gift: ["hotspot", "drag_onto_image", "inline_choice", "likert"], moodle_xml: ["likert"], qti3: [], qti21: [] };
    for (const format of ["gift", "moodle_xml", "qti3", "qti21"] as const) {
      const { structured } = await exportPackage(alice, { courseId, format });
      const notices = (structured.notices as string[]).join("\n");
      for (const type of ["numeric", "hotspot", "drag_onto_image", "inline_choice", "open_response", "likert"]) {
        const line = notices.split("\n").find((notice) => notice.includes(`(${type}) in "`) && notice.includes("left out"));
        if (leftOut[format]!.includes(type)) expect(line, `${format} ${type}`).toBeDefined();
        else expect(line, `${format} ${type}`).toBeUndefined();
      }
      expect(notices).not.toContain("are not written to");
    }
    // The cartridge keeps a quiz its QTI profile cannot carry as a page of the course's own player: nothing is left out.
    const { structured } = await exportPackage(alice, { courseId, format: "imscc" });
    expect(structured.notices).toEqual([]);
  });
});
