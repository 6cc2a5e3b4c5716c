/**
 * One brief, one course (issue 41): a Word document and a PowerPoint deck imported into the course being
 * built (`into`), as new modules or as lessons of a module, nothing already there changed; a document read
 * with `dryRun` creates nothing; an `into` the person cannot edit, a module of another course, or a lesson
 * as target is refused naming the rule, with nothing written.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Document, HeadingLevel, Packer, Paragraph } from "docx";
import PptxGenJS from "pptxgenjs";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { startTestService, type TestService } from "./support/service.ts";

type Json = Record<string, any>;

let service: TestService;
let alice: Agent;
let bob: Agent;
let courseId: string;
let policy: Uint8Array;
let deck: Uint8Array;

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

async function wordPolicy(): Promise<Uint8Array> {
  const document = new Document({
    sections: [
      {
        children: [
          new Paragraph({ text: "Hand hygiene policy", heading: HeadingLevel.TITLE }),
          new Paragraph({ text: "When to clean your hands", heading: HeadingLevel.HEADING_1 }),
          new Paragraph({ text: "The five moments", heading: HeadingLevel.HEADING_2 }),
          new Paragraph({ text: "Before touching a patient, and after." }),
          new Paragraph({ text: "How to clean", heading: HeadingLevel.HEADING_2 }),
          new Paragraph({ text: "Rub for twenty seconds." }),
        ],
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(document));
}

async function slideDeck(): Promise<Uint8Array> {
  const pptx = new PptxGenJS();
  const title = pptx.addSlide();
  title.addText("Hand hygiene for new nurses", { x: 0.5, y: 1, w: 9, h: 1 });
  for (const topic of ["Why it matters", "Gloves are not enough"]) {
    const slide = pptx.addSlide();
    slide.addText(topic, { x: 0.5, y: 0.3, w: 9, h: 0.8 });
    slide.addText("One point.", { x: 0.5, y: 1.5, w: 9, h: 1 });
    slide.addNotes(`Say why: ${topic}.`);
  }
  return (await pptx.write({ outputType: "uint8array" })) as Uint8Array;
}

async function upload(agent: Agent, course: string, filename: string, bytes: Uint8Array): Promise<string> {
  return ((await agent.call("upload_asset", { courseId: course, filename, dataBase64: base64(bytes) })).asset as Json).id;
}

beforeAll(async () => {
  service = await startTestService();
  alice = await connectAgent(service, await devAccessToken(service, "alice"));
  bob = await connectAgent(service, await devAccessToken(service, "bob"));
  policy = await wordPolicy();
  deck = await slideDeck();
  const created = await alice.call("create_course", {
    title: "Hand hygiene",
    objectives: [{ text: "Clean hands at the five moments" }],
    modules: [{ title: "Welcome", lessons: [{ title: "Start here", blocks: [{ type: "text", markdown: "Welcome." }] }] }],
  });
  courseId = String((created.course as Json | undefined)?.id ?? created.id);
}, 60_000);

afterAll(async () => {
  await alice?.close();
  await bob?.close();
  await service?.dispose();
});

const outline = async (id: string) => (await alice.call("get_course", { courseId: id })) as Json;
const listCourses = async () => ((await alice.call("list_courses", {})).courses as Json[]).map((course) => course.id);

describe("documents into the course being built", () => {
  test("dryRun reads a Word document's outline and creates nothing", async () => {
    const before = await listCourses();
    const assetId = await upload(alice, courseId, "policy.docx", policy);
    const version = (await outline(courseId)).version;
    const result = await alice.call("import_course", { assetId, dryRun: true });
    expect(result.outline).toContain("# Hand hygiene policy");
    expect(result.outline).toContain("When to clean your hands");
    expect(result.outline).toContain("The five moments");
    expect(result.course).toBeUndefined();
    expect(await listCourses()).toEqual(before);
    expect((await outline(courseId)).version).toBe(version);
  });

  test("a Word document goes in as new modules after the course's own; the course's title and first module stay", async () => {
    const assetId = await upload(alice, courseId, "policy.docx", policy);
    const before = await outline(courseId);
    const coursesBefore = await listCourses();
    const result = await alice.call("import_course", { assetId, into: { courseId, expectedVersion: before.version } });
    const into = result.into as Json;
    expect(into.courseId).toBe(courseId);
    expect(into.version).toBe(before.version + 1);
    expect(into.moduleIds.length).toBe(1);
    const after = await outline(courseId);
    expect(after.title).toBe("Hand hygiene");
    expect(after.modules.map((module: Json) => module.title)).toEqual(["Welcome", "When to clean your hands"]);
    expect(after.modules[0]).toEqual(before.modules[0]);
    expect(after.modules[1].lessons.map((lesson: Json) => lesson.title)).toEqual(["The five moments", "How to clean"]);
    expect(await listCourses()).toEqual(coursesBefore);
  });

  test("a deck's slides go in as lessons of a chosen module, their speaker notes as comments on those lessons", async () => {
    const assetId = await upload(alice, courseId, "deck.pptx", deck);
    const before = await outline(courseId);
    const welcome = before.modules[0].id;
    const result = await alice.call("import_course", { assetId, into: { courseId, moduleId: welcome } });
    const into = result.into as Json;
    expect(into.moduleIds).toEqual([]);
    const after = await outline(courseId);
    expect(after.modules.length).toBe(before.modules.length);
    const titles = after.modules[0].lessons.map((lesson: Json) => lesson.title);
    expect(titles[0]).toBe("Start here");
    expect(titles).toContain("Why it matters");
    expect(titles).toContain("Gloves are not enough");
    const comments = (await alice.call("list_comments", { courseId })).comments as Json[];
    const onNew = comments.filter((comment) => into.lessonIds.includes(comment.target.id));
    expect(onNew.length).toBe(2);
    expect(onNew.map((comment) => comment.body).join("\n")).toContain("Say why: Why it matters.");
    expect(onNew.map((comment) => comment.body).join("\n")).toContain("Say why: Gloves are not enough.");
  });

  test("a section slide's speaker notes are kept on the first lesson after it, not lost", async () => {
    const pptx = new PptxGenJS();
    pptx.addSlide().addText("Infection control", { x: 0.5, y: 1, w: 9, h: 1 });
    const section = pptx.addSlide();
    section.addText("Before the patient", { x: 0.5, y: 0.3, w: 9, h: 0.8 });
    section.addNotes("Ask who has seen a hand-hygiene audit.");
    const lesson = pptx.addSlide();
    lesson.addText("The first moment", { x: 0.5, y: 0.3, w: 9, h: 0.8 });
    lesson.addText("Before touching a patient.", { x: 0.5, y: 1.5, w: 9, h: 1 });
    const bytes = (await pptx.write({ outputType: "uint8array" })) as Uint8Array;
    const assetId = await upload(alice, courseId, "sections.pptx", bytes);
    const result = await alice.call("import_course", { assetId, into: { courseId } });
    const into = result.into as Json;
    const comments = ((await alice.call("list_comments", { courseId })).comments as Json[]).filter((comment) => into.lessonIds.includes(comment.target.id));
    expect(comments.length).toBe(1);
    expect(comments[0]?.body).toContain("Ask who has seen a hand-hygiene audit.");
    expect(comments[0]?.body).toContain('the section "Before the patient"');
  });

  test("refused, nothing written: a course the person cannot edit, a module of another course, a lesson as target, a stale version", async () => {
    const assetId = await upload(alice, courseId, "policy.docx", policy);
    const before = await outline(courseId);
    const bobsCourse = String((await bob.call("create_course", { title: "Bob's" })).id);
    const bobsModule = String(((await bob.call("get_course", { courseId: bobsCourse })) as Json).modules[0]?.id ?? "mod_missing");
    const noAccess = await alice.fail("import_course", { assetId, into: { courseId: bobsCourse } });
    expect(noAccess.code).toBe("not_found");
    const otherModule = await alice.fail("import_course", { assetId, into: { courseId, moduleId: bobsModule } });
    expect(otherModule.code).toBe("not_found");
    expect(otherModule.message).toContain("into.moduleId");
    const lesson = await alice.fail("import_course", { assetId, into: { courseId, lessonId: before.modules[0].lessons[0].id } });
    expect(lesson.code).toBe("invalid_arguments");
    expect(lesson.message).toContain("into.moduleId");
    const stale = await alice.fail("import_course", { assetId, into: { courseId, expectedVersion: before.version - 1 } });
    expect(stale.code).toBe("conflict");
    expect(await outline(courseId)).toEqual(before);
  });
});
