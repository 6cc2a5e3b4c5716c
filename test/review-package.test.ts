/**
 * The review package (export_course html_review) through the real service and a real browser: the
 * package opened from file:// in Chromium, one reviewer commenting with the keyboard alone (text with
 * quoted words, a question's choice, a video time, a scenario, a reply), the page reloaded mid-review
 * with nothing lost, a second reviewer whose name and comment hold HTML (shown as text), both files
 * saved as downloads; then the course changes, both files come back through import_review_copy onto
 * their blocks (saying which changed or went), twice without duplicates; list_review_rounds tells who
 * answered. axe runs on the review layer, at 390 px too. Tampered and hostile files are refused whole.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unzipSync } from "fflate";
import type { Browser, Page } from "playwright-core";
import { readReviewComments, reviewFileLimits } from "../src/formats/review-package/review-package-read.ts";
import { launchBrowser, runAxe, tabTo } from "./support/browser.ts";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { createRichCourse, embeddedBytes, exportPackage } from "./support/transfer.ts";

setDefaultTimeout(120_000);
type Json = Record<string, any>;

let service: TestService;
let alice: Agent;
let bob: Agent;
let carol: Agent;
let browser: Browser;
let courseId: string;
let course: Json;
let roundId: string;
let directory: string;
let samFile: Json;
let patFile: Json;

const scenario = {
  type: "scenario",
  title: "A spill at the bench",
  startSceneId: "spill",
  scenes: [
    { id: "spill", markdown: "Acid on the bench.", choices: [{ text: "Wipe it with paper", next: "burn" }, { text: "Warn others and use the kit", next: "safe" }] },
    { id: "burn", markdown: "Your glove smokes.", ending: { outcome: "failure" } },
    { id: "safe", markdown: "Contained.", ending: { outcome: "success" } },
  ],
};

const blocks = () => (course.modules as Json[]).flatMap((module) => (module.lessons as Json[]).flatMap((lesson) => lesson.blocks as Json[]));
const blockOf = (type: string) => blocks().find((block) => block.type === type) as Json;
const lessonOfBlock = (blockId: string) => (course.modules as Json[]).flatMap((module) => module.lessons as Json[]).find((lesson) => (lesson.blocks as Json[]).some((block) => block.id === blockId)) as Json;
const addButton = (blockId: string) => `[data-review-block="${blockId}"] + .rv-bar .rv-add`;
const base64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("base64");

async function unzipTo(bytes: Uint8Array): Promise<string> {
  const target = await mkdtemp(join(tmpdir(), "review-package-"));
  for (const [path, content] of Object.entries(unzipSync(bytes))) {
    if (path.endsWith("/")) continue;
    await Bun.write(join(target, path), content);
  }
  return target;
}

async function openPackage(page: Page, lessonId: string): Promise<void> {
  await page.goto(`file://${join(directory, "index.html")}#lesson-${lessonId}`);
  await page.locator("html.course-ready").waitFor({ state: "attached" });
}

async function said(page: Page, words: string): Promise<void> {
  await page.locator(".rv-panel [role=status]", { hasText: words }).waitFor();
}

/** The reviewer on the keyboard: Tab to the block's button, Enter, then the form's fields in order. */
async function keyboardComment(page: Page, blockId: string, steps: (page: Page) => Promise<void>): Promise<void> {
  await tabTo(page, addButton(blockId));
  await page.keyboard.press("Enter");
  await page.locator("#rv-form-heading:focus").waitFor();
  await steps(page);
  await tabTo(page, ".rv-form button[type=submit]");
  await page.keyboard.press("Enter");
  await said(page, "Comment added.");
  // Focus goes back to the block's button, where the reviewer was.
  expect(await page.evaluate(() => document.activeElement?.classList.contains("rv-add"))).toBe(true);
}

async function saveFile(page: Page, press: () => Promise<void>): Promise<Json> {
  const download = page.waitForEvent("download");
  await press();
  const file = await download;
  return JSON.parse(await readFile((await file.path()) as string, "utf8")) as Json;
}

