/**
 * The course renderer in a real browser: a realistic two-module course with every block type is served
 * over HTTP to Debian's Chromium, a learner answers the quiz with the keyboard only, the score and the
 * runtime events are checked, screenshots land in .tmp/, and axe-core finds no serious or critical
 * accessibility violation on any page.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { Block } from "../src/authoring/schemas/blocks.ts";
import { blockTypes } from "../src/authoring/schemas/blocks.ts";
import { validatedBlock } from "../src/render/blocks.ts";
import { renderCourseHtml, type RenderableCourse } from "../src/render/index.ts";
import { teachingContentBlocks } from "./support/teaching-blocks.ts";
import { newQuestionTypeBlocks } from "./support/question-types.ts";
import { launchBrowser, runAxe, seriousOrCritical, serveStatic, tabTo, type AxeViolation, type StaticSite } from "./support/browser.ts";
import { ClassName, DataName } from "../src/page-contract/markup-names.ts";

const diagramSvg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="200" viewBox="0 0 640 200"><rect width="640" height="200" fill="#f1f5f9"/><rect x="30" y="60" width="170" height="80" rx="10" fill="#1d4ed8"/><text x="115" y="107" fill="#fff" font-family="sans-serif" font-size="22" text-anchor="middle">Browser</text><rect x="440" y="60" width="170" height="80" rx="10" fill="#047857"/><text x="525" y="107" fill="#fff" font-family="sans-serif" font-size="22" text-anchor="middle">Server</text><path d="M210 85 H420" stroke="#0f172a" stroke-width="4"/><path d="M420 85 l-14 -8 v16z" fill="#0f172a"/><path d="M430 120 H220" stroke="#0f172a" stroke-width="4"/><path d="M220 120 l14 -8 v16z" fill="#0f172a"/><text x="320" y="75" font-family="sans-serif" font-size="16" text-anchor="middle" fill="#0f172a">GET /courses</text><text x="320" y="145" font-family="sans-serif" font-size="16" text-anchor="middle" fill="#0f172a">200 OK</text></svg>`;
const posterSvg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360"><rect width="640" height="360" fill="#0f172a"/><text x="320" y="190" fill="#f8fafc" font-family="sans-serif" font-size="30" text-anchor="middle">HTTP in 90 seconds</text></svg>`;

/** Half a second of a 440 Hz tone as an 8 kHz, 8-bit mono WAV. */
function toneWav(): Uint8Array {
  const samples = 4000;
  const bytes = new Uint8Array(44 + samples);
  const view = new DataView(bytes.buffer);
  const ascii = (offset: number, text: string) => [...text].forEach((character, index) => view.setUint8(offset + index, character.charCodeAt(0)));
  ascii(0, "RIFF"); view.setUint32(4, 36 + samples, true); ascii(8, "WAVEfmt ");
  view.setUint32(16, 16, true); view.setUint16(20, 1, true); view.setUint16(22, 1, true);
  view.setUint32(24, 8000, true); view.setUint32(28, 8000, true); view.setUint16(32, 1, true); view.setUint16(34, 8, true);
  ascii(36, "data"); view.setUint32(40, samples, true);
  for (let index = 0; index < samples; index++) bytes[44 + index] = 128 + Math.round(60 * Math.sin((2 * Math.PI * 440 * index) / 8000));
  return bytes;
}

const assetUrls: Record<string, string> = {
  ast_diagram: `data:image/svg+xml;base64,${btoa(diagramSvg)}`,
  ast_poster: `data:image/svg+xml;base64,${btoa(posterSvg)}`,
  ast_video: "assets/http-in-90-seconds.webm",
  ast_captions: "assets/http-in-90-seconds.vtt",
  ast_audio: "assets/status-codes.wav",
};

