/**
 * Question banks in: what export_course writes in each bank format comes back through import_course as
 * the same questions, scores and feedback where the format carries them (one test per format and
 * question type), with pictures as assets and the draw and pass mark where the format has them; other
 * tools' files are read; and hostile or broken files (DTDs, deep nesting, a manifest pointing outside the
 * package, a missing picture, unbalanced GIFT braces, 10,000 items) are refused naming the item, with
 * nothing written and the server answering other requests meanwhile.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { zipSync } from "fflate";
import { buildPackage } from "../src/export/build-package.ts";
import { readBank, type BankImportFormat } from "../src/formats/question-bank/read-bank.ts";
import { renderCourseHtml } from "../src/render/index.ts";
import { devAccessToken } from "./support/dev-login.ts";
import { pixelPng, streamBytes } from "./support/export-course.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { bankAssets, bankCourseFixture, bankQuestions, poolQuestions } from "./support/question-bank-course.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { probeHealthWhile } from "./support/health-probe.ts";

type Block = Record<string, unknown>;

async function exported(format: BankImportFormat): Promise<Uint8Array> {
  const built = await buildPackage(bankCourseFixture(), { format, assets: bankAssets(), renderer: renderCourseHtml });
  return streamBytes(built.stream);
}

/** The fixture's questions as add_blocks would take them back: no ID, no objectives. */
function original(id: string): Block {
  const found = [...bankQuestions(), ...poolQuestions()].find((question) => question.id === id) as Block;
  const { id: _id, objectiveIds: _objectives, ...rest } = found;
  return rest;
}

/** Asset IDs differ by nature (the import names its pictures until it stores them): compare the rest. */
function withoutAssetIds(block: Block): Block {
  return JSON.parse(JSON.stringify(block, (key, value: unknown) => (key === "assetId" ? "(asset)" : value))) as Block;
}

const questionIds = ["blk_single", "blk_multi", "blk_tf", "blk_blank", "blk_blanks", "blk_match", "blk_order", "blk_sort", "blk_tf2"];

/** What each format cannot carry, as the exports' notices say: the block expected back. */
const expectedBack: Record<BankImportFormat, (id: string, block: Block) => Block | null> = {
  qti3: (_id, block) => block,
  qti21: (_id, block) => block,
  moodle_xml: (id, block) => {
    if (id === "blk_single") return { ...block, choices: (block.choices as Block[]).map(({ fixed: _fixed, ...choice }) => choice) };
    if (id === "blk_match") return { ...block, pairs: (block.pairs as Block[]).map(({ feedback: _feedback, ...pair }) => pair) };
    if (id === "blk_order" || id === "blk_sort") return { ...block, items: (block.items as Block[]).map(({ feedback: _feedback, ...item }) => item) };
    return block;
  },
  gift: (id, block) => {
    if (id === "blk_order" || id === "blk_blanks") return null;
    const base = { ...block, points: 1 };
    if (id === "blk_single") return { ...base, choices: (block.choices as Block[]).map(({ fixed: _fixed, image: _image, ...choice }) => choice) };
    if (id === "blk_blank") return { ...base, blanks: (block.blanks as Block[]).map(({ feedback: _feedback, ...blank }) => blank) };
    if (id === "blk_match") return { ...base, pairs: (block.pairs as Block[]).map(({ feedback: _feedback, ...pair }) => pair) };
    if (id === "blk_sort") return { ...base, categories: [{ title: "Flammable" }, { title: "Safe" }], items: (block.items as Block[]).map(({ feedback: _feedback, ...item }) => item) };
    return base;
  },
};

