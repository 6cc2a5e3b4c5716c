/**
 * `bun run bench page-weight`: what a learner's page carries besides its content, and whether lesson
 * previews fit the result cap. For each feature set, the page's script and styles (minified, as
 * shipped) beside the full-feature page before the player was built (`bench/NOTES.md`; target: the
 * full page ≤ 60% of it); then the largest single-lesson preview answer of a 10-lesson course with
 * every block type, against the default result cap.
 */
import { defaultMcpResultMaxBytes } from "../src/config.ts";
import type { CourseDocument } from "../src/authoring/schemas/course.ts";
import { renderCourseHtml, type RenderableCourse, type RenderableLesson } from "../src/render/index.ts";
import { renderBoundedPreview } from "../src/review/preview.ts";
import type { Row } from "./support.ts";

/** Script and styles of a page with every feature before issue 30 (NOTES.md "Page weight"). */
const fullPageBefore = 73_928;

type Block = NonNullable<RenderableLesson["blocks"]>[number];
const words = "Keep the exits clear and know where the nearest one is.";

function everyBlock(prefix: string): Block[] {
  const id = (suffix: string) => `blk_${prefix}_${suffix}`;
  const choices = [{ text: words, correct: true }, { text: "No", correct: false }];
  return [
    { id: id("text"), type: "text", markdown: `${words}\n\n${words}` },
    { id: id("heading"), type: "heading", text: words, level: 2 },
    { id: id("image"), type: "image", assetId: "ast_image", alt: words, decorative: false },
    { id: id("video"), type: "video", url: "https://example.com/v.mp4", transcript: words },
    { id: id("audio"), type: "audio", url: "https://example.com/a.mp3", transcript: words },
    { id: id("callout"), type: "callout", variant: "tip", markdown: words },
    { id: id("quote"), type: "quote", text: words },
    { id: id("code"), type: "code", language: "plaintext", code: words },
    { id: id("divider"), type: "divider" },
    { id: id("accordion"), type: "accordion", items: [{ title: "One", markdown: words }, { title: "Two", markdown: words }] },
    { id: id("tabs"), type: "tabs", tabs: [{ title: "One", markdown: words }, { title: "Two", markdown: words }] },
    { id: id("cards"), type: "flashcards", cards: [{ front: "Front", back: words }] },
    { id: id("single"), type: "single_choice", prompt: words, points: 1, objectiveIds: [], choices },
    { id: id("multiple"), type: "multiple_choice", prompt: words, points: 1, objectiveIds: [], choices },
    { id: id("tf"), type: "true_false", prompt: words, points: 1, objectiveIds: [], answer: true },
    { id: id("blank"), type: "fill_in_blank", prompt: words, points: 1, objectiveIds: [], text: "Exits stay {{1}}.", blanks: [{ answers: ["clear"], caseSensitive: false }] },
    { id: id("matching"), type: "matching", prompt: words, points: 1, objectiveIds: [], pairs: [{ left: "A", right: "1" }, { left: "B", right: "2" }] },
    { id: id("ordering"), type: "ordering", prompt: words, points: 1, objectiveIds: [], items: [{ text: "First" }, { text: "Second" }] },
    { id: id("sorting"), type: "sorting", prompt: words, points: 1, objectiveIds: [], categories: [{ title: "Exit" }, { title: "Not an exit" }], items: [{ text: "Door", category: "Exit" }, { text: "Cupboard", category: "Not an exit" }] },
    {
      id: id("scenario"), type: "scenario", title: words, markdown: words, startSceneId: "a", points: 1, objectiveIds: [],
      scenes: [{ id: "a", markdown: words, choices: [{ text: "Go", next: "b" }, { text: "Stay", next: "c" }] }, { id: "b", markdown: words, ending: { outcome: "success" } }, { id: "c", markdown: words, ending: { outcome: "failure" } }],
    },
    { id: id("graphic"), type: "labeled_graphic", image: { assetId: "ast_image" }, alt: words, markers: [{ x: 10, y: 10, title: "A", markdown: words }] },
    { id: id("process"), type: "process", steps: [{ title: "One", markdown: words }, { title: "Two", markdown: words }] },
    { id: id("timeline"), type: "timeline", events: [{ date: "2020", title: "One", markdown: words }, { date: "2021", title: "Two", markdown: words }] },
    { id: id("attachment"), type: "attachment", assetId: "ast_image", title: "Plan" },
    { id: id("continue"), type: "continue", requireCompletion: false },
  ] as unknown as Block[];
}