const contentBlocks: Block[] = [
  { id: "blk_text", type: "text", markdown: "Every web page you open starts with an **HTTP request**. In this lesson you will see what a request and a response contain.\n\n- A *method* such as `GET`\n- A *path* such as `/courses`\n- Headers and an optional body\n\nRead more in the [HTTP specification](https://www.rfc-editor.org/rfc/rfc9110)." },
  { id: "blk_heading", type: "heading", text: "Anatomy of a request", level: 2 },
  { id: "blk_image", type: "image", assetId: "ast_diagram", alt: "A browser sends GET /courses to a server, which answers 200 OK.", decorative: false, caption: "A request and its response." },
  { id: "blk_callout", type: "callout", variant: "tip", title: "Try it yourself", markdown: "Open your browser's developer tools and watch the **Network** tab while a page loads." },
  { id: "blk_code", type: "code", language: "http", code: "GET /courses HTTP/1.1\nHost: example.com\nAccept: application/json", caption: "A minimal request." },
  { id: "blk_quote", type: "quote", text: "The Web is more a social creation than a technical one.", attribution: "Tim Berners-Lee" },
  { id: "blk_divider", type: "divider" },
  { id: "blk_video", type: "video", assetId: "ast_video", title: "HTTP in 90 seconds", poster: { assetId: "ast_poster" }, captions: { assetId: "ast_captions", language: "en" }, transcript: "A browser asks, a server answers. That exchange is HTTP.", decorative: false } as unknown as Block,
  { id: "blk_accordion", type: "accordion", items: [{ title: "What is a header?", markdown: "A name and a value, such as `Accept: text/html`." }, { title: "What is a body?", markdown: "Optional content after the headers, such as JSON." }] },
];

const moreContentBlocks: Block[] = [
  { id: "blk_tabs", type: "tabs", tabs: [{ title: "2xx Success", markdown: "`200 OK`, `201 Created`." }, { title: "4xx Client error", markdown: "`404 Not Found`, `403 Forbidden`." }, { title: "5xx Server error", markdown: "`500 Internal Server Error`." }] },
  { id: "blk_cards", type: "flashcards", cards: [{ front: "GET", back: "Reads a resource without changing it." }, { front: "POST", back: "Creates a resource or triggers processing." }, { front: "DELETE", back: "Removes a resource." }] },
  { id: "blk_audio", type: "audio", assetId: "ast_audio", title: "Status codes, read aloud", transcript: "Two hundred means OK. Four oh four means not found." },
  { id: "blk_check", type: "single_choice", prompt: "Which part of a request names the resource?", points: 1, objectiveIds: [], explanation: "The path identifies the resource; the method says what to do with it.", choices: [{ text: "The method", correct: false, feedback: "The method says *what to do*, not *which* resource." }, { text: "The path", correct: true, feedback: "Right: `/courses` names the resource." }] },
];

const quizBlocks: Block[] = [
  { id: "blk_q1", type: "single_choice", prompt: "Which status code means **Not Found**?", points: 2, objectiveIds: ["obj_codes"], explanation: "4xx codes are client errors; 404 says the resource does not exist.", choices: [{ text: "200 OK", correct: false, feedback: "200 means success." }, { text: "404 Not Found", correct: true, feedback: "Yes, 404 is Not Found." }, { text: "500 Internal Server Error", correct: false }] },
  { id: "blk_q2", type: "multiple_choice", prompt: "Which methods are *safe* (they do not change the resource)?", points: 2, objectiveIds: [], explanation: "GET and HEAD only read.", choices: [{ text: "GET", correct: true }, { text: "HEAD", correct: true }, { text: "POST", correct: false, feedback: "POST usually changes state." }, { text: "DELETE", correct: false }] },
  { id: "blk_q3", type: "true_false", prompt: "HTTP is a stateful protocol.", points: 1, objectiveIds: [], answer: false, trueFeedback: "Each request stands alone: HTTP is stateless.", falseFeedback: "Correct: cookies add state on top of a stateless protocol." },
  { id: "blk_q4", type: "fill_in_blank", prompt: "Complete the sentence.", points: 2, objectiveIds: [], text: "By default HTTPS uses port {{1}} and HTTP uses port {{2}}.", blanks: [{ answers: ["443"], caseSensitive: false, feedback: "HTTPS listens on 443." }, { answers: ["80"], caseSensitive: false }] },
  { id: "blk_q5", type: "matching", prompt: "Match each status code with its meaning.", points: 3, objectiveIds: [], pairs: [{ left: "200", right: "OK" }, { left: "404", right: "Not Found" }, { left: "500", right: "Internal Server Error", feedback: "5xx means the server failed." }] },
  { id: "blk_q6", type: "ordering", prompt: "Put the steps of a TCP handshake in order.", points: 2, objectiveIds: [], explanation: "SYN, then SYN-ACK, then ACK.", items: [{ text: "SYN" }, { text: "SYN-ACK" }, { text: "ACK", feedback: "ACK comes last." }] },
];