for (const format of ["qti3", "qti21", "moodle_xml", "gift"] as const) {
  describe(`round trip through ${format}`, () => {
    let blocks: Block[] = [];
    let pools: { title: string; drawCount?: number; passingScore?: number }[] = [];
    let assets = 0;

    beforeAll(async () => {
      const bank = await readBank(format, await exported(format));
      blocks = bank.pools.flatMap((pool) => pool.blocks);
      pools = bank.pools;
      assets = bank.assets.length;
    });

    for (const id of questionIds) {
      const type = String(original(id).type);
      test(`${type} (${id}) comes back with the same prompt, points, answers and feedback${format === "gift" || format === "moodle_xml" ? " the format carries" : ""}`, () => {
        const want = expectedBack[format](id, original(id));
        const prompt = original(id).prompt;
        const got = blocks.find((block) => block.prompt === prompt && block.type === type);
        if (want === null) {
          expect(got).toBeUndefined();
          return;
        }
        expect(got).toBeDefined();
        expect(withoutAssetIds(got as Block)).toEqual(withoutAssetIds(want));
      });
    }

    test("the pools keep their lessons' titles, and the draw and pass mark where the format has them", () => {
      expect(pools.map((pool) => pool.title)).toEqual(["Final quiz", "Drawn pool"]);
      if (format !== "gift") expect(pools[1]?.drawCount).toBe(2);
      if (format === "qti3" || format === "qti21") expect(pools[0]?.passingScore).toBe(80);
      expect(assets).toBe(format === "gift" ? 0 : 1);
    });
  });
}

