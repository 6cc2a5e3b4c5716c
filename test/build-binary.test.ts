/**
 * The container ships `bun build --compile` output, built with the Dockerfile's own steps (read from the
 * Dockerfile, so the two cannot drift: the player's bundles, then the binary, which must carry them). The binary is copied alone into an empty folder and run there: no
 * node_modules, no source tree, no schema or font files beside it. Through the official MCP client it must
 * do the whole job: a course with every block kind, pictures, a handout and the bundled font; every export
 * format (each SCORM and cmi5 mode), validated (zip integrity, manifests against the official schemas,
 * question banks against QTI's, the font and the schema files inside byte for byte); JSON and Markdown imports; XLIFF 2.0 and 1.2 out and
 * back in; the preview and the MCP Apps views; and a package played in scorm-again, so the learner's
 * scripts survive minification.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { copyFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { strFromU8, unzipSync } from "fflate";
import { parse as parseGift } from "gift-pegjs";
import type { Browser } from "playwright-core";
import { schemaPath } from "../src/formats/package/schemas.ts";
import { builtStyles, courseBundles, lmsBundles } from "../src/render/player-bundles.ts";
import { devAccessToken } from "./support/dev-login.ts";
import { startTestIssuer, type TestIssuer } from "./support/test-issuer.ts";
import { pixelPng } from "./support/export-course.ts";
import { answerQuiz, nextUntil, scoFrame, waitForCourse, type AnswerKey } from "./support/export-player.ts";
import { imsccManifestImports, scorm12Imports, scorm2004Imports, xmllint, xmllintWithImports } from "./support/export-xmllint.ts";
import { hasChromium, launchChromium, startPackageServer } from "./support/lms-harness.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { freePort } from "./support/service.ts";
import { teachingContentBlocks, teachingQuizBlocks } from "./support/teaching-blocks.ts";
import { newQuestionTypeBlocks } from "./support/question-types.ts";
import { comparable, exportPackage, readExport } from "./support/transfer.ts";
import { validateXliff } from "./support/xliff-schemas.ts";
import { ClassName, DataName } from "../src/page-contract/markup-names.ts";

type Json = Record<string, unknown>;
type Course = Json & { id: string; version: number; modules: { id: string; lessons: { id: string; kind: string; blocks: (Json & { id: string })[] }[] }[] };

const repository = join(import.meta.dir, "..");
const scratch = mkdtempSync(join(tmpdir(), "cas-binary-"));
const buildFolder = join(scratch, "build");
/** Where the binary runs: it is the only file here until the service writes its data. */
const runFolder = join(scratch, "run");
const binary = join(runFolder, "course-authoring-service");

/**
 * The Dockerfile's build steps after installing (generating the player's bundles, then `bun build
 * --compile …`), in order, with the binary's output redirected to `outfile`.
 */
function dockerfileBuildSteps(outfile: string): string[][] {
  const dockerfile = readFileSync(join(repository, "Dockerfile"), "utf8");
  const steps = dockerfile
    .split("\n")
    .filter((line) => /^RUN bun /.test(line) && !/^RUN bun install\b/.test(line))
    .map((line) => line.replace(/^RUN /, "").trim().split(/\s+/));
  const compile = steps.find((words) => words[1] === "build" && words.includes("--compile"));
  if (!compile) throw new Error("the Dockerfile has no `RUN bun build --compile` step");
  const outIndex = compile.indexOf("--outfile");
  if (outIndex < 0) throw new Error("the Dockerfile's build step names no --outfile");
  compile[outIndex + 1] = outfile;
  return steps.map((words) => [process.execPath, ...words.slice(1)]);
}

let child: ReturnType<typeof Bun.spawn> | undefined;
let issuer: TestIssuer;
let baseUrl = "";
let port = 0;
let alice: Agent;
let courseId = "";
let built: Course;
const exported = new Map<string, Uint8Array>();

const base64 = (bytes: Uint8Array | string): string => Buffer.from(bytes).toString("base64");
const minimalPdf = "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n";