/** The teaching blocks of issue 20 (their behaviour is proven in render-teaching-blocks.test.ts). */
const teachingBlocks = [...teachingContentBlocks({ image: "ast_diagram", attachment: "ast_jobaid" }), { type: "sorting", prompt: "Sort them.", categories: [{ title: "A" }, { title: "B" }], items: [{ text: "a", category: "A" }, { text: "b", category: "B" }] }, ...newQuestionTypeBlocks("ast_diagram")].map(
  (block, index) => ({ id: `blk_teach${index}`, points: 1, objectiveIds: [], ...block }) as unknown as Block,
);

const course: RenderableCourse = {
  id: "crs_http101",
  title: "HTTP for course authors",
  description: "A short, practical introduction to the protocol behind every web page.",
  language: "en-GB",
  audience: "Instructional designers new to web technology",
  level: "beginner",
  objectives: [{ id: "obj_requests", text: "Describe the parts of an HTTP request" }, { id: "obj_codes", text: "Recognise common status codes" }],
  modules: [
    { id: "mod_basics", title: "Requests and responses", summary: "What travels between a browser and a server.", objectiveIds: ["obj_requests"], lessons: [
      { id: "les_anatomy", title: "Anatomy of an HTTP exchange", kind: "content", estimatedMinutes: 8, blocks: contentBlocks },
      { id: "les_codes", title: "Methods and status codes", kind: "content", estimatedMinutes: 6, blocks: moreContentBlocks },
      { id: "les_teaching", title: "Spotting phishing", kind: "content", estimatedMinutes: 6, blocks: teachingBlocks },
    ] },
    { id: "mod_check", title: "Check your understanding", summary: "A short graded quiz.", objectiveIds: ["obj_codes"], lessons: [
      { id: "les_quiz", title: "HTTP quiz", kind: "quiz", passingScore: 70, maxAttempts: 2, estimatedMinutes: 5, feedbackMode: "immediate", shuffleChoices: false, blocks: quizBlocks },
    ] },
  ],
};

const html = renderCourseHtml(course, { mode: "package", assetUrl: (assetId) => assetUrls[assetId] ?? "" });
let site: StaticSite;
let browser: Browser;
const pageUrl = () => `${site.origin}/course.html`;