describe("files written by other tools", () => {
  test("a GIFT file in Moodle's documented forms: categories, weights, true/false, missing word, matching, numerical and essay (issue 42)", async () => {
    const gift = [
      "// a comment",
      "$CATEGORY: $course$/top/Geography",
      "",
      "::Capital:: What is the capital of France? {=Paris#Right ~London#No ~Berlin}",
      "",
      "Grant is buried in {~rubble ~the sea =Grant's tomb} in New York.",
      "",
      "::TF::The sun rises in the east.{T}",
      "",
      "Which are primes? {~%50%2 ~%50%3 ~%-100%4}",
      "",
      "::Pairs:: Match. {=cat -> meow =dog -> woof =cow -> moo}",
      "",
      "::Num:: 2+2? {#4}",
      "",
      "::Essay:: Write about it. {}",
    ].join("\n");
    const bank = await readBank("gift", new TextEncoder().encode(gift));
    expect(bank.pools.map((pool) => pool.title)).toEqual(["Geography"]);
    expect(bank.pools[0]?.blocks.map((block) => block.type)).toEqual(["single_choice", "single_choice", "true_false", "multiple_choice", "matching", "numeric", "open_response"]);
    expect(bank.pools[0]?.blocks[3]).toMatchObject({ choices: [{ text: "2", correct: true }, { text: "3", correct: true }, { text: "4", correct: false }] });
    expect(bank.pools[0]?.blocks[5]).toMatchObject({ prompt: "2+2?", value: 4 });
    expect(bank.pools[0]?.blocks[6]).toMatchObject({ prompt: "Write about it.", modelAnswer: "(no model answer given)" });
    expect(bank.report.filter((entry) => entry.outcome === "dropped")).toEqual([]);
  });

  test("a QTI 2.1 item with feedback keyed to the response and a picture in the package", async () => {
    const item = `<?xml version="1.0"?>
<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="choice" title="Unattended luggage" adaptive="false" timeDependent="false">
  <responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier"><correctResponse><value>ChoiceA</value></correctResponse></responseDeclaration>
  <outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"><defaultValue><value>0</value></defaultValue></outcomeDeclaration>
  <outcomeDeclaration identifier="FEEDBACK" cardinality="single" baseType="identifier"/>
  <itemBody>
    <p>Look at the text in the picture.</p>
    <choiceInteraction responseIdentifier="RESPONSE" shuffle="false" maxChoices="1">
      <prompt>What does it say?</prompt>
      <simpleChoice identifier="ChoiceA">You must stay with your luggage at all times. <img src="images/sign.png" alt="sign"/></simpleChoice>
      <simpleChoice identifier="ChoiceB">Do not let someone else look after your luggage.</simpleChoice>
    </choiceInteraction>
  </itemBody>
  <responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct"/>
  <modalFeedback outcomeIdentifier="FEEDBACK" identifier="ChoiceB" showHide="show">No, read it again.</modalFeedback>
</assessmentItem>`;
    const manifest = `<?xml version="1.0"?><manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" identifier="M"><organizations/><resources>
<resource identifier="R1" type="imsqti_item_xmlv2p1" href="choice.xml"><file href="choice.xml"/></resource></resources></manifest>`;
    const zip = zipSync({ "imsmanifest.xml": new TextEncoder().encode(manifest), "choice.xml": new TextEncoder().encode(item), "images/sign.png": pixelPng });
    const bank = await readBank("qti21", zip);
    expect(bank.pools[0]?.blocks[0]).toEqual({
      type: "single_choice",
      prompt: "Look at the text in the picture.\n\nWhat does it say?",
      points: 1,
      choices: [
        { text: "You must stay with your luggage at all times.", correct: true, image: { assetId: "ast_picture1", alt: "sign" } },
        { text: "Do not let someone else look after your luggage.", correct: false, feedback: "No, read it again." },
      ],
    });
    expect(bank.assets[0]?.mediaType).toBe("image/png");
    expect(bank.pools[0]?.shuffleChoices).toBe(false);
  });

  test("a QTI 3.0 choice's inline feedback (qti-feedback-inline) is kept as that choice's feedback, not stripped", async () => {
    const item = `<?xml version="1.0"?>
<qti-assessment-item xmlns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0" identifier="inline" title="Gloves" adaptive="false" time-dependent="false">
  <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="identifier"><qti-correct-response><qti-value>A</qti-value></qti-correct-response></qti-response-declaration>
  <qti-outcome-declaration identifier="FEEDBACK" cardinality="single" base-type="identifier"/>
  <qti-item-body>
    <qti-choice-interaction response-identifier="RESPONSE" shuffle="false" max-choices="1">
      <qti-prompt>Do gloves replace hand hygiene?</qti-prompt>
      <qti-simple-choice identifier="A">No <qti-feedback-inline outcome-identifier="FEEDBACK" identifier="A" show-hide="show">Right: clean hands before and after.</qti-feedback-inline></qti-simple-choice>
      <qti-simple-choice identifier="B">Yes <qti-feedback-inline outcome-identifier="FEEDBACK" identifier="B" show-hide="show">Gloves can tear; clean hands anyway.</qti-feedback-inline></qti-simple-choice>
    </qti-choice-interaction>
  </qti-item-body>
  <qti-response-processing template="https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/match_correct.xml"/>
</qti-assessment-item>`;
    const manifest = `<?xml version="1.0"?><manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" identifier="M"><organizations/><resources>
<resource identifier="R1" type="imsqti_item_xmlv3p0" href="inline.xml"><file href="inline.xml"/></resource></resources></manifest>`;
    const zip = zipSync({ "imsmanifest.xml": new TextEncoder().encode(manifest), "inline.xml": new TextEncoder().encode(item) });
    const bank = await readBank("qti3", zip);
    expect(bank.pools[0]?.blocks[0]).toMatchObject({
      type: "single_choice",
      choices: [
        { text: "No", correct: true, feedback: "Right: clean hands before and after." },
        { text: "Yes", correct: false, feedback: "Gloves can tear; clean hands anyway." },
      ],
    });
  });
});

