/**
 * A Markdown outline as a course, for authors who start from a document. The one top-level heading is
 * the course title and the text under it the description; the next heading level down makes modules
 * (text under a module heading is its summary) and the level below that lessons, whose paragraphs,
 * lists, images, code, quotes and deeper headings become blocks. With a single level under the title,
 * its headings are lessons of one module. A heading "Learning objectives" (or "Objectives") introduces a
 * list of course objectives; under a module, they are also that module's objectives. A task list after
 * a question paragraph (`- [x] right`, `- [ ] wrong`) is a choice question, and a lesson with questions
 * whose title says quiz, test, exam, assessment or knowledge check is a quiz lesson.
 */
import { CourseAuthoringError } from "../../course-authoring-error.ts";
import { markdownParts, type MarkdownPart } from "./markdown-blocks.ts";
import type { Notice } from "../../notice.ts";
import type { ImportPlan } from "../draft-course.ts";

interface LessonDraft {
  title: string;
  line: number;
  blocks: { block: Record<string, unknown>; paragraph: boolean; source: string; line: number }[];
}

interface ModuleDraft {
  title: string;
  line: number;
  summary: string[];
  objectiveKeys: string[];
  lessons: LessonDraft[];
}

/**
 * A heading that introduces a list of objectives, in English, Spanish, French and German: "Learning
 * objectives", "By the end of this course, you will…", "Objetivos de aprendizaje", "Al finalizar este
 * curso…", "Objectifs pédagogiques", "À la fin de ce module…", "Lernziele", "Am Ende dieses Kurses…".
 */
export const objectivesHeading =
  /^(?:(?:learning|course|module|lesson)\s+)?(?:objectives|outcomes|goals)[:.]?$|^what\s+you(?:'ll|\s+will)\s+learn\b|^by\s+the\s+end\s+of\s+this\b|^objetivos(?:\s+de(?:l)?\s+(?:aprendizaje|curso|m[oó]dulo))?[:.]?$|^al\s+(?:final|finalizar|terminar)\s+(?:de\s+)?(?:este|esta|el|la)\b|^objectifs(?:\s+(?:p[ée]dagogiques|d['’]apprentissage|du\s+(?:cours|module)))?[:.]?$|^[àa]\s+la\s+fin\s+de\s+(?:ce|cette)\b|^(?:lernziele|ziele)(?:\s+(?:des|dieses)\s+(?:kurses|moduls))?[:.]?$|^am\s+ende\s+(?:dieses|des)\b/i;
const quizTitle = /\b(quiz|quizzes|test|exam|assessment|knowledge check)\b/i;
/** IDs our own outline resource prints after titles, e.g. "Basics (`mod_…`)". */
// The lookbehind starts the match only at the first of a run of spaces, which a bare \s* rescans from each of them.
export const idSuffix = /(?<!\s)\s*\(`[a-z]{3}_[0-9a-z]+`\)\s*$/;
const outlineNumbering = /^(module|lesson)\s+[\d.]+:\s*/i;

function noOutline(message: string): CourseAuthoringError {
  return new CourseAuthoringError("invalid_arguments", `content: ${message}; nothing was imported.`, { field: "content" });
}

function headingTitle(text: string): string {
  return text.replace(idSuffix, "").replace(outlineNumbering, "").trim() || text.trim();
}

function questionFrom(prompt: string, choices: readonly { text: string; correct: boolean }[]): Record<string, unknown> | null {
  const correct = choices.filter((choice) => choice.correct).length;
  if (correct === 0) return null;
  return { type: correct === 1 ? "single_choice" : "multiple_choice", prompt, choices };
}

function lessonOutline(lesson: LessonDraft): Record<string, unknown> {
  const blocks = lesson.blocks.map((entry) => entry.block);
  const questions = blocks.filter((block) => block.type === "single_choice" || block.type === "multiple_choice").length;
  return { title: lesson.title, kind: questions > 0 && quizTitle.test(lesson.title) ? "quiz" : "content", blocks };
}

/** The plan for a Markdown outline; `title` is used when the document has no single top heading, or replaces it. */
export async function planFromMarkdown(text: string, title?: string): Promise<ImportPlan> {
  return planFromParts(await markdownParts(text), { title });
}

export interface OutlineOptions {
  /** Replaces the document's own title. */
  readonly title?: string | undefined;
  /** The title when the document has no single top heading. */
  readonly fallbackTitle?: string | undefined;
  /** How a part's position reads in a message: "line 12", "paragraph 12", "slide 12". */
  readonly place?: (line: number) => string;
}