beforeAll(async () => {
  mkdirSync(".tmp", { recursive: true });
  site = serveStatic({
    "/course.html": { body: html, type: "text/html; charset=utf-8" },
    "/assets/http-in-90-seconds.vtt": { body: "WEBVTT\n\n00:00.000 --> 00:03.000\nA browser asks, a server answers.\n", type: "text/vtt" },
    "/assets/status-codes.wav": { body: toneWav(), type: "audio/wav" },
  });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

/** A page that records the runtime's events and every request it makes. */
async function openCourse(context: BrowserContext, fragment = ""): Promise<{ page: Page; requests: string[] }> {
  await context.addInitScript(() => {
    const events: Array<{ type: string; detail: unknown }> = [];
    Object.assign(window, { __courseEvents: events });
    for (const type of ["course:lesson-visited", "course:quiz-scored", "course:question-answered"]) {
      document.addEventListener(type, (event) => events.push({ type, detail: (event as CustomEvent).detail }));
    }
  });
  const page = await context.newPage();
  const requests: string[] = [];
  page.on("request", (request) => requests.push(request.url()));
  await page.goto(pageUrl() + fragment);
  await page.waitForFunction(() => document.documentElement.classList.contains("course-ready"));
  return { page, requests };
}

async function text(page: Page, selector: string): Promise<string> {
  return (await page.locator(selector).first().innerText()).replace(/\s+/g, " ").trim();
}

const quiz = "#lesson-les_quiz";
const question = (id: string) => `${quiz} [data-${DataName.questionId}="${id}"]`;

describe("rendered course", () => {
  test("every block type renders from a realistic two-module course", () => {
    const blocks = [...contentBlocks, ...moreContentBlocks, ...quizBlocks, ...teachingBlocks];
    expect(blocks.filter((block) => validatedBlock(block) === null).map((block) => block.id)).toEqual([]);
    const used = new Set(blocks.map((block) => block.type));
    expect([...blockTypes].filter((type) => !used.has(type))).toEqual([]);
    expect(html).toStartWith("<!doctype html>");
    expect(html).toContain('<html lang="en-GB" dir="ltr">');
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; script-src &#39;nonce-/);
  });

  test("connect-src takes the https: and http: schemes and plain http(s) origins; anything else is dropped", () => {
    const connectSources = ["https:", "HTTP:", "https://LRS.example.com", "https://lrs.example.com/", "http://127.0.0.1:8080", "http://[::1]:3000", "*", "https://*.example.com", "'unsafe-inline'", "https://x.example; script-src *", "data:", "javascript:", "ws:", "https://lrs.example.com/xapi/"];
    const markup = renderCourseHtml(course, { mode: "package", assetUrl: () => "", connectSources });
    expect(/connect-src ([^;"]*)/.exec(markup)?.[1]).toBe("https: http: https://lrs.example.com http://127.0.0.1:8080 http://[::1]:3000");
    expect(renderCourseHtml(course, { mode: "package", assetUrl: () => "" })).toContain("connect-src &#39;none&#39;");
  });

  test("a learner answers the quiz with the keyboard only and sees feedback and score", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, requests } = await openCourse(context);

    await tabTo(page, `a[data-${DataName.contentsLink}="lesson-les_quiz"]`);
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.activeElement?.id === "lesson-title-les_quiz");
    expect(await page.locator("#lesson-les_anatomy").isHidden()).toBe(true);

    await tabTo(page, `${question("blk_q1")} input[value="0"]`);
    await page.keyboard.press("ArrowDown");
    await tabTo(page, `${question("blk_q1")} [data-${DataName.checkAnswer}]`);
    await page.keyboard.press("Enter");
    expect(await text(page, `${question("blk_q1")} [data-${DataName.verdict}]`)).toBe("Correct. Points: 2 of 2.");
    expect(await text(page, `${question("blk_q1")} [data-${DataName.answerFeedback}]:not([hidden])`)).toBe("You chose “404 Not Found”: Yes, 404 is Not Found.");
    expect(await text(page, `${question("blk_q1")} [data-${DataName.explanation}]`)).toContain("404 says the resource does not exist");
    expect(await page.locator(`${question("blk_q1")} input`).first().isDisabled()).toBe(true);

    await tabTo(page, `${question("blk_q2")} input[value="0"]`);
    await page.keyboard.press("Space");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Space");
    await tabTo(page, `${question("blk_q3")} input[value="0"]`);
    await page.keyboard.press("ArrowDown"); // Picks "False" (right)...
    await page.keyboard.press("ArrowUp"); // ...then back to "True": a deliberate mistake.
    await tabTo(page, `${question("blk_q4")} input.${ClassName.blank}`);
    await page.keyboard.type("443");
    await page.keyboard.press("Tab");
    await page.keyboard.type(" 80 ");
    for (const [row, answer] of [["0", "OK"], ["1", "Not"], ["2", "Int"]] as const) {
      await tabTo(page, `${question("blk_q5")} .${ClassName.matchingRow}:nth-child(${Number(row) + 1}) select`);
      await page.keyboard.type(answer);
    }
    // Items are named by where they were first shown, so the test finds each by its text.
    const steps = ["SYN", "SYN-ACK", "ACK"];
    for (let position = 0; position < 3; position++) {
      const index = await page.evaluate(
        ([list, wanted, text]) => Array.from(document.querySelector(list)?.children ?? []).findIndex((item) => item.querySelector(text)?.textContent === wanted),
        [`${question("blk_q6")} ol`, steps[position]!, `.${ClassName.orderingText}`] as const,
      );
      if (index === position) continue;
      const item = await page.evaluate(([list, at, attribute]) => document.querySelector(list)?.children[at]?.getAttribute(attribute), [`${question("blk_q6")} ol`, index, `data-${DataName.item}`] as const);
      await tabTo(page, `${question("blk_q6")} li[data-${DataName.item}="${item}"] [data-${DataName.move}="up"]`);
      for (let press = index; press > position; press--) await page.keyboard.press("Enter");
    }
    expect(await text(page, `${question("blk_q6")} [data-${DataName.orderingStatus}]`)).toMatch(/^Moved “.+” to position \d of 3\.$/);

    await tabTo(page, `${quiz} [data-${DataName.submitQuiz}]`);
    await page.keyboard.press("Enter");
    const result = await text(page, `${quiz} [data-${DataName.quizResult}] p`);
    expect(result).toBe("Your score: 92% (11 of 12 points). You passed. The pass mark is 70%. Attempts left: 1.");
    expect(await text(page, `${quiz} [data-${DataName.quizResult}] li:nth-child(3)`)).toBe("Question 3: not correct.");
    expect(await page.evaluate(({ DataName }) => document.activeElement?.hasAttribute(`data-${DataName.quizResult}`), { DataName })).toBe(true);
    expect(await text(page, `${question("blk_q3")} [data-${DataName.verdict}]`)).toBe("Not quite. Points: 0 of 1.");
    expect(await text(page, `${question("blk_q3")} [data-${DataName.answerFeedback}]:not([hidden])`)).toContain("HTTP is stateless");
    expect(await text(page, `${question("blk_q4")} [data-${DataName.verdict}]`)).toBe("Correct. Points: 2 of 2.");
    expect(await text(page, `${question("blk_q6")} [data-${DataName.verdict}]`)).toBe("Correct. Points: 2 of 2.");

    const scored = await page.evaluate(() => (window as unknown as { __courseEvents: Array<{ type: string; detail: unknown }> }).__courseEvents.filter((event) => event.type === "course:quiz-scored"));
    expect(scored.map((event) => event.detail)).toEqual([
      { lessonId: "les_quiz", scorePercent: 92, earnedPoints: 11, possiblePoints: 12, passingScore: 70, passed: true, attempt: 1, attemptsLeft: 1 },
    ]);
    const state = await page.evaluate(() => window.CourseRuntime?.getState());
    expect(state).toMatchObject({ currentLessonId: "les_quiz", visitedLessonIds: ["les_quiz"], completed: false, passed: true, scorePercent: 92 });

    await page.screenshot({ path: ".tmp/render-quiz.png", fullPage: true });
    expect(requests.filter((url) => !url.startsWith(site.origin) && !url.startsWith("data:"))).toEqual([]);
    await context.close();
  }, 60_000);

  test("a failed quiz offers a retry until the attempts run out", async () => {
    const context = await browser.newContext();
    const { page } = await openCourse(context, "#lesson-les_quiz");
    expect(await page.locator(quiz).isVisible()).toBe(true);
    const submitAnyway = async () => {
      await tabTo(page, `${quiz} [data-${DataName.submitQuiz}]`);
      await page.keyboard.press("Enter");
      await page.waitForFunction((dialog) => document.querySelector<HTMLDialogElement>(dialog)?.open === true, `${quiz} [data-${DataName.submitDialog}]`);
      expect(await text(page, `${quiz} [data-${DataName.dialogTitle}]`)).toBe("6 of 6 questions are not answered");
      await page.locator(`${quiz} [data-${DataName.dialogSubmit}]`).click();
    };
    await submitAnyway();
    expect(await text(page, `${quiz} [data-${DataName.quizResult}] p`)).toBe("Your score: 0% (0 of 12 points). You did not pass yet. The pass mark is 70%. Attempts left: 1.");
    await tabTo(page, `${quiz} [data-${DataName.retryQuiz}]`);
    await page.keyboard.press("Enter");
    expect(await page.evaluate(({ DataName }) => document.activeElement?.matches(`[data-${DataName.questionId}="blk_q1"] input`), { DataName })).toBe(true);
    expect(await page.locator(`${question("blk_q1")} input`).first().isDisabled()).toBe(false);
    await submitAnyway();
    expect(await text(page, `${quiz} [data-${DataName.quizResult}] p`)).toEndWith("No attempts left.");
    expect(await page.locator(`${quiz} [data-${DataName.retryQuiz}]`).isHidden()).toBe(true);
    expect(await page.evaluate(() => window.CourseRuntime?.getState().quizzes)).toEqual({ les_quiz: { attempts: 2, lastScorePercent: 0, bestScorePercent: 0, passed: false } });
    await context.close();
  }, 60_000);

  test("a resumed quiz keeps its open attempt while attempts remain, and is locked with its last result when none are left", async () => {
    const context = await browser.newContext();
    const { page } = await openCourse(context, "#lesson-les_quiz");
    const restore = (attempts: number) =>
      page.evaluate((used) => window.CourseRuntime?.setState({ quizzes: { les_quiz: { attempts: used, lastScorePercent: 25, bestScorePercent: 25, passed: false } } }), attempts);
    await restore(1);
    expect(await page.locator(`${quiz} [data-${DataName.submitQuiz}]`).isVisible()).toBe(true);
    expect(await page.locator(`${question("blk_q1")} input`).first().isDisabled()).toBe(false);

    await page.reload();
    await page.waitForFunction(() => document.documentElement.classList.contains("course-ready"));
    await restore(2);
    await page.waitForFunction((result) => (document.querySelector(result)?.textContent ?? "").includes("No attempts left."), `${quiz} [data-${DataName.quizResult}] p`);
    expect(await text(page, `${quiz} [data-${DataName.quizResult}] p`)).toBe("Your last score: 25% after 2 attempt(s). You did not pass yet. The pass mark is 70%. No attempts left.");
    expect(await page.locator(`${quiz} [data-${DataName.retryQuiz}]`).isHidden()).toBe(true);
    expect(await page.locator(`${quiz} [data-${DataName.submitQuiz}]`).isHidden()).toBe(true);
    expect(await page.locator(`${question("blk_q1")} input`).first().isDisabled()).toBe(true);
    await context.close();
  }, 60_000);

  test("tabs, flashcards and the accordion work with the keyboard", async () => {
    const context = await browser.newContext();
    const { page } = await openCourse(context, "#lesson-les_codes");
    await tabTo(page, '[role="tab"][aria-selected="true"]');
    await page.keyboard.press("ArrowRight");
    expect(await text(page, '[role="tab"][aria-selected="true"]')).toBe("4xx Client error");
    expect(await text(page, '[role="tabpanel"]:not([hidden])')).toBe("404 Not Found, 403 Forbidden.");
    await page.keyboard.press("End");
    expect(await text(page, '[role="tab"]:focus')).toBe("5xx Server error");
    await tabTo(page, `[data-${DataName.flip}]`);
    await page.keyboard.press("Enter");
    expect(await text(page, `[data-${DataName.flashcard}]:first-child [data-${DataName.face}]:not([hidden])`)).toBe("Reads a resource without changing it.");
    expect(await text(page, `[data-${DataName.flashcard}]:first-child [data-${DataName.flip}]`)).toBe("Show question");
    await page.goto(`${pageUrl()}#lesson-les_anatomy`);
    await tabTo(page, `.${ClassName.accordionItem} summary`);
    await page.keyboard.press("Enter");
    expect(await page.locator(`.${ClassName.accordionItem}`).first().getAttribute("open")).toBe("");
    await context.close();
  }, 60_000);

  test("axe-core finds no serious or critical violation on any page, wide or narrow", async () => {
    const all: Array<AxeViolation & { page: string; width: number }> = [];
    for (const width of [1280, 390]) {
      const context = await browser.newContext({ bypassCSP: true, viewport: { width, height: 900 } });
      const { page } = await openCourse(context);
      for (const pageId of ["course-introduction", "lesson-les_anatomy", "lesson-les_codes", "lesson-les_quiz"]) {
        await page.evaluate((id) => { window.location.hash = id; }, pageId);
        await page.waitForFunction((id) => !document.getElementById(id)?.hidden, pageId);
        if (pageId === "lesson-les_quiz") await page.locator(`${quiz} [data-${DataName.submitQuiz}]`).press("Enter");
        if (pageId === "lesson-les_codes") await page.locator(`[data-${DataName.flip}]`).first().press("Enter");
        all.push(...(await runAxe(page)).map((violation) => ({ ...violation, page: pageId, width })));
        if (width === 390 && pageId === "lesson-les_anatomy") await page.screenshot({ path: ".tmp/render-narrow.png", fullPage: true });
        if (width === 1280 && pageId === "course-introduction") await page.screenshot({ path: ".tmp/render-intro.png" });
        if (width === 1280 && pageId === "lesson-les_codes") await page.screenshot({ path: ".tmp/render-widgets.png", fullPage: true });
      }
      await context.close();
    }
    if (all.length > 0) console.info("axe violations (minor or moderate are reported, not failed):", JSON.stringify(all, null, 1));
    expect(seriousOrCritical(all)).toEqual([]);
  }, 120_000);
});