/** Every content and question block the authoring model has, beside the teaching blocks of the shared fixture. */
function everyBasicBlock(imageId: string): Json[] {
  return [
    { type: "heading", text: "Why it matters", level: 2 },
    { type: "text", markdown: "Every accident starts with a *small* shortcut. [Read the policy](https://example.com/policy)." },
    { type: "image", assetId: imageId, alt: "A pair of safety goggles" },
    { type: "image", url: "https://example.com/x.png", decorative: true },
    { type: "video", url: "https://example.com/v.mp4", captions: { url: "https://example.com/v.vtt", language: "en" }, durationSeconds: 120 },
    { type: "audio", url: "https://example.com/a.mp3", transcript: "Words" },
    { type: "callout", variant: "warning", title: "Always", markdown: "Wear goggles when pouring." },
    { type: "quote", text: "Safety is no accident.", attribution: "A lab manager" },
    { type: "code", language: "typescript", code: "const safe = true;" },
    { type: "divider" },
    { type: "accordion", items: [{ title: "Gloves", markdown: "Nitrile for most solvents." }] },
    { type: "tabs", tabs: [{ title: "One", markdown: "1" }, { title: "Two", markdown: "2" }] },
    { type: "flashcards", cards: [{ front: "PPE", back: "Personal protective equipment" }] },
  ];
}

function everyQuestion(): Json[] {
  return [
    { type: "single_choice", prompt: "First step at a spill?", choices: [{ text: "Stop and assess", correct: true, feedback: "Right." }, { text: "Mop it up" }], explanation: "Assess first." },
    { type: "multiple_choice", prompt: "Which protect you?", choices: [{ text: "Goggles", correct: true }, { text: "Gloves", correct: true }, { text: "Sandals" }], points: 2 },
    { type: "true_false", prompt: "Goggles are optional.", answer: false },
    { type: "fill_in_blank", prompt: "Fill", text: "The {{1}} is {{2}}.", blanks: [{ answers: ["sky"] }, { answers: ["blue", "azure"] }] },
    { type: "matching", prompt: "Match", pairs: [{ left: "Flame", right: "Flammable" }, { left: "Skull", right: "Toxic" }] },
    { type: "ordering", prompt: "Order", items: [{ text: "Stop" }, { text: "Warn" }, { text: "Contain" }] },
  ];
}

/** Asks `probe` until it answers something, or fails after `timeoutMs` naming what it waited for (a process starting up sends no event). */
async function until<T>(probe: () => Promise<T | undefined | false>, what: string, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await probe();
    if (answer) return answer;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await Bun.sleep(50);
  }
}

beforeAll(async () => {
  mkdirSync(buildFolder, { recursive: true });
  mkdirSync(runFolder, { recursive: true });
  for (const step of dockerfileBuildSteps(join(buildFolder, "course-authoring-service"))) {
    const build = Bun.spawn(step, { cwd: repository, stdout: "ignore", stderr: "pipe" });
    const [code, stderr] = await Promise.all([build.exited, new Response(build.stderr).text()]);
    if (code !== 0) throw new Error(`the Dockerfile's step \`${step.slice(1).join(" ")}\` failed: ${stderr}`);
  }
  // Only the executable travels; the source map the build writes beside it stays behind.
  copyFileSync(join(buildFolder, "course-authoring-service"), binary);
  Bun.spawnSync(["chmod", "+x", binary]);
  port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  issuer = await startTestIssuer({ audience: `${baseUrl}/mcp` });
  // As the image runs it: production, behind an identity provider of its own.
  const env = { PORT: String(port), HOST: "127.0.0.1", BASE_URL: baseUrl, AUTH_URL: issuer.url, DATABASE_URL: `sqlite://${join(runFolder, "data", "db.sqlite")}`, LOG_LEVEL: "error", NODE_ENV: "production", MCP_RESULT_MAX_BYTES: String(4 * 1024 * 1024) };
  const started = Bun.spawn([binary], { cwd: runFolder, env, stdout: "ignore", stderr: "pipe" });
  child = started;
  // Read as it comes, so the pipe never fills; shown only if the binary does not come up.
  const said = new Response(started.stderr).text();
  await until(() => fetch(`${baseUrl}/api/health`).then((response) => response.ok, () => false), "the binary's /api/health to answer 200", 20_000).catch(async (error: Error) => {
    started.kill();
    throw new Error(`${error.message}; the binary said: ${await said}`);
  });
  await until(() => fetch(`${baseUrl}/.well-known/oauth-protected-resource/mcp`).then((response) => response.ok, () => false), "the binary to load its OAuth configuration", 20_000);
  alice = await connectAgent({ mcpUrl: `${baseUrl}/mcp` }, await issuer.sign({ sub: "alice", scope: "openid profile email courses:read courses:write" }));
}, 120_000);

