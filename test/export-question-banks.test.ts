/**
 * Question banks out: QTI 2.1 items, tests and manifest validate against 1EdTech's imsqti_v2p1.xsd and the
 * IMS CP schema; the QTI 3.0 manifest against 1EdTech's QTI 3.0 packaging schema and its items, named
 * back, against the 2.1 schema (the 3.0 ASI schema is not in the shared schemas, see its README); GIFT is
 * read by an independent parser (gift-pegjs); Moodle XML is checked against Moodle's documented structure.
 * Every export names what it could not carry, in the result and in the file. Through the real service,
 * export_course takes the format and a scope.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { parse as parseGift } from "gift-pegjs";
import { SaxesParser } from "saxes";
import { buildPackage } from "../src/export/build-package.ts";
import { schemaPath } from "../src/formats/package/schemas.ts";
import { renderCourseHtml } from "../src/render/index.ts";
import { devAccessToken } from "./support/dev-login.ts";
import { pixelPng, streamBytes, unpackToDirectory } from "./support/export-course.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { bankAssets, bankCourseFixture, bankPoolId, bankQuizId } from "./support/question-bank-course.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { embeddedBytes, exportPackage, pngBase64 } from "./support/transfer.ts";

/** 1EdTech's QTI schemas in the shared folder beside the repository (as the XLIFF tests find theirs). */
const qtiSchemas = [resolve(import.meta.dir, "../../shared/schemas/qti"), resolve(import.meta.dir, "../../../shared/schemas/qti"), "/work/shared/schemas/qti"].find((path) => existsSync(path)) ?? "/work/shared/schemas/qti";
const qti21 = join(qtiSchemas, "2.1/imsqti_v2p1.xsd");
const qti3 = join(qtiSchemas, "3.0");

/** Validates several files in one run (the QTI schema takes a second to compile); the files that do not validate. */
function invalidFiles(schema: string, files: readonly string[], cwd: string): string[] {
  const run = Bun.spawnSync(["xmllint", "--nonet", "--noout", "--schema", schema, ...files], { cwd });
  const output = `${run.stdout.toString()}${run.stderr.toString()}`;
  const failed = files.filter((file) => !output.includes(`${file} validates`));
  return failed.map((file) => `${file}: ${output.split("\n").filter((line) => line.startsWith(file)).join(" | ")}`);
}

function lint(args: string[], cwd: string, env: Record<string, string> = {}): { ok: boolean; output: string } {
  const run = Bun.spawnSync(["xmllint", "--nonet", "--noout", ...args], { cwd, env: { ...process.env, ...env } });
  return { ok: run.exitCode === 0, output: `${run.stdout.toString()}${run.stderr.toString()}` };
}

async function built(format: "qti3" | "qti21" | "moodle_xml" | "gift", scope?: string): Promise<{ bytes: Uint8Array; fileName: string; notices: string[]; mimeType: string }> {
  const notices: string[] = [];
  const result = await buildPackage(bankCourseFixture(), { format, assets: bankAssets(), renderer: renderCourseHtml, onNotice: (notice) => notices.push(notice), ...(scope ? { scope } : {}) });
  return { bytes: await streamBytes(result.stream), fileName: result.fileName, notices, mimeType: result.mimeType };
}

async function unpacked(format: "qti3" | "qti21"): Promise<{ directory: string; notices: string[] }> {
  const notices: string[] = [];
  const result = await buildPackage(bankCourseFixture(), { format, assets: bankAssets(), renderer: renderCourseHtml, onNotice: (notice) => notices.push(notice) });
  return { directory: await unpackToDirectory(result.stream, format), notices };
}

async function xmlFiles(directory: string, folder: string): Promise<string[]> {
  return (await readdir(join(directory, folder))).filter((name) => name.endsWith(".xml")).map((name) => `${folder}/${name}`);
}