function course(lessons: RenderableLesson[]): RenderableCourse {
  return { id: "crs_bench", title: "Exits", language: "en", objectives: [], modules: [{ id: "mod_1", title: "Exits", summary: "", objectiveIds: [], lessons }] } as unknown as RenderableCourse;
}

/** Bytes of the page's running script and styles (its JSON configuration and content left out). */
function scriptAndStyles(page: string): number {
  const parts = [...page.matchAll(/<script nonce[^>]*>([\s\S]*?)<\/script>|<style[^>]*>([\s\S]*?)<\/style>/g)];
  return parts.reduce((sum, match) => sum + new TextEncoder().encode(match[1] ?? match[2] ?? "").length, 0);
}

export async function runPageWeightBench(): Promise<Row[]> {
  // The render embeds the built bundles when it is imported, before this runs, so `bun run bench`
  // builds the player first (package.json); building here would measure the previous build.
  const rows: Row[] = [];
  const all = everyBlock("x");
  const sets: [string, Block[]][] = [
    ["course-base", all.filter((block) => ["text", "heading", "tabs", "accordion"].includes(block.type))],
    ["course-quiz", all.filter((block) => ["text", "single_choice", "ordering"].includes(block.type))],
    ["course-interactions", all.filter((block) => ["text", "process", "timeline"].includes(block.type))],
    ["course-full", all],
  ];
  // "Every feature" is honest: beside the content lesson with every block type, a quiz lesson with every
  // quiz setting (a pool drawn one question at a time, immediate feedback, last attempt, final assessment)
  // and a banner, so nothing the player or the styles can be asked for is left out.
  const questions = all.filter((block) => ["single_choice", "multiple_choice", "true_false", "fill_in_blank", "matching", "ordering", "sorting"].includes(block.type));
  const fullQuiz = {
    id: "les_2", title: "Two", kind: "quiz", passingScore: 80, maxAttempts: 3, drawCount: 5, drawByObjective: false, shuffleChoices: true, feedbackMode: "immediate",
    finalAssessment: true, oneQuestionAtATime: true, attemptScoring: "last", banner: { assetId: "ast_image", alt: words, decorative: false }, blocks: questions,
  } as RenderableLesson;
  for (const [name, blocks] of sets) {
    const lessons: RenderableLesson[] = [{ id: "les_1", title: "One", kind: "content", blocks }];
    if (name === "course-full") lessons.push(fullQuiz);
    const page = renderCourseHtml(course(lessons), { mode: "package", assetUrl: () => "assets/x.png" });
    const bytes = scriptAndStyles(page);
    const ratio = bytes / fullPageBefore;
    rows.push({ scenario: `page weight: ${name} (script + styles)`, measured: `${(bytes / 1024).toFixed(1)} KB`, baseline: `${(fullPageBefore / 1024).toFixed(1)} KB (full page before)`, ratio, target: name === "course-full" ? "≤ 0.6" : "-", met: name !== "course-full" || ratio <= 0.6 });
  }
  const lessons: RenderableLesson[] = Array.from({ length: 10 }, (_, index) => ({ id: `les_${index}`, title: `Lesson ${index + 1}`, kind: index % 3 === 2 ? "quiz" : "content", passingScore: 80, maxAttempts: null, blocks: everyBlock(`l${index}`) }) as RenderableLesson);
  let largest = 0;
  for (const lesson of lessons) {
    const loaded = { course: course([lesson]) as unknown as CourseDocument, variant: "draft" as const, dataUrls: new Map<string, string>(), omittedAssetIds: [], dataUrlBytes: new Map() };
    const answerSize = (html: string) => new TextEncoder().encode(JSON.stringify({ contents: [{ uri: "course://crs_bench/lessons/les_0/preview", mimeType: "text/html", text: html, _meta: { playerUri: "ui://course-authoring/player/course-full.js" } }] })).length;
    const preview = await renderBoundedPreview(loaded, Number.POSITIVE_INFINITY, answerSize);
    const fitted = await renderBoundedPreview(loaded, defaultMcpResultMaxBytes, answerSize);
    largest = Math.max(largest, fitted ? answerSize(fitted.html) : Number.POSITIVE_INFINITY);
    if (!preview) throw new Error(`lesson ${lesson.id} did not render`);
  }
  rows.push({ scenario: "largest lesson preview (10 lessons, every block type)", measured: `${(largest / 1024).toFixed(1)} KB`, baseline: `${(defaultMcpResultMaxBytes / 1024).toFixed(0)} KB (result cap)`, ratio: largest / defaultMcpResultMaxBytes, target: "≤ 1", met: largest <= defaultMcpResultMaxBytes });
  return rows;
}