describe("import_course with a question bank", () => {
  let service: TestService;
  let alice: Agent;

  beforeAll(async () => {
    service = await startTestService();
    alice = await connectAgent(service, await devAccessToken(service, "bank-alice"));
  });

  afterAll(async () => {
    await alice?.close();
    await service?.dispose();
  });

  const courseCount = async (): Promise<number> => ((await alice.call("list_courses", {})) as { courses: unknown[] }).courses.length;

  test("QTI 3.0 becomes a new course with a quiz lesson per pool, its picture an asset and a report per item", async () => {
    const result = (await alice.call("import_course", { format: "qti3", contentBase64: Buffer.from(await exported("qti3")).toString("base64"), title: "Banked" })) as Record<string, unknown>;
    expect(result.pools).toEqual([
      { title: "Final quiz", questions: 6 },
      { title: "Drawn pool", questions: 3, drawCount: 2 },
    ]);
    expect(result.report).toMatchObject({ kept: 9, changed: 0, dropped: 0 });
    const courseId = (result.course as { id: string }).id;
    const course = (await alice.call("get_course", { courseId, includeBlocks: true })) as { modules: { lessons: { kind: string; drawCount: number | null; passingScore: number | null; blocks: Block[] }[] }[] };
    const [quiz, pool] = course.modules[0]?.lessons ?? [];
    expect(quiz).toMatchObject({ kind: "quiz", passingScore: 80 });
    expect(pool).toMatchObject({ kind: "quiz", drawCount: 2 });
    const assets = (await alice.call("list_assets", { courseId })) as { assets: { id: string }[] };
    expect(assets.assets).toHaveLength(1);
    const single = quiz?.blocks.find((block) => block.type === "single_choice") as { choices: { image?: { assetId: string } }[] };
    expect(single.choices[0]?.image?.assetId).toBe(assets.assets[0]?.id);
  });

  test("Moodle XML adds its questions to an existing quiz lesson, and GIFT new lessons to a module, in one revision each", async () => {
    const course = (await alice.call("create_course", { title: "Target", modules: [{ title: "M", lessons: [{ title: "Quiz", kind: "quiz", blocks: [{ type: "true_false", prompt: "Old?", answer: true }] }] }] })) as {
      id: string;
      version: number;
      modules: { id: string; lessons: { id: string }[] }[];
    };
    const lessonId = course.modules[0]?.lessons[0]?.id;
    const moodle = new TextDecoder().decode(await exported("moodle_xml"));
    const into = (await alice.call("import_course", { format: "moodle_xml", content: moodle, into: { courseId: course.id, lessonId, expectedVersion: course.version } })) as { into: { version: number } };
    expect(into.into.version).toBe(course.version + 1);
    const gift = new TextDecoder().decode(await exported("gift"));
    const stale = await alice.fail("import_course", { format: "gift", content: gift, into: { courseId: course.id, moduleId: course.modules[0]?.id, expectedVersion: course.version } });
    expect(stale.code).toBe("conflict");
    const assetsBefore = ((await alice.call("list_assets", { courseId: course.id })) as { assets: unknown[] }).assets.length;
    expect(assetsBefore).toBe(1);
    await alice.call("import_course", { format: "gift", content: gift, into: { courseId: course.id, moduleId: course.modules[0]?.id } });
    const after = (await alice.call("get_course", { courseId: course.id, includeBlocks: true })) as { modules: { lessons: { title: string; blocks: Block[] }[] }[] };
    expect(after.modules[0]?.lessons.map((lesson) => [lesson.title, lesson.blocks.length])).toEqual([
      ["Quiz", 10],
      ["Final quiz", 5],
      ["Drawn pool", 2],
    ]);
  });

  test("a file that is not what its format claims, or a stale version, writes nothing", async () => {
    const before = await courseCount();
    const notZip = await alice.fail("import_course", { format: "qti21", content: "<quiz/>" });
    expect(notZip.message).toContain("not a zip archive");
    const qti3AsQti21 = await alice.fail("import_course", { format: "qti21", contentBase64: Buffer.from(await exported("qti3")).toString("base64") });
    expect(qti3AsQti21.message).toContain('is a QTI 3.0 package, not QTI 2.1; import it with format "qti3"');
    const xmlAsGift = await alice.fail("import_course", { format: "gift", content: "<?xml version='1.0'?><quiz/>" });
    expect(xmlAsGift.message).toContain("XML, not GIFT");
    const notMoodle = await alice.fail("import_course", { format: "moodle_xml", content: "<?xml version='1.0'?><html/>" });
    expect(notMoodle.message).toContain("not <quiz>");
    expect(await courseCount()).toBe(before);
  });

  test("hostile and broken files are refused naming the item, and nothing is written", async () => {
    const before = await courseCount();
    const laughs = `<?xml version="1.0"?><!DOCTYPE quiz [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><quiz><question type="truefalse"><name><text>&b;</text></name></question></quiz>`;
    expect((await alice.fail("import_course", { format: "moodle_xml", content: laughs })).message).toContain("DOCTYPE");
    const deep = `<?xml version="1.0"?><quiz>${"<a>".repeat(200)}${"</a>".repeat(200)}</quiz>`;
    const depth = await alice.fail("import_course", { format: "moodle_xml", content: deep });
    expect(depth.code).toBe("limit_exceeded");
    expect(depth.message).toContain("nest more than 64 deep");
    const braces = "::One:: fine {=a ~b}\n\n::Two:: broken {=a ~b\n\n::Three:: next {T}";
    const unbalanced = await alice.fail("import_course", { format: "gift", content: braces });
    expect(unbalanced.message).toMatch(/line 3.*never closed|opening brace \{ inside another/);
    const outside = zipSync({
      "imsmanifest.xml": new TextEncoder().encode(`<manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" identifier="M"><resources><resource identifier="EVIL" type="imsqti_item_xmlv2p1" href="../../etc/passwd"/></resources></manifest>`),
    });
    const escaped = await alice.fail("import_course", { format: "qti21", contentBase64: Buffer.from(outside).toString("base64") });
    expect(escaped.message).toContain("item EVIL: the manifest points outside the package");
    const qti = await exported("qti21");
    const { unzipSync } = await import("fflate");
    const files = unzipSync(qti);
    delete files["images/ast_goggles-goggles.png"];
    const missing = await alice.fail("import_course", { format: "qti21", contentBase64: Buffer.from(zipSync(files)).toString("base64") });
    expect(missing.message).toContain("Q_blk_single (items/Q_blk_single.xml)");
    expect(missing.message).toContain("which is not in the package");
    const moodle = new TextDecoder().decode(await exported("moodle_xml")).replace(/<file name="ast_goggles-goggles.png"[^<]*<\/file>/, "");
    const noPicture = await alice.fail("import_course", { format: "moodle_xml", content: moodle });
    expect(noPicture.message).toContain('item 2 "Final quiz 1": an answer shows the picture "ast_goggles-goggles.png", which is not in the file');
    expect(await courseCount()).toBe(before);
  });

  test("10,000 GIFT questions are refused at the first one past the limit, and nothing is written", async () => {
    const before = await courseCount();
    const gift = Array.from({ length: 10_000 }, (_, index) => `::Q${index + 1}:: Question ${index + 1}? {=yes ~no}`).join("\n\n");
    const error = await alice.fail("import_course", { format: "gift", content: gift });
    expect(error.code).toBe("limit_exceeded");
    expect(error.message).toContain(`item "Q501" (line 1001) is the first past it`);
    expect(await courseCount()).toBe(before);
  }, 60_000);

  test("10,000 Moodle XML questions are refused naming the first past the limit, while /api/health keeps answering", async () => {
    const before = await courseCount();
    const question = (index: number): string =>
      `<question type="truefalse"><name><text>Q${index}</text></name><questiontext format="markdown"><text>Statement ${index} is true, with some words to make the file larger.</text></questiontext><answer fraction="100"><text>true</text></answer><answer fraction="0"><text>false</text></answer></question>`;
    const xml = `<?xml version="1.0" encoding="UTF-8"?><quiz>${Array.from({ length: 10_000 }, (_, index) => question(index + 1)).join("\n")}</quiz>`;
    const { outcome, answeredWhilePending } = await probeHealthWhile(service.url, alice.fail("import_course", { format: "moodle_xml", content: xml }));
    if (!outcome.ok) throw outcome.error;
    const error = outcome.value;
    expect(error.code).toBe("limit_exceeded");
    expect(error.message).toContain('item 501 "Q501" is the first past it');
    // The XML is read in slices with the event loop free between them: health checks are answered meanwhile.
    expect(answeredWhilePending).toBeGreaterThan(0);
    expect(await courseCount()).toBe(before);
  }, 60_000);
});