beforeAll(async () => {
  service = await startTestService();
  [alice, bob, carol] = (await Promise.all(["alice", "bob", "carol"].map(async (name) => connectAgent(service, await devAccessToken(service, name))))) as [Agent, Agent, Agent];
  courseId = await createRichCourse(alice);
  course = (await alice.call("get_course", { courseId })) as Json;
  await alice.call("add_blocks", { courseId, lessonId: course.modules[1].lessons[0].id, blocks: [scenario] });
  await alice.call("share_course", { courseId, sub: "bob", role: "reviewer" });
  await alice.call("share_course", { courseId, sub: "carol", role: "viewer" });
  course = (await alice.call("get_course", { courseId })) as Json;
  const exported = await exportPackage(alice, { courseId, format: "html_review", delivery: "embedded", dueDate: "2026-12-10", reviewers: ["Sam SME", "Pat Expert", "Lee Lab"], note: "Please check the quiz." });
  roundId = exported.structured.reviewRoundId as string;
  directory = await unzipTo(embeddedBytes(exported.result).bytes);
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([alice, bob, carol].map((agent) => agent?.close()));
  await service?.dispose();
});

describe("the review package", () => {
  test("export_course html_review opens a round and names it; the learner's HTML site does not carry the layer", async () => {
    expect(roundId).toMatch(/^rnd_/);
    const page = await Bun.file(join(directory, "index.html")).text();
    expect(page).toContain(`data-review-block="${blockOf("text").id}"`);
    const site = embeddedBytes((await exportPackage(alice, { courseId, format: "html", delivery: "embedded" })).result).bytes;
    const learnerPage = new TextDecoder().decode(unzipSync(site)["index.html"]);
    expect(learnerPage).not.toContain("data-review-block");
    expect(learnerPage).not.toContain("course-review:");
    const wrong = (await alice.fail("export_course", { courseId, format: "html", dueDate: "2026-12-10" })).message;
    expect(wrong).toContain("dueDate: only format html_review opens a review round");
    const badDate = (await alice.fail("export_course", { courseId, format: "html_review", dueDate: "2026-02-30" })).message;
    expect(badDate).toContain("dueDate");
    const viewer = await carol.fail("export_course", { courseId, format: "html_review" });
    expect(viewer.code).toBe("forbidden");
  });

  test("a reviewer on the keyboard alone comments on text, a choice, a video time and a scenario, reloads, replies and saves the file", async () => {
    const context = await browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    const text = blockOf("text");
    await openPackage(page, lessonOfBlock(text.id).id);
    // The first comment asks for the name first, then opens the form for that block.
    await tabTo(page, addButton(text.id));
    await page.keyboard.press("Enter");
    await page.locator("#rv-name:focus").waitFor();
    await page.keyboard.type("Sam SME");
    await page.keyboard.press("Enter");
    await page.locator("#rv-form-heading:focus").waitFor();
    await page.keyboard.press("Tab");
    await page.keyboard.press("ArrowRight"); // Suggestion → Error
    await page.keyboard.press("Tab");
    await page.keyboard.type("small");
    await page.keyboard.press("Tab");
    await page.keyboard.type("A shortcut is never small.");
    await tabTo(page, ".rv-form button[type=submit]");
    await page.keyboard.press("Enter");
    await said(page, "Comment added.");

    const choice = blockOf("single_choice");
    await openPackage(page, lessonOfBlock(choice.id).id);
    await keyboardComment(page, choice.id, async () => {
      await page.keyboard.press("Tab"); // the kinds
      await page.keyboard.press("ArrowRight");
      await page.keyboard.press("ArrowRight"); // Question
      await page.keyboard.press("Tab"); // About
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("ArrowDown"); // Choice 2
      await page.keyboard.press("Tab"); // quoted words
      await page.keyboard.press("Tab");
      await page.keyboard.type("Is mopping ever right?");
    });

    const video = blockOf("video");
    await openPackage(page, lessonOfBlock(video.id).id);
    await keyboardComment(page, video.id, async () => {
      await page.keyboard.press("Tab");
      await page.keyboard.press("Tab"); // quoted words
      await page.keyboard.press("Tab"); // the time
      await page.keyboard.type("1:05");
      await page.keyboard.press("Tab");
      await page.keyboard.type("The goggles are off here.");
    });

    // Reloaded mid-review: nothing is lost.
    await page.reload();
    await page.locator("html.course-ready").waitFor({ state: "attached" });
    expect(await page.locator(".rv-toggle").textContent()).toBe("Review comments (3)");

    const scenarioBlock = blockOf("scenario");
    await openPackage(page, lessonOfBlock(scenarioBlock.id).id);
    await keyboardComment(page, scenarioBlock.id, async () => {
      await page.keyboard.press("Tab");
      await page.keyboard.press("ArrowLeft"); // Suggestion → Approval (wraps)
      await page.keyboard.press("Tab");
      await page.keyboard.press("Tab");
      await page.keyboard.type("Paper is what people really grab; keep this path.");
    });

    // A reply to the first comment, from the panel.
    if ((await page.locator(".rv-toggle").getAttribute("aria-expanded")) !== "true") {
      await tabTo(page, ".rv-toggle");
      await page.keyboard.press("Enter");
    }
    await tabTo(page, ".rv-list li:first-child > .rv-actions button:nth-child(2)");
    await page.keyboard.press("Enter");
    await page.locator("#rv-form-heading:focus").waitFor();
    await tabTo(page, "#rv-text");
    await page.keyboard.type("And say why in one line.");
    await tabTo(page, ".rv-form button[type=submit]");
    await page.keyboard.press("Enter");
    await said(page, "Comment added.");
    await page.screenshot({ path: join(tmpdir(), "review-package-panel.png") });

    await tabTo(page, ".rv-panel .rv-actions > .rv-primary");
    samFile = await saveFile(page, () => page.keyboard.press("Enter"));
    await said(page, "Your comments are saved in the file");
    expect(samFile).toMatchObject({ format: "course-review-comments", formatVersion: 1, roundId, courseId, courseVersion: course.version, reviewer: "Sam SME" });
    const byBlock = Object.fromEntries((samFile.comments as Json[]).filter((comment) => !comment.replyTo).map((comment) => [comment.anchor.id, comment]));
    expect(byBlock[text.id]).toMatchObject({ kind: "error", quote: "small", text: "A shortcut is never small.", author: "Sam SME" });
    expect(byBlock[choice.id]).toMatchObject({ kind: "question", choice: 1, choiceText: "Mop it up" });
    expect(byBlock[video.id]).toMatchObject({ kind: "suggestion", videoTime: 65 });
    expect(byBlock[scenarioBlock.id]).toMatchObject({ kind: "approval" });
    expect((samFile.comments as Json[]).find((comment) => comment.replyTo)).toMatchObject({ replyTo: byBlock[text.id].id, anchor: byBlock[text.id].anchor });
    for (const comment of samFile.comments as Json[]) expect(comment.anchor.hash).toMatch(/^[0-9a-f]{8}$/);
    // Once in a file, a comment can no longer be changed.
    expect(await page.locator(".rv-list li", { hasText: "A shortcut is never small." }).first().getByRole("button", { name: /^Change/ }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  test("a second reviewer's HTML in name and comment is shown as text, never run; the layer passes axe, at 390 px too", async () => {
    const context = await browser.newContext({ acceptDownloads: true, bypassCSP: true, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const text = blockOf("text");
    await openPackage(page, lessonOfBlock(text.id).id);
    await page.locator(addButton(text.id)).click();
    await page.getByLabel("Your name").fill('Pat Expert <img src=x onerror="window.hacked=1">');
    await page.getByRole("button", { name: "Save name" }).click();
    await page.getByRole("radio", { name: "Question" }).check();
    await page.getByLabel("Comment", { exact: true }).fill("<script>window.hacked=2</script> Is this <b>bold</b>?");
    await page.getByRole("button", { name: "Add comment" }).click();
    await said(page, "Comment added.");
    const item = page.locator(".rv-list li").first();
    expect(await item.textContent()).toContain("<script>window.hacked=2</script> Is this <b>bold</b>?");
    expect(await item.textContent()).toContain('Pat Expert <img src=x onerror="window.hacked=1">');
    expect(await page.locator(".rv-panel img, .rv-panel script, .rv-panel b").count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { hacked?: number }).hacked)).toBeUndefined();
    const violations = await runAxe(page);
    expect(violations.map((violation) => `${violation.id}: ${violation.targets.join(", ")}`)).toEqual([]);
    await page.screenshot({ path: join(tmpdir(), "review-package-390.png") });
    await page.getByRole("button", { name: "Close the review comments" }).click();
    await page.locator(addButton(text.id)).click();
    await page.locator("#rv-form-heading:focus").waitFor();
    expect(await runAxe(page)).toEqual([]);
    await page.getByRole("button", { name: "Cancel" }).click();
    patFile = await saveFile(page, () => page.getByRole("button", { name: "Save comments" }).click());
    expect(patFile.reviewer).toBe('Pat Expert <img src=x onerror="window.hacked=1">');
    await context.close();
  });
});

describe("comments back", () => {
  let samResult: Json;
  let samAsset: string;

  beforeAll(async () => {
    // After the package went out: the text block is reworded and the scenario removed.
    await alice.call("update_block", { courseId, blockId: blockOf("text").id, changes: { markdown: "Every accident starts with a shortcut." } });
    await alice.call("remove_block", { courseId, blockId: blockOf("scenario").id });
    samAsset = ((await alice.call("upload_asset", { courseId, filename: "review-comments-sam.json", dataBase64: base64(JSON.stringify(samFile)) })).asset as Json).id;
    samResult = await bob.call("import_review_copy", { courseId, assetId: samAsset });
  });

  test("each comment lands on its block, as the reviewer typed their name, from the package and its round, saying what changed", async () => {
    expect(samResult).toMatchObject({ source: "review_package", roundId, reviewer: "Sam SME", copyVersion: course.version, alreadyImported: 0, importedCount: 5 });
    const states = Object.fromEntries((samResult.imported as Json[]).filter((note) => !note.replyTo).map((note) => [note.targetId, note.partState]));
    expect(states).toEqual({ [blockOf("text").id]: "changed", [blockOf("single_choice").id]: "unchanged", [blockOf("video").id]: "unchanged", [blockOf("scenario").id]: "deleted" });
    const onText = (await alice.call("list_comments", { courseId, targetId: blockOf("text").id })).comments as Json[];
    const error = onText.find((comment) => comment.origin?.kind === "error") as Json;
    expect(error).toMatchObject({ author: { name: "Sam SME" }, quote: "small", origin: { source: "review_package", roundId, blockState: "changed", courseVersion: course.version } });
    expect(error.body).toContain("A shortcut is never small.");
    expect(error.body).toContain(`This block has changed since version ${course.version}`);
    const reply = onText.find((comment) => comment.replyTo) as Json;
    expect(reply.replyTo).toBe(error.id);
    expect(reply.body).toContain("And say why in one line.");
    const [onChoice] = (await alice.call("list_comments", { courseId, targetId: blockOf("single_choice").id })).comments as [Json];
    expect(onChoice.origin).toMatchObject({ kind: "question", choice: 1, choiceText: "Mop it up", blockState: "unchanged" });
    expect(onChoice.body).toContain("On choice 2 “Mop it up”.");
    const [onVideo] = (await alice.call("list_comments", { courseId, targetId: blockOf("video").id })).comments as [Json];
    expect(onVideo.origin).toMatchObject({ videoTime: 65 });
    expect(onVideo.body).toContain("At 1:05 in the video.");
    const [onScenario] = (await alice.call("list_comments", { courseId, targetId: blockOf("scenario").id })).comments as [Json];
    expect(onScenario.targetRemoved).toBe(true);
    expect(onScenario.body).toContain(`This block was removed after version ${course.version}`);
  });

  test("the summary is per lesson, by kind, open errors first", () => {
    const first = (samResult.lessons as Json[])[0] as Json;
    expect(first.lessonId).toBe(lessonOfBlock(blockOf("text").id).id);
    expect(first.openErrors).toHaveLength(1);
    expect(first.openErrors[0]).toMatchObject({ blockId: blockOf("text").id, partState: "changed" });
    expect(first.byKind).toMatchObject({ error: 1, suggestion: 2 });
  });

  test("importing the same file twice adds nothing; the second reviewer's file lands as text; list_review_rounds tells who answered", async () => {
    const before = (await alice.call("list_comments", { courseId })).counts;
    const again = await bob.call("import_review_copy", { courseId, assetId: samAsset });
    expect(again).toMatchObject({ importedCount: 0, alreadyImported: 5 });
    expect((await alice.call("list_comments", { courseId })).counts).toEqual(before);
    const patAsset = ((await alice.call("upload_asset", { courseId, filename: "pat.json", dataBase64: base64(JSON.stringify(patFile)) })).asset as Json).id;
    const pat = await alice.call("import_review_copy", { courseId, assetId: patAsset });
    expect((pat.imported as Json[])[0]).toMatchObject({ author: 'Pat Expert <img src=x onerror="window.hacked=1">', kind: "question" });
    const rounds = (await carol.call("list_review_rounds", { courseId })).rounds as Json[];
    const round = rounds.find((entry) => entry.roundId === roundId) as Json;
    expect(round).toMatchObject({ courseVersion: course.version, dueDate: "2026-12-10", note: "Please check the quiz.", awaiting: ["Pat Expert", "Lee Lab"] });
    // Pat typed more than the name the round lists, so the round still waits for "Pat Expert" by that name.
    expect(round.returned.find((entry: Json) => entry.reviewer === "Sam SME")).toMatchObject({ comments: 5, byKind: { error: 1, question: 1, suggestion: 2, approval: 1 } });
  });
});

describe("tampered and hostile files are refused whole, naming the rule", () => {
  async function refusedFor(file: unknown, agent: Agent = bob, target = courseId): Promise<string> {
    const before = (await alice.call("list_comments", { courseId })).counts;
    const assetId = ((await alice.call("upload_asset", { courseId: target, filename: "tampered.json", dataBase64: base64(typeof file === "string" ? file : JSON.stringify(file)) })).asset as Json).id;
    const error = await agent.fail("import_review_copy", { courseId: target, assetId });
    const message = `${error.code}: ${error.message}`;
    expect((await alice.call("list_comments", { courseId })).counts).toEqual(before);
    return message;
  }
  const fresh = (changes: (file: Json) => void): Json => {
    const file = structuredClone(samFile);
    const renamed = new Map<string, string>();
    (file.comments as Json[]).forEach((comment, index) => {
      renamed.set(comment.id, `tampered${index}`);
      comment.id = `tampered${index}`;
      if (comment.replyTo) comment.replyTo = renamed.get(comment.replyTo);
    });
    changes(file);
    return file;
  };

  test("another round, another course, a version the round did not send", async () => {
    expect(await refusedFor(fresh((file) => (file.roundId = "rnd_0000000000000000000a")))).toContain("never opened");
    expect(await refusedFor(fresh((file) => (file.courseId = "crs_0000000000000000000a")))).toContain("its comments can only go to the course");
    expect(await refusedFor(fresh((file) => (file.courseVersion = 999)))).toContain("showed version 999");
  });

  test("anchors pointing at blocks of another course, or with a forged hash; a reply to nothing", async () => {
    const other = await createRichCourse(alice, "Other course");
    const otherBlock = ((await alice.call("get_course", { courseId: other })) as Json).modules[0].lessons[0].blocks[1] as Json;
    const forged = fresh((file) => (((file.comments as Json[])[0] as Json).anchor = { id: otherBlock.id, hash: "0123abcd" }));
    const message = await refusedFor(forged);
    expect(message).toContain("not a block the round's package showed");
    expect(await refusedFor(fresh((file) => (((file.comments as Json[])[1] as Json).anchor.hash = "ffffffff")))).toContain("not a block the round's package showed");
    expect(await refusedFor(fresh((file) => (((file.comments as Json[])[0] as Json).replyTo = "nobody")))).toContain("does not come before it");
  });

  test("a viewer cannot bring comments back; a file that is not one is refused; too many comments are refused", async () => {
    expect(await refusedFor(fresh(() => {}), carol)).toStartWith("forbidden");
    expect(await refusedFor('{"format":"something else"}')).toContain("is not a comments file saved from a review package");
    expect(await refusedFor("{ not json")).toContain("not a comments file");
  });

  test("over 100,000 comments or over 50 MB: refused by the reader, naming the limit (too large to send through MCP at all)", async () => {
    const first = (samFile.comments as Json[])[0] as Json;
    const many = { ...samFile, comments: Array.from({ length: 100_001 }, (_, index) => ({ ...first, id: `c${index}` })) };
    const tooMany = await readReviewComments({ fileName: "many.json", bytes: new TextEncoder().encode(JSON.stringify(many)) }).catch((error: Error) => error.message);
    expect(tooMany).toContain("a comments file holds at most 100000");
    const huge = new Uint8Array(reviewFileLimits.bytes + 1).fill(0x20);
    huge[0] = 0x7b;
    const tooLarge = await readReviewComments({ fileName: "huge.json", bytes: huge }).catch((error: Error) => error.message);
    expect(tooLarge).toContain("a comments file is at most 50 MB");
  });
});
