/**
 * The xAPI (Tin Can) package played in Chromium the way an LRS-based platform launches it: tincan.xml read
 * for the launch page and the activities, the page opened with endpoint, auth, actor and registration,
 * a small LRS on another origin collecting the statements. The statements are the cmi5 package's (same
 * question and lesson ids under the course IRI, an experienced per lesson opened, the attempt number on
 * each answer, passed/failed and completed) without cmi5's categories; a "Try again" is attempt 2. The
 * statements then go into the service with import_results and count as this course's.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { lrsAuth, startTestLrs, type TestLrs } from "./support/test-lrs.ts";
import { waitForValue } from "./support/wait.ts";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { buildPackage } from "../src/export/build-package.ts";
import { renderCourseHtml } from "../src/render/index.ts";
import { memoryAssets, quizLessonId, sampleCourse, unpackToDirectory } from "./support/export-course.ts";
import { answerQuiz, nextUntil, retryQuiz, waitForCourse } from "./support/export-player.ts";
import { launchChromium, startPackageServer, type PackageServer } from "./support/lms-harness.ts";

setDefaultTimeout(120_000);

type Json = Record<string, unknown>;
const courseIri = "urn:course-authoring-service:course:crs_sample1";
const auth = lrsAuth;

let browser: Browser;
let packageServer: PackageServer;
let lrs: TestLrs;
let statements: Record<string, unknown>[] = [];
let manifest = "";

beforeAll(async () => {
  lrs = startTestLrs();
  statements = lrs.statements;
  browser = await launchChromium();
  const built = await buildPackage(sampleCourse(), { format: "xapi", assets: memoryAssets(), renderer: renderCourseHtml, lrsOrigins: [`http://127.0.0.1:${lrs.port}`] });
  expect(built.fileName.endsWith("-xapi.zip")).toBe(true);
  const directory = await unpackToDirectory(built.stream, "xapi-package");
  packageServer = startPackageServer(directory);
  manifest = await Bun.file(join(directory, "tincan.xml")).text();
});

afterAll(async () => {
  await browser?.close();
  packageServer?.stop();
  lrs?.stop();
});

const verbName = (statement: Json): string => String((statement.verb as Json).id).split("/").pop() ?? "";


test("tincan.xml names the course with its launch page, and each lesson and question by its stable id", () => {
  expect(manifest).toContain('xmlns="http://projecttincan.com/tincan.xsd"');
  expect(manifest).toContain(`<activity id="${courseIri}" type="http://adlnet.gov/expapi/activities/course">`);
  expect(manifest).toMatch(/<launch lang="en">[^<]+\.html<\/launch>/);
  expect(manifest).toContain(`${courseIri}/lessons/${quizLessonId}`);
  expect(manifest).toContain(`${courseIri}/questions/blk_q1`);
});

test("launched with the Tin Can parameters, a learner's statements match the cmi5 package's, attempts numbered, and import as this course's", async () => {
  const launch = /<launch lang="en">([^<]+)<\/launch>/.exec(manifest)?.[1] ?? "";
  const registration = crypto.randomUUID();
  const actor = { objectType: "Agent", name: "Tin Can Learner", mbox: "mailto:tin.can@learner.example" };
  const query = new URLSearchParams({ endpoint: `http://127.0.0.1:${lrs.port}/xapi/`, auth, actor: JSON.stringify(actor), registration });
  const page = await browser.newPage();
  await page.goto(`${packageServer.origin}/pkg/${launch}?${query}`);
  await waitForCourse(page);
  await waitForValue("initialized", () => statements.map(verbName), (verbs) => verbs.includes("initialized"));
  await nextUntil(page, quizLessonId);
  await answerQuiz(page, false);
  await retryQuiz(page);
  await answerQuiz(page, true);
  await page.goto("about:blank");
  await waitForValue("terminated", () => statements.map(verbName), (verbs) => verbs.includes("terminated"));
  await page.close();

  const verbs = statements.map(verbName);
  expect(verbs[0]).toBe("initialized");
  expect(verbs.at(-1)).toBe("terminated");
  expect(verbs).toContain("experienced");
  expect(verbs).toContain("passed");
  for (const statement of statements) {
    expect(statement.actor).toEqual(actor);
    expect((statement.context as Json).registration).toBe(registration);
    // No cmi5 categories: a Tin Can package follows no cmi5 rules.
    expect(JSON.stringify(statement.context)).not.toContain("w3id.org/xapi/cmi5/context/categories");
    expect(((statement.context as Json).extensions as Json)["urn:course-authoring-service:xapi:course-version"]).toBe(7);
  }
  const experienced = statements.filter((statement) => verbName(statement) === "experienced").map((statement) => (statement.object as Json).id);
  expect(experienced).toContain(`${courseIri}/lessons/${quizLessonId}`);
  const answered = statements.filter((statement) => verbName(statement) === "answered");
  const attempts = answered.map((statement) => ((statement.context as Json).extensions as Json)["http://id.tincanapi.com/extension/attempt-id"]);
  expect(new Set(attempts)).toEqual(new Set([1, 2]));
  expect(answered.every((statement) => String((statement.object as Json).id).startsWith(`${courseIri}/questions/`))).toBe(true);
  for (const statement of answered) expect(((statement.object as Json).definition as Json).interactionType).toBeDefined();

  // The statements read back with the reader the service uses: every one is this course's and valid.
  const { readStatements } = await import("../src/formats/xapi/statements-read.ts");
  const read = await readStatements({ text: JSON.stringify({ statements, more: "" }), courseIris: [courseIri], salt: "test-salt", field: "content" });
  expect(read.skipped).toEqual([]);
  expect(read.facts.length).toBe(statements.length);
  expect(read.facts.filter((fact) => fact.kind === "question").map((fact) => fact.attempt).sort()).toEqual(attempts.map(Number).sort());
  expect(JSON.stringify(read)).not.toContain("learner.example");
});
