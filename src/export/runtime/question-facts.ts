/**
 * What an LMS report needs of each question besides the answers, computed at export: its interaction
 * type, description, objectives, weighting and labels (never the right answer, which the page holds
 * sealed). The player's `createAnswerTools` turns these facts and each answer into SCORM and xAPI values.
 */
import type { QuestionFacts } from "../../page-contract/config.ts";
import { shuffledIndices } from "../../render/shuffle.ts";
import type { RenderableCourse } from "../../render/types.ts";
import { uiText, withInterfaceLanguage } from "../../render/ui-text.ts";

function plainText(markdown: string): string {
  const text = markdown
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[*_`#>]+/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return text.length > 250 ? `${text.slice(0, 249)}…` : text;
}

type Loose = Record<string, unknown>;
const texts = (value: unknown, key: string): string[] => (Array.isArray(value) ? value.map((entry) => String((entry as Loose)[key] ?? "")) : []);

function factsOf(block: Loose): QuestionFacts | null {
  const base = {
    description: plainText(typeof block.prompt === "string" ? block.prompt : ""),
    weighting: typeof block.points === "number" ? block.points : 1,
    objectiveIds: Array.isArray(block.objectiveIds) ? block.objectiveIds.filter((id): id is string => typeof id === "string") : [],
    targets: [] as string[],
    caseMatters: false,
  };
  const choices = Array.isArray(block.choices) ? (block.choices as Loose[]) : [];
  switch (block.type) {
    case "single_choice":
    case "multiple_choice":
      return { ...base, kind: "choice", labels: texts(choices, "text") };
    case "true_false":
      return { ...base, kind: "true-false", labels: [uiText.trueLabel, uiText.falseLabel] };
    case "fill_in_blank": {
      const blanks = Array.isArray(block.blanks) ? (block.blanks as Loose[]) : [];
      return { ...base, kind: "fill-in", labels: [], caseMatters: blanks.some((blank) => blank.caseSensitive === true) };
    }
    case "matching": {
      const pairs = Array.isArray(block.pairs) ? (block.pairs as Loose[]) : [];
      const rights = [...new Set(texts(pairs, "right"))];
      return { ...base, kind: "matching", labels: texts(pairs, "left"), targets: rights };
    }
    case "ordering": {
      // Items are named by the place the page first shows them at, as the page reports them.
      const items = texts(block.items, "text");
      const shown = shuffledIndices(items.length, String(block.id ?? ""));
      return { ...base, kind: "sequencing", labels: shown.map((position) => items[position] ?? "") };
    }
    case "sorting": {
      const items = Array.isArray(block.items) ? (block.items as Loose[]) : [];
      const titles = texts(block.categories, "title");
      return { ...base, kind: "matching", labels: texts(items, "text"), targets: titles };
    }
    case "scenario":
      return { ...base, description: plainText(typeof block.title === "string" ? block.title : ""), kind: "performance", labels: texts(block.scenes, "id") };
    default:
      return null;
  }
}

/** Facts for every question block of the course, by block id. */
export function questionFacts(course: RenderableCourse): Record<string, QuestionFacts> {
  return withInterfaceLanguage(course.language ?? "en", () => factsOfCourse(course));
}

function factsOfCourse(course: RenderableCourse): Record<string, QuestionFacts> {
  const facts: Record<string, QuestionFacts> = {};
  for (const module of course.modules) {
    for (const lesson of module.lessons) {
      for (const block of lesson.blocks ?? []) {
        const found = factsOf(block as unknown as Loose);
        if (found) facts[block.id] = found;
      }
    }
  }
  return facts;
}