/** Headings and blocks in document order as modules, lessons and blocks (Markdown, Word and PowerPoint share this). */
export function planFromParts(parts: readonly MarkdownPart[], options: OutlineOptions): ImportPlan & { readonly objectivesFrom: readonly string[] } {
  const place = options.place ?? ((line: number) => `line ${line}`);
  const title = options.title;
  const headings = parts.filter((part): part is Extract<MarkdownPart, { kind: "heading" }> => part.kind === "heading");
  const first = headings[0];
  const titleHeading = first && headings.filter((heading) => heading.level <= first.level).length === 1 ? first : undefined;
  const courseTitle = title ?? (titleHeading ? headingTitle(titleHeading.text) : options.fallbackTitle);
  if (!courseTitle) {
    throw noOutline("the Markdown has no single top-level heading to use as the course title; start it with one \"# Course title\" line, or pass title");
  }
  const levels = [...new Set(headings.filter((heading) => heading !== titleHeading).map((heading) => heading.level))].sort((a, b) => a - b);
  if (levels.length === 0) {
    throw noOutline("the Markdown has no headings below the title, so there are no modules or lessons to create; use ## for modules and ### for lessons");
  }
  const [moduleLevel, lessonLevel] = levels.length === 1 ? [undefined, levels[0] as number] : [levels[0] as number, levels[1] as number];

  const description: string[] = [];
  const objectives: { key: string; text: string }[] = [];
  const modules: ModuleDraft[] = [];
  const notices: Notice[] = [];
  let module: ModuleDraft | undefined;
  let lesson: LessonDraft | undefined;
  let objectivesFor: "course" | ModuleDraft | undefined;
  const objectivesHeadings: { text: string; line: number; before: number }[] = [];

  const currentModule = (line: number): ModuleDraft => {
    if (!module) modules.push((module = { title: courseTitle, line, summary: [], objectiveKeys: [], lessons: [] }));
    return module;
  };
  const addIntro = (source: string) => (module ? module.summary : description).push(source);

  for (const part of parts) {
    if (part === titleHeading) continue;
    if (part.notice) notices.push(part.notice);
    if (part.kind === "heading") {
      const structural = part.level === moduleLevel || part.level === lessonLevel;
      objectivesFor = undefined;
      if (structural && objectivesHeading.test(part.text.trim())) {
        lesson = undefined;
        if (part.level === moduleLevel) module = undefined;
        objectivesFor = part.level === lessonLevel && moduleLevel !== undefined && module ? module : "course";
        objectivesHeadings.push({ text: part.text.trim(), line: part.line, before: objectives.length });
        continue;
      }
      if (part.level === moduleLevel) {
        modules.push((module = { title: headingTitle(part.text), line: part.line, summary: [], objectiveKeys: [], lessons: [] }));
        lesson = undefined;
      } else if (part.level === lessonLevel) {
        currentModule(part.line).lessons.push((lesson = { title: headingTitle(part.text), line: part.line, blocks: [] }));
      } else if (lesson) {
        const level = Math.min(4, Math.max(2, part.level - lessonLevel + 1));
        lesson.blocks.push({ block: { type: "heading", text: part.text, level }, paragraph: false, source: part.source, line: part.line });
      } else {
        addIntro(part.source);
      }
      continue;
    }
    if (objectivesFor && part.kind === "block" && part.listItems) {
      for (const item of part.listItems) {
        const key = `objective-${objectives.length + 1}`;
        objectives.push({ key, text: item });
        if (objectivesFor !== "course") objectivesFor.objectiveKeys.push(key);
      }
      continue;
    }
    if (!lesson) {
      addIntro(part.source);
      continue;
    }
    if (part.kind === "choices") {
      const previous = lesson.blocks.at(-1);
      const question = previous?.paragraph ? questionFrom(previous.source, part.choices) : null;
      if (question) lesson.blocks.splice(-1, 1, { block: question, paragraph: false, source: part.source, line: previous?.line ?? part.line });
      else {
        lesson.blocks.push({ block: { type: "text", markdown: part.source }, paragraph: false, source: part.source, line: part.line });
        const why = previous?.paragraph ? "none of its boxes is checked (- [x] marks a right answer)" : "no paragraph right above it asks the question";
        notices.push({ level: "notice", text: `${place(part.line)}: a task list stays a list, not a question: ${why}.` });
      }
      continue;
    }
    lesson.blocks.push({ block: part.block, paragraph: part.paragraph, source: part.source, line: part.line });
  }

  const labels = new Map<string, string>();
  const lessonLines = new Map<string, number>();
  modules.forEach((draft, moduleIndex) => {
    labels.set(`modules[${moduleIndex}]`, `module "${draft.title}" at ${place(draft.line)}`);
    draft.lessons.forEach((lessonDraft, lessonIndex) => {
      labels.set(`modules[${moduleIndex}].lessons[${lessonIndex}]`, `lesson "${lessonDraft.title}" at ${place(lessonDraft.line)}`);
      lessonLines.set(`modules[${moduleIndex}].lessons[${lessonIndex}]`, lessonDraft.line);
      lessonDraft.blocks.forEach((entry, blockIndex) =>
        labels.set(`modules[${moduleIndex}].lessons[${lessonIndex}].blocks[${blockIndex}]`, `${place(entry.line)}, in lesson "${lessonDraft.title}"`),
      );
    });
  });
  const outline = {
    title: courseTitle,
    description: description.join("\n\n"),
    objectives,
    modules: modules.map((draft) => ({
      title: draft.title,
      summary: draft.summary.join("\n\n"),
      objectiveIds: draft.objectiveKeys,
      lessons: draft.lessons.map(lessonOutline),
    })),
  };
  const objectivesFrom: string[] = [];
  objectivesHeadings.forEach((heading, index) => {
    const count = (objectivesHeadings[index + 1]?.before ?? objectives.length) - heading.before;
    objectivesFrom.push(
      count > 0
        ? `${place(heading.line)}: "${heading.text.slice(0, 80)}" and its list became ${count} of the course's objectives, not a lesson (imported into a course, they are added after its own; one with the same text is not repeated)`
        : `${place(heading.line)}: "${heading.text.slice(0, 80)}" reads as an objectives heading but no list follows it; the text under it went to the course description or the module summary`,
    );
  });
  for (const text of objectivesFrom) notices.push({ level: "notice", text: `${text}.` });
  return { outline, assets: [], labels, notices, lessonLines, objectivesFrom };
}
