/**
 * A course as a Markdown outline for people and models to skim: objectives, then modules and
 * lessons with their IDs, and one line per block. It is a summary for reading, not an export: long
 * texts are cut to their first words.
 */
import type { Block, BlockContent } from "./schemas/blocks.ts";
import type { CourseDocument, LessonDocument } from "./schemas/course.ts";
import { unhandled } from "../exhaustive.ts";

/**
 * `variant` names what the document is (a preview of the draft or of the published snapshot), so the
 * course's status is never read as the variant shown.
 */
export function courseOutlineMarkdown(course: CourseDocument, variant?: "draft" | "published"): string {
  const lines: string[] = [`# ${course.title}`, ""];
  const shown = variant ? [`${variant}, version ${course.version}`, `course status: ${course.status}`] : [course.status, `version ${course.version}`];
  const length = `~${course.estimatedMinutes} min in all${course.targetMinutes === null ? "" : ` (target ${course.targetMinutes} min)`}`;
  const facts = [...shown, length, course.language, course.level, course.audience && `for ${course.audience}`].filter(Boolean);
  lines.push(`_${facts.join(" · ")}_ — \`${course.id}\``, "");
  if (course.description) lines.push(course.description, "");
  if (course.tags.length) lines.push(`Tags: ${course.tags.join(", ")}`, "");
  if (course.objectives.length) {
    lines.push("## Learning objectives", "");
    course.objectives.forEach((objective, index) => lines.push(`${index + 1}. ${objective.text} (\`${objective.id}\`)`));
    lines.push("");
  }
  const objectiveNumber = new Map(course.objectives.map((objective, index) => [objective.id, index + 1]));
  course.modules.forEach((module, moduleIndex) => {
    lines.push(`## Module ${moduleIndex + 1}: ${module.title} (\`${module.id}\`)`, "");
    if (module.summary) lines.push(module.summary, "");
    if (module.objectiveIds.length) lines.push(`Objectives: ${module.objectiveIds.map((id) => `#${objectiveNumber.get(id) ?? id}`).join(", ")}`, "");
    module.lessons.forEach((lesson, lessonIndex) => {
      lines.push(`### Lesson ${moduleIndex + 1}.${lessonIndex + 1}: ${lesson.title} (\`${lesson.id}\`)`, "", lessonFacts(lesson), "");
      for (const block of lesson.blocks ?? []) lines.push(`- ${blockLine(block as Block)} (\`${block.id}\`)`);
      if (lesson.blocks?.length) lines.push("");
    });
  });
  if (course.modules.length === 0) lines.push("_No modules yet._", "");
  return `${lines.join("\n").trimEnd()}\n`;
}

/**
 * A document read but not imported (import_course with dryRun): its title, objectives, modules,
 * lessons and one line per block, as the import would create them, with no IDs since nothing exists yet.
 */
export function draftOutlineMarkdown(course: { title: string; description?: string | undefined; objectives: readonly { text: string }[]; modules: readonly DraftModule[] }): string {
  const lines: string[] = [`# ${course.title}`, ""];
  if (course.description) lines.push(course.description, "");
  if (course.objectives.length) {
    lines.push("## Learning objectives", "");
    course.objectives.forEach((objective, index) => lines.push(`${index + 1}. ${objective.text}`));
    lines.push("");
  }
  course.modules.forEach((module, moduleIndex) => {
    lines.push(`## Module ${moduleIndex + 1}: ${module.title}`, "");
    if (module.summary) lines.push(module.summary, "");
    module.lessons.forEach((lesson, lessonIndex) => {
      lines.push(`### Lesson ${moduleIndex + 1}.${lessonIndex + 1}: ${lesson.title}${lesson.kind === "quiz" ? " (quiz)" : ""}`, "");
      for (const block of lesson.blocks ?? []) lines.push(`- ${blockLine(block)}`);
      if (lesson.blocks?.length) lines.push("");
    });
  });
  return `${lines.join("\n").trimEnd()}\n`;
}

interface DraftModule {
  readonly title: string;
  readonly summary?: string | undefined;
  readonly lessons: readonly { readonly title: string; readonly kind?: string | undefined; readonly blocks?: readonly BlockContent[] | undefined }[];
}

function lessonFacts(lesson: LessonDocument): string {
  const quiz = lesson.kind === "quiz" ? `quiz, pass at ${lesson.passingScore}%${lesson.maxAttempts ? `, ${lesson.maxAttempts} attempt(s)` : ""}` : "content";
  const minutes = lesson.estimatedMinutesIsSet ? `~${lesson.estimatedMinutes} min set, ~${lesson.derivedMinutes} min derived` : `~${lesson.estimatedMinutes} min`;
  return `_${quiz} · ${minutes} · ${lesson.blockCount} block(s)_`;
}

export function blockLine(block: BlockContent): string {
  switch (block.type) {
    case "text":
      return `text: ${excerpt(block.markdown)}`;
    case "heading":
      return `heading ${block.level}: ${block.text}`;
    case "image":
      return `image: ${block.decorative ? "(decorative)" : excerpt(block.alt ?? "")}`;
    case "video":
    case "audio":
      return `${block.type}: ${block.title ?? block.url ?? block.assetId}${block.captions ? " · captions" : ""}${block.transcript ? " · transcript" : ""}`;
    case "callout":
      return `callout (${block.variant}): ${excerpt(block.title ?? block.markdown)}`;
    case "quote":
      return `quote: ${excerpt(block.text)}`;
    case "code":
      return `code (${block.language})`;
    case "divider":
      return "divider";
    case "accordion":
      return `accordion: ${block.items.map((item) => item.title).join(" / ")}`;
    case "tabs":
      return `tabs: ${block.tabs.map((tab) => tab.title).join(" / ")}`;
    case "flashcards":
      return `flashcards: ${block.cards.length} card(s)`;
    case "scenario":
      return `scenario (${block.points} pt): ${block.title} · ${block.scenes.length} scenes`;
    case "labeled_graphic":
      return `labeled graphic: ${excerpt(block.alt)} · ${block.markers.length} marker(s)`;
    case "process":
      return `process: ${block.steps.map((step) => step.title).join(" / ")}`;
    case "timeline":
      return `timeline: ${block.events.length} event(s)`;
    case "attachment":
      return `attachment: ${block.title} (${block.assetId})`;
    case "continue":
      return `continue: ${block.label ?? "(the course language's label)"}${block.requireCompletion ? " (after completion)" : ""}`;
    case "single_choice":
    case "multiple_choice":
    case "true_false":
    case "fill_in_blank":
    case "matching":
    case "ordering":
    case "sorting":
    case "numeric":
    case "hotspot":
    case "drag_onto_image":
    case "inline_choice":
      return `${block.type.replaceAll("_", " ")} question (${block.points} pt): ${excerpt(block.prompt)}`;
    case "open_response":
      return `open response (not scored): ${excerpt(block.prompt)}`;
    case "likert":
      return `likert scale (not scored, ${block.statements.length} statement(s)): ${excerpt(block.prompt)}`;
    default:
      return unhandled(block, "block type");
  }
}

function excerpt(text: string, words = 12): string {
  const all = text.replace(/\s+/g, " ").trim().split(" ");
  return all.length > words ? `${all.slice(0, words).join(" ")}…` : all.join(" ");
}