/** A QTI 3.0 document in QTI 2.1's names: the renaming is mechanical, so the 2.1 schema checks its structure. */
function asQti21(xml: string): string {
  const camel = (name: string): string => name.replace(/-([a-z])/g, (_match, letter: string) => letter.toUpperCase());
  return xml
    .replace(/<\/?qti-content-body>/g, "")
    .replace(/<(\/?)qti-([a-z-]+)/g, (_match, slash: string, name: string) => `<${slash}${camel(name)}`)
    .replace(/ ([a-z]+(?:-[a-z]+)+)="/g, (_match, name: string) => ` ${camel(name)}="`)
    .replace(/http:\/\/www\.imsglobal\.org\/xsd\/imsqtiasi_v3p0/g, "http://www.imsglobal.org/xsd/imsqti_v2p1");
}

describe("QTI 2.1 question bank", () => {
  test("every item and test validates against imsqti_v2p1.xsd, and the manifest against IMS CP 1.1", { timeout: 60_000 }, async () => {
    const { directory, notices } = await unpacked("qti21");
    const files = [...(await xmlFiles(directory, "items")), ...(await xmlFiles(directory, "tests"))];
    expect(files).toHaveLength(11);
    expect(invalidFiles(qti21, files, directory)).toEqual([]);
    expect(lint(["--schema", schemaPath("scorm2004", "imscp_v1p1.xsd"), "imsmanifest.xml"], directory).ok).toBe(true);
    // The schema does reject what breaks it: an item without its required attribute.
    const item = await readFile(join(directory, "items/Q_blk_single.xml"), "utf8");
    await writeFile(join(directory, "broken.xml"), item.replace(' timeDependent="false"', ""));
    expect(lint(["--schema", qti21, "broken.xml"], directory).ok).toBe(false);
    expect(notices.some((notice) => notice.includes("blk_intro (text)"))).toBe(true);
  });

  test("the drawn lesson's section selects 2 and shuffles; the quiz's test sets PASS at its 80% pass mark", async () => {
    const { directory } = await unpacked("qti21");
    const pool = await readFile(join(directory, `tests/T_${bankPoolId}.xml`), "utf8");
    expect(pool).toContain('<selection select="2"/>');
    expect(pool).toContain('<ordering shuffle="true"/>');
    const quiz = await readFile(join(directory, `tests/T_${bankQuizId}.xml`), "utf8");
    expect(quiz).not.toContain("<selection");
    expect(quiz).toMatch(/<setOutcomeValue identifier="PASS">[\s\S]*<baseValue baseType="float">0.8<\/baseValue>/);
    const manifest = await readFile(join(directory, "imsmanifest.xml"), "utf8");
    for (const href of [...manifest.matchAll(/<file href="([^"]+)"/g)].map((match) => match[1] ?? "")) expect(await Bun.file(join(directory, href)).exists()).toBe(true);
  });

  test("a pictured choice points at the picture packed as a file; scoring and feedback follow the player", async () => {
    const { directory } = await unpacked("qti21");
    const single = await readFile(join(directory, "items/Q_blk_single.xml"), "utf8");
    expect(single).toContain('<img src="../images/ast_goggles-goggles.png" alt="Indirect-vent goggles"/>');
    expect(new Uint8Array(await Bun.file(join(directory, "images/ast_goggles-goggles.png")).arrayBuffer())).toEqual(pixelPng);
    expect(single).toContain('<simpleChoice identifier="C3" fixed="true">None of the above</simpleChoice>');
    expect(single).toContain('identifier="EXPLANATION"');
    // Matching earns a share per pair (2 points over 3 pairs); several blanks a share each.
    const matching = await readFile(join(directory, "items/Q_blk_match.xml"), "utf8");
    expect(matching).toContain('<mapEntry mapKey="L2 R2" mappedValue="0.666667"/>');
    const blanks = await readFile(join(directory, "items/Q_blk_blanks.xml"), "utf8");
    expect(blanks).toContain("<p>Water is <textEntryInteraction");
    expect(blanks).toContain('<stringMatch caseSensitive="true">');
    const notes = await readFile(join(directory, "NOTICES.txt"), "utf8");
    expect(notes).toContain("blk_intro (text)");
  });
});

describe("QTI 3.0 question bank", () => {
  test("the manifest validates against 1EdTech's QTI 3.0 packaging schema, and the items and tests are 3.0 names of valid 2.1 documents", { timeout: 60_000 }, async () => {
    const { directory } = await unpacked("qti3");
    const manifest = lint(["--schema", join(qti3, "imsqtiv3p0_imscpv1p2_v1p0.xsd"), "imsmanifest.xml"], directory, { XML_CATALOG_FILES: join(qti3, "catalog.xml") });
    expect(manifest).toMatchObject({ ok: true });
    const files = [...(await xmlFiles(directory, "items")), ...(await xmlFiles(directory, "tests"))];
    expect(files).toHaveLength(11);
    const renamed: string[] = [];
    for (const file of files) {
      const xml = await readFile(join(directory, file), "utf8");
      expect(xml).toContain('xmlns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0"');
      expect(xml).not.toMatch(/<(?!qti-|p[ >]|div|img|\?xml|\/)/);
      renamed.push(`${file.replace(/\//g, "_")}.as21.xml`);
      await writeFile(join(directory, renamed.at(-1) ?? ""), asQti21(xml));
    }
    expect(invalidFiles(qti21, renamed, directory)).toEqual([]);
    const pool = await readFile(join(directory, `tests/T_${bankPoolId}.xml`), "utf8");
    expect(pool).toContain('<qti-selection select="2"/>');
    expect(pool).toContain('<qti-ordering shuffle="true"/>');
    const single = await readFile(join(directory, "items/Q_blk_single.xml"), "utf8");
    expect(single).toMatch(/<qti-modal-feedback outcome-identifier="FEEDBACK" show-hide="show" identifier="EXPLANATION">\s*<qti-content-body>/);
  });
});