afterAll(async () => {
  await alice?.close();
  child?.kill("SIGTERM");
  await child?.exited;
  await issuer?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

test("the binary alone in its folder serves health and passes its own --health-check", async () => {
  // The player's bundles are generated files the binary must carry (Bun.build does not exist inside it).
  const carried = readFileSync(binary);
  // Bun keeps a text of Latin-1 characters (the review layer's "·", "×") as Latin-1 bytes, and one with wider characters as UTF-16.
  const carries = (text: string) => carried.includes(text) || carried.includes(Buffer.from(text, "latin1")) || carried.includes(Buffer.from(text, "utf16le"));
  for (const [name, bundle] of Object.entries({ ...courseBundles, ...lmsBundles })) expect(carries(bundle), name).toBe(true);
  // A style sheet with non-Latin-1 marks (✓, ★) is stored as UTF-16 text.
  for (const sheet of Object.values(builtStyles)) expect(carried.includes(sheet) || carried.includes(Buffer.from(sheet, "utf16le"))).toBe(true);
  const check = Bun.spawn([binary, "--health-check"], { env: { PORT: String(port) } });
  expect(await check.exited).toBe(0);
  const nothing = Bun.spawn([binary, "--health-check"], { env: { PORT: String(await freePort()) } });
  expect(await nothing.exited).toBe(1);
});

test("in development the binary's embedded identity provider signs a person in, and the token works at /mcp", async () => {
  const devPort = await freePort();
  const devUrl = `http://127.0.0.1:${devPort}`;
  const env = { PORT: String(devPort), HOST: "127.0.0.1", BASE_URL: devUrl, DEV_AUTH_PORT: String(await freePort()), DATABASE_URL: `sqlite://${join(runFolder, "dev", "db.sqlite")}`, LOG_LEVEL: "error", NODE_ENV: "development" };
  const development = Bun.spawn([binary], { cwd: runFolder, env, stdout: "ignore", stderr: "ignore" });
  try {
    const metadata = await until(
      () => fetch(`${devUrl}/.well-known/oauth-protected-resource/mcp`).then((response) => (response.ok ? (response.json() as Promise<{ authorization_servers: string[] }>) : undefined), () => undefined),
      "the development binary to serve its OAuth configuration",
      20_000,
    );
    const service = { url: devUrl, authUrl: metadata.authorization_servers[0]!, mcpUrl: `${devUrl}/mcp` };
    const dev = await connectAgent(service, await devAccessToken(service, "dev-user"));
    expect(await dev.call("list_courses", {})).toMatchObject({ courses: [] });
    await dev.close();
  } finally {
    development.kill("SIGTERM");
    await development.exited;
  }
}, 60_000);

describe("through MCP, the binary does the whole job", () => {
  test("a course with every block kind, uploaded pictures and a handout, in the bundled font", async () => {
    const created = (await alice.call("create_course", { title: "Lab safety", description: "How to work **safely**.", language: "en", modules: [{ title: "Basics", lessons: [{ title: "Welcome" }] }] })) as Course;
    courseId = created.id;
    const image = ((await alice.call("upload_asset", { courseId, filename: "goggles.png", dataBase64: base64(pixelPng) })).asset as { id: string }).id;
    const attachment = ((await alice.call("upload_asset", { courseId, filename: "job-aid.pdf", dataBase64: base64(minimalPdf) })).asset as { id: string }).id;
    await alice.call("add_module", {
      courseId,
      title: "Everything",
      lessons: [
        { title: "Every content block", blocks: everyBasicBlock(image) },
        { title: "Teaching blocks", blocks: teachingContentBlocks({ image, attachment }) },
        { title: "Check", kind: "quiz", passingScore: 50, blocks: [...everyQuestion(), ...teachingQuizBlocks({ image, attachment })] },
        // The six types of issue 42 in a lesson of their own, so the quiz the binary's packages are played with stays as it was.
        { title: "Six more ways to ask", blocks: newQuestionTypeBlocks(image) },
      ],
    });
    await alice.call("update_course", { courseId, theme: { font: "atkinson-hyperlegible", primaryColor: "#1d4ed8", logo: { assetId: image, alt: "Lab logo" } } });
    built = (await alice.call("get_course", { courseId })) as Course;
    const types = new Set(built.modules.flatMap((module) => module.lessons.flatMap((lesson) => lesson.blocks.map((block) => String(block.type)))));
    const described = (await alice.call("describe_blocks", {})) as { blocks: { type: string }[] };
    const known = described.blocks.map((entry) => entry.type);
    expect(known.length).toBeGreaterThan(20);
    expect(known.filter((type) => !types.has(type))).toEqual([]);
  });

  /** The formats this file validates in depth; any other format the tool offers is still made and checked for integrity. */
  const knownFormats = ["scorm12", "scorm2004", "cmi5", "imscc", "html", "json"];

  test("every format export_course offers, in every SCO mode, is made by the binary and is intact (`unzip -t`, JSON, well-formed XML, or at least not empty)", async () => {
    const { formats, scoModes } = exportFormatsOfTool(await alice.client.listTools());
    expect(formats).toEqual(expect.arrayContaining(knownFormats));
    expect(scoModes).toEqual(["course", "module"]);
    for (const format of formats) {
      for (const scoMode of ["scorm12", "scorm2004", "cmi5"].includes(format) ? scoModes : [undefined]) {
        const { structured } = await exportPackage(alice, { courseId, format, ...(scoMode ? { scoMode } : {}) });
        const bytes = (await readExport(alice, structured.uri)).bytes;
        exported.set(`${format}/${scoMode ?? ""}`, bytes);
        const file = join(scratch, `${format}-${scoMode ?? "one"}.${structured.fileName.split(".").pop()}`);
        writeFileSync(file, bytes);
        if (bytes[0] === 0x50 && bytes[1] === 0x4b) {
          const test = Bun.spawnSync(["unzip", "-t", file]);
          expect({ format, scoMode, output: test.stdout.toString().split("\n").at(-2) }).toEqual({ format, scoMode, output: expect.stringContaining("No errors detected") });
        } else if (structured.mimeType.includes("json")) {
          expect(() => JSON.parse(strFromU8(bytes))).not.toThrow();
        } else if (structured.mimeType.includes("xml")) {
          expect({ format, wellFormed: Bun.spawnSync(["xmllint", "--noout", "--nonet", file]).exitCode }).toEqual({ format, wellFormed: 0 });
        } else {
          expect({ format, bytes: bytes.byteLength > 0 }).toEqual({ format, bytes: true });
        }
      }
    }
    // The accessibility report's axe audit runs inside the binary too (happy-dom on a worker thread).
    const evidence = JSON.parse(strFromU8(unzipSync(exported.get("acr/")!)["evidence.json"]!)) as { axe: { lessons: number } | null };
    expect(evidence.axe?.lessons).toBeGreaterThan(0);
  }, 120_000);

  /** Unpacks an export made above into a fresh folder. */
  function unpacked(key: string): string {
    const directory = mkdtempSync(join(scratch, "package-"));
    const files = unzipSync(exported.get(key)!);
    for (const [path, bytes] of Object.entries(files)) {
      if (path.endsWith("/")) continue;
      mkdirSync(join(directory, path, ".."), { recursive: true });
      writeFileSync(join(directory, path), bytes);
    }
    return directory;
  }

  test("SCORM manifests validate against the schema files the binary packed, and those are the committed official files", async () => {
    for (const scoMode of ["course", "module"]) {
      const scorm12 = unpacked(`scorm12/${scoMode}`);
      const result12 = await xmllintWithImports(scorm12, "imsmanifest.xml", scorm12Imports);
      expect(result12.output).toContain("imsmanifest.xml validates");
      for (const file of ["imscp_rootv1p1p2.xsd", "adlcp_rootv1p2.xsd", "imsmd_rootv1p2p1.xsd", "ims_xml.xsd"]) {
        expect(Buffer.compare(readFileSync(join(scorm12, file)), readFileSync(schemaPath("scorm12", file)))).toBe(0);
      }
      const scorm2004 = unpacked(`scorm2004/${scoMode}`);
      const result2004 = await xmllintWithImports(scorm2004, "imsmanifest.xml", scorm2004Imports);
      expect(result2004.output).toContain("imsmanifest.xml validates");
      for (const file of ["imscp_v1p1.xsd", "adlseq_v1p3.xsd", "imsss_v1p0util.xsd", "xml.xsd", "XMLSchema.dtd", "datatypes.dtd"]) {
        expect(Buffer.compare(readFileSync(join(scorm2004, file)), readFileSync(schemaPath("scorm2004", file)))).toBe(0);
      }
    }
  });

  test("cmi5.xml and the Common Cartridge manifest and assessments validate against their schemas", async () => {
    for (const scoMode of ["course", "module"]) {
      const cmi5 = unpacked(`cmi5/${scoMode}`);
      expect(xmllint(cmi5, "cmi5.xml", schemaPath("cmi5", "CourseStructure.xsd")).output).toContain("cmi5.xml validates");
    }
    const cartridge = unpacked("imscc/");
    const qtiProfile = "ccv1p1_qtiasiv1p2p1_v1p0.xsd";
    for (const file of [qtiProfile, "ccv1p3_imscp_v1p2_v1p0.xsd", "ccv1p3_lommanifest_v1p0.xsd", "ccv1p3_lomresource_v1p0.xsd", "ccv1p3_imsccauth_v1p3.xsd", "ccv1p3_imscsmd_v1p0.xsd"]) {
      await copyFile(schemaPath("imscc", file), join(cartridge, file));
    }
    for (const file of ["xml.xsd", "XMLSchema.dtd", "datatypes.dtd"]) await copyFile(schemaPath("scorm2004", file), join(cartridge, file));
    expect((await xmllintWithImports(cartridge, "imsmanifest.xml", imsccManifestImports)).output).toContain("imsmanifest.xml validates");
    const assessments = Object.keys(unzipSync(exported.get("imscc/")!)).filter((path) => path.endsWith("assessment.xml") || /assessment[^/]*\.xml$/.test(path));
    expect(assessments.length).toBeGreaterThan(0);
    for (const assessment of assessments) expect(xmllint(cartridge, assessment, qtiProfile).output).toContain(`${assessment} validates`);
  });

  test("question banks from the binary: QTI 2.1 items and tests validate, QTI 3.0's manifest validates, GIFT parses with an independent parser", async () => {
    const qtiSchemas = [join(repository, "../shared/schemas/qti"), join(repository, "../../shared/schemas/qti"), "/work/shared/schemas/qti"].find((path) => existsSync(path)) ?? "/work/shared/schemas/qti";
    const qti21 = unpacked("qti21/");
    const documents = ["items", "tests"].flatMap((folder) => (existsSync(join(qti21, folder)) ? readdirSync(join(qti21, folder)).filter((name) => name.endsWith(".xml")).map((name) => `${folder}/${name}`) : []));
    expect(documents.length).toBeGreaterThan(3);
    const run = Bun.spawnSync(["xmllint", "--nonet", "--noout", "--schema", join(qtiSchemas, "2.1/imsqti_v2p1.xsd"), ...documents], { cwd: qti21 });
    const output = `${run.stdout.toString()}${run.stderr.toString()}`;
    expect(documents.filter((file) => !output.includes(`${file} validates`))).toEqual([]);
    const qti3 = unpacked("qti3/");
    const manifest = Bun.spawnSync(["xmllint", "--nonet", "--noout", "--schema", join(qtiSchemas, "3.0/imsqtiv3p0_imscpv1p2_v1p0.xsd"), "imsmanifest.xml"], { cwd: qti3, env: { ...process.env, XML_CATALOG_FILES: join(qtiSchemas, "3.0/catalog.xml") } });
    expect(`${manifest.stdout.toString()}${manifest.stderr.toString()}`).toContain("imsmanifest.xml validates");
    const questions = parseGift(strFromU8(exported.get("gift/")!));
    expect(questions.filter((question) => question.type !== "Description" && question.type !== "Category").length).toBeGreaterThan(3);
  });

  test("every page carries the teaching blocks, the handout, and the bundled font byte for byte", async () => {
    const font = readFileSync(join(repository, "node_modules/@fontsource/atkinson-hyperlegible/files/atkinson-hyperlegible-latin-400-normal.woff2"));
    for (const key of ["html/", "scorm12/course", "scorm2004/module", "cmi5/course", "imscc/"]) {
      const files = unzipSync(exported.get(key)!);
      const names = Object.keys(files);
      expect(names.some((name) => name.endsWith("job-aid.pdf"))).toBe(true);
      const pages = names.filter((name) => name.endsWith(".html")).map((name) => strFromU8(files[name]!)).join("\n");
      for (const marker of [`data-${DataName.scenario}`, `data-${DataName.labeledGraphic}`, `data-${DataName.process}`, `class="${ClassName.timelineEvents}"`, `data-${DataName.sorting}`, `data-${DataName.continue}`, `class="${ClassName.attachmentLink}"`, `class="${ClassName.choiceImage}"`]) {
        expect({ key, marker, found: pages.includes(marker) }).toEqual({ key, marker, found: true });
      }
      const faces = [...pages.matchAll(/font-weight: ?400;[^}]*url\(data:font\/woff2;base64,([A-Za-z0-9+/=]+)\)/g)].map((match) => match[1]);
      expect({ key, fonts: faces.length > 0 }).toEqual({ key, fonts: true });
      expect(Buffer.compare(Buffer.from(faces[0]!, "base64"), font)).toBe(0);
    }
  });

  test("the JSON export imports back unchanged, and a Markdown outline imports", async () => {
    const document = strFromU8(exported.get("json/")!);
    const imported = (await alice.call("import_course", { format: "json", content: document })) as { course: { id: string } };
    const again = await exportPackage(alice, { courseId: imported.course.id, format: "json" });
    expect(comparable(JSON.parse(strFromU8((await readExport(alice, again.structured.uri)).bytes)))).toEqual(comparable(JSON.parse(document)));
    const outline = "# Phishing basics\n\nA short course.\n\n## Module 1: Spotting\n\n### What is phishing?\n\nAn attempt to **trick** you.\n\n- An urgent tone\n- A strange sender\n";
    const markdown = (await alice.call("import_course", { format: "markdown", content: outline })) as { course: { id: string } };
    const course = (await alice.call("get_course", { courseId: markdown.course.id })) as Course & { title: string };
    expect(course.title).toBe("Phishing basics");
    expect(course.modules[0]!.lessons[0]!.blocks.length).toBeGreaterThan(0);
  });

  test("XLIFF 2.0 and 1.2 exports validate against the OASIS schemas and import back", async () => {
    await alice.call("create_translation", { courseId, language: "fr" });
    for (const format of ["xliff20", "xliff12"] as const) {
      const result = await alice.callRaw("export_translation", { courseId, language: "fr", format });
      expect(result.isError).toBeFalsy();
      const link = result.content.find((item) => item.type === "resource_link") as { uri: string };
      const xliff = strFromU8((await readExport(alice, link.uri)).bytes);
      expect(validateXliff(format, xliff).ok).toBe(true);
      // Every target the same as its source: a well-formed import that the binary parses end to end.
      const translated = xliff.replace(/<target\b[\s\S]*?<\/target>/g, "").replace(/<source( xml:space="preserve")?>([\s\S]*?)<\/source>/g, (_match, space: string | undefined, inner: string) => `<source${space ?? ""}>${inner}</source><target${space ?? ""}>${inner}</target>`);
      const imported = (await alice.call("import_translation", { courseId, language: "fr", xliff: translated })) as { untranslated: number; applied: number; unchanged: number };
      expect(imported.untranslated).toBe(0);
      expect(imported.applied + imported.unchanged).toBeGreaterThan(20);
    }
  });

  test("the preview, the outline and the MCP Apps views read from the binary", async () => {
    const preview = (await alice.call("preview_course", { courseId })) as { previewUri: string };
    const page = (await alice.client.readResource({ uri: preview.previewUri })).contents[0] as { text: string };
    expect(page.text).toContain(`data-${DataName.scenario}`);
    expect(page.text).toMatch(new RegExp(`<a class="${ClassName.attachmentLink}" href="data:application/pdf;base64,[A-Za-z0-9+/=]+" download>`));
    expect(page.text).toContain("font/woff2;base64,");
    const outline = (await alice.client.readResource({ uri: `course://${courseId}/outline` })).contents[0] as { text: string };
    expect(outline.text).toContain("Lab safety");
    const { resources } = await alice.client.listResources();
    const views = ["ui://course-authoring/course-preview.html", "ui://course-authoring/export.html", "ui://course-authoring/results.html"];
    for (const uri of views) {
      const view = (await alice.client.readResource({ uri })).contents[0] as { text: string; mimeType: string };
      expect(view.mimeType).toContain("text/html");
      expect(view.text).toMatch(/^<!doctype html>/i);
      expect(view.text).toContain("<script");
    }
    expect(resources.length).toBeGreaterThan(0);
  });

  test.skipIf(!hasChromium())("the SCORM 2004 package plays in scorm-again: the learner's scripts survive minification and report every answer", async () => {
    const server = startPackageServer(unpacked("scorm2004/course"));
    let browser: Browser | undefined;
    try {
      browser = await launchChromium();
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      await page.goto(`${server.origin}/lms/scorm2004.html`);
      await page.evaluate(() => (window as unknown as { launch: (saved: unknown, href: string) => void }).launch(null, "/pkg/index.html"));
      const sco = scoFrame(page);
      await waitForCourse(sco);
      const quiz = built.modules.at(-1)!.lessons.find((lesson) => lesson.kind === "quiz")!;
      await nextUntil(sco, quiz.id);
      const key: AnswerKey = { choices: new Map(), blanks: new Map(), matches: new Map() };
      await answerQuiz(sco, false, key);
      const recorded = await page.evaluate(() => Object.keys(JSON.parse(JSON.stringify((window as unknown as { API_1484_11: { cmi: { interactions: object } } }).API_1484_11.cmi.interactions))).length);
      expect(recorded).toBeGreaterThan(5);
      expect(errors).toEqual([]);
    } finally {
      await browser?.close();
      server.stop();
    }
  }, 60_000);
});

/** The formats and SCO modes export_course's input schema allows. */
function exportFormatsOfTool(list: { tools: { name: string; inputSchema: { properties?: Record<string, unknown> } }[] }): { formats: string[]; scoModes: string[] } {
  const properties = list.tools.find((candidate) => candidate.name === "export_course")?.inputSchema.properties ?? {};
  const values = (name: string) => (properties[name] as { enum?: string[] } | undefined)?.enum ?? [];
  return { formats: values("format"), scoModes: values("scoMode") };
}