interface XmlNode {
  name: string;
  attributes: Record<string, string>;
  children: XmlNode[];
  text: string;
}

function readXml(text: string): XmlNode {
  const parser = new SaxesParser();
  const root: XmlNode = { name: "#document", attributes: {}, children: [], text: "" };
  const stack = [root];
  parser.on("opentag", (tag) => {
    const node: XmlNode = { name: tag.name, attributes: tag.attributes as Record<string, string>, children: [], text: "" };
    stack.at(-1)?.children.push(node);
    stack.push(node);
  });
  parser.on("closetag", () => void stack.pop());
  parser.on("text", (value) => {
    const top = stack.at(-1);
    if (top) top.text += value;
  });
  parser.write(text).close();
  return root;
}

const child = (node: XmlNode | undefined, name: string): XmlNode | undefined => node?.children.find((each) => each.name === name);
const textOf = (node: XmlNode | undefined, name: string): string => child(child(node, name), "text")?.text ?? "";

describe("Moodle XML question bank", () => {
  test("a category per lesson, each question in Moodle's type, pictures embedded as base64 files, and the draw as random questions", async () => {
    const { bytes, notices, mimeType, fileName } = await built("moodle_xml");
    expect(mimeType).toBe("application/xml");
    expect(fileName).toBe("lab-safety-bank-moodle.xml");
    const text = new TextDecoder().decode(bytes);
    const quiz = readXml(text).children[0];
    expect(quiz?.name).toBe("quiz");
    const questions = quiz?.children ?? [];
    const types = questions.map((question) => question.attributes.type);
    expect(types).toEqual(["category", "multichoice", "multichoice", "truefalse", "shortanswer", "cloze", "matching", "category", "ordering", "matching", "truefalse", "random", "random"]);
    expect(textOf(questions[0], "category")).toBe("$course$/top/Lab // Safety Bank/Final quiz");
    for (const question of questions.filter((each) => !["category", "random"].includes(each.attributes.type ?? ""))) {
      for (const field of ["name", "questiontext", "generalfeedback"]) expect(child(question, field)).toBeDefined();
      expect(child(question, "defaultgrade")?.text).toMatch(/^\d+(\.\d+)?$/);
    }
    const single = questions[1];
    const answers = single?.children.filter((each) => each.name === "answer") ?? [];
    expect(answers.map((answer) => answer.attributes.fraction)).toEqual(["100", "0", "0"]);
    const file = child(answers[0], "file");
    expect(file?.attributes).toMatchObject({ name: "ast_goggles-goggles.png", path: "/", encoding: "base64" });
    expect(Uint8Array.from(atob(file?.text ?? ""), (character) => character.charCodeAt(0))).toEqual(pixelPng);
    expect(textOf(single, "answer")).toContain('<img src="@@PLUGINFILE@@/ast_goggles-goggles.png" alt="Indirect-vent goggles">');
    const multiple = questions[2];
    expect(multiple?.children.filter((each) => each.name === "answer").map((answer) => answer.attributes.fraction)).toEqual(["50", "50", "-100"]);
    expect(child(multiple, "single")?.text).toBe("false");
    const cloze = questions[5];
    expect(textOf(cloze, "questiontext")).toContain("{1:SHORTANSWER_C:%100%H2O~%0%*#Two hydrogens, one oxygen.}");
    const ordering = questions[8];
    expect(child(ordering, "gradingtype")?.text).toBe("ALL_OR_NOTHING");
    expect(text).toContain("<!-- What Moodle XML could not carry:");
    expect(notices.some((notice) => notice.includes("blk_match") && notice.includes("pair"))).toBe(true);
    expect(notices.some((notice) => notice.includes("pass mark (80%)"))).toBe(true);
  });
});

describe("GIFT question bank", () => {
  test("an independent GIFT parser reads every question GIFT can carry; the rest are named in the notice", async () => {
    const { bytes, notices, mimeType } = await built("gift");
    expect(mimeType).toBe("text/plain");
    const text = new TextDecoder().decode(bytes);
    const parsed = parseGift(text);
    const questions = parsed.filter((question) => question.type !== "Category" && question.type !== "Description");
    expect(questions.map((question) => question.type)).toEqual(["MC", "MC", "TF", "Short", "Matching", "Matching", "TF"]);
    expect(parsed.filter((question) => question.type === "Category")).toHaveLength(2);
    const single = questions[0] as unknown as { stem: { text: string; format: string }; choices: { isCorrect: boolean; text: { text: string }; feedback: { text: string } | null }[]; globalFeedback: { text: string } };
    expect(single.stem).toEqual({ format: "markdown", text: "Which **goggles** protect against splashes?\n\nPick one: A < B & C." });
    expect(single.choices.map((choice) => [choice.isCorrect, choice.text.text])).toEqual([
      [true, "Indirect vent"],
      [false, "Safety glasses {open} #1"],
      [false, "None of the above"],
    ]);
    expect(single.globalFeedback.text).toBe("Indirect-vent goggles seal against splashes.");
    for (const named of ["blk_order", "blk_blanks", "draw of 2", "pictures on its choices"]) {
      expect(notices.some((notice) => notice.includes(named))).toBe(true);
      expect(text).toContain(named);
    }
  });

  test("scope narrows the bank to one lesson; a scope that is not in the course is refused", async () => {
    const { bytes } = await built("gift", bankPoolId);
    const questions = parseGift(new TextDecoder().decode(bytes)).filter((question) => question.type !== "Category");
    expect(questions.map((question) => question.type)).toEqual(["Matching", "TF"]);
    await expect(built("gift", "les_nope")).rejects.toThrow('scope: "les_nope" is neither a module nor a lesson');
  });
});

describe("export_course with a question-bank format", () => {
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

  test("exports one lesson's questions as QTI 3.0 with its picture, names what it could not carry, and refuses scope on other formats", async () => {
    const course = (await alice.call("create_course", {
      title: "Bank over MCP",
      modules: [{ title: "M", lessons: [{ title: "Quiz", kind: "quiz", drawCount: 1, blocks: [{ type: "true_false", prompt: "Sky is blue.", answer: true }, { type: "ordering", prompt: "Order", items: [{ text: "a" }, { text: "b" }] }] }, { title: "Other", blocks: [{ type: "text", markdown: "x" }] }] }],
    })) as { id: string; modules: { lessons: { id: string }[] }[] };
    const upload = (await alice.call("upload_asset", { courseId: course.id, filename: "goggles.png", dataBase64: pngBase64 })) as { asset: { id: string } };
    const quizId = course.modules[0]?.lessons[0]?.id;
    await alice.call("add_blocks", {
      courseId: course.id,
      lessonId: quizId,
      blocks: [{ type: "single_choice", prompt: "Which?", choices: [{ text: "This", correct: true, image: { assetId: upload.asset.id, alt: "goggles" } }, { text: "That" }] }],
    });
    const exported = await exportPackage(alice, { courseId: course.id, format: "qti3", scope: quizId, delivery: "embedded" });
    expect(exported.structured).toMatchObject({ format: "qti3", mimeType: "application/zip" });
    const bytes = embeddedBytes(exported.result).bytes;
    const directory = await unpackToDirectory(new Blob([new Uint8Array(bytes)]).stream(), "qti3-mcp");
    expect((await readdir(join(directory, "items"))).length).toBe(3);
    expect((await readdir(join(directory, "images"))).length).toBe(1);
    const moodle = await exportPackage(alice, { courseId: course.id, format: "gift", delivery: "embedded" });
    expect((moodle.structured.notices as string[]).some((notice) => notice.includes("no ordering"))).toBe(true);
    const refused = await alice.fail("export_course", { courseId: course.id, format: "scorm12", scope: quizId });
    expect(refused.code).toBe("invalid_arguments");
    expect(refused.message).toContain("scope");
  });
});
