/**
 * What an LMS report needs of each question besides the answers, computed at export: its interaction
 * type, description, objectives, weighting and labels (never the right answer, which the page holds
 * sealed). The player's `createAnswerTools` turns these facts and each answer into SCORM and xAPI values.
 */
import type { QuestionFacts } from "../../page-contract/config.ts";
import { shuffledIndices } from "../../render/shuffle.ts";
import type { RenderableBlock, RenderableCourse } from "../../render/types.ts";
import { isGradedType, type Block } from "../../authoring/schemas/blocks.ts";
import { isQuestionType, type QuestionType } from "../../authoring/schemas/question-blocks.ts";
import { uiText, withInterfaceLanguage } from "../../render/ui-text.ts";

/**
 * `text` with each `[label](target)` (or `![alt](target)`, as `opener` says) replaced by its label, as
 * `text.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")` does, read by index: the expression reads to the end
 * again from every `[` when no `]` or `)` follows (quadratic on `![](![](…`). Where one fails for want of a
 * `]` or `)`, every later opener fails the same way, so the scan stops or goes on past that `]`.
 */
export function withoutLinkTargets(text: string, opener: "[" | "!["): string {
  let result = "";
  let from = 0;
  for (let start = text.indexOf(opener); start >= 0; ) {
    const labelStart = start + opener.length;
    const close = text.indexOf("]", labelStart);
    if (close < 0) break;
    if (text[close + 1] !== "(") {
      start = text.indexOf(opener, close + 1);
      continue;
    }
    const end = text.indexOf(")", close + 2);
    if (end < 0) break;
    result += text.slice(from, start) + text.slice(labelStart, close);
    from = end + 1;
    start = text.indexOf(opener, from);
  }
  return result + text.slice(from);
}

function plainText(markdown: string): string {
  const text = withoutLinkTargets(withoutLinkTargets(markdown, "!["), "[")
    .replace(/[*_`#>]+/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return text.length > 250 ? `${text.slice(0, 249)}…` : text;
}

/** Every block type a quiz scores (questions and the scenario), each with its facts. */
type GradedBlock = Extract<Block, { type: QuestionType | "scenario" }>;
type FactsOf<T extends GradedBlock["type"]> = (block: Extract<GradedBlock, { type: T }>, base: Omit<QuestionFacts, "kind" | "labels">) => QuestionFacts;

const factsByType: { readonly [T in GradedBlock["type"]]: FactsOf<T> } = {
  single_choice: (block, base) => ({ ...base, kind: "choice", labels: block.choices.map((choice) => choice.text) }),
  multiple_choice: (block, base) => ({ ...base, kind: "choice", labels: block.choices.map((choice) => choice.text) }),
  true_false: (_block, base) => ({ ...base, kind: "true-false", labels: [uiText.trueLabel, uiText.falseLabel] }),
  fill_in_blank: (block, base) => ({ ...base, kind: "fill-in", labels: [], caseMatters: block.blanks.some((blank) => blank.caseSensitive === true) }),
  matching: (block, base) => ({ ...base, kind: "matching", labels: block.pairs.map((pair) => pair.left), targets: [...new Set(block.pairs.map((pair) => pair.right))] }),
  ordering: (block, base) => {
    // Items are named by the place the page first shows them at, as the page reports them.
    const items = block.items.map((item) => item.text);
    return { ...base, kind: "sequencing", labels: shuffledIndices(items.length, block.id).map((position) => items[position] ?? "") };
  },
  sorting: (block, base) => ({ ...base, kind: "matching", labels: block.items.map((item) => item.text), targets: block.categories.map((category) => category.title) }),
  numeric: (_block, base) => ({ ...base, kind: "numeric", labels: [] }),
  hotspot: (block, base) => ({ ...base, kind: "choice", labels: block.regions.map((region) => region.name) }),
  // Labels onto zones and choices in gaps are steps of a performance: `label_1[.]zone_2`, `gap_1[.]choice_3`.
  drag_onto_image: (block, base) => ({ ...base, kind: "performance", labels: block.labels.map((label) => label.text ?? label.image?.alt ?? ""), targets: block.zones.map((zone) => zone.name), steps: ["label", "zone"] }),
  inline_choice: (block, base) => ({ ...base, kind: "performance", labels: block.gaps.map((_gap, index) => `${index + 1}`), steps: ["gap", "choice"] }),
  // Never scored in the course: no weight, whatever points an LMS grader may give.
  open_response: (_block, base) => ({ ...base, kind: "long-fill-in", weighting: 0, labels: [] }),
  // One interaction per statement (the statements are the targets), each on the scale's points.
  likert: (block, base) => ({ ...base, kind: "likert", weighting: 0, labels: block.scale, targets: block.statements.map((statement) => plainText(statement.text)) }),
  scenario: (block, base) => ({ ...base, description: plainText(block.title), kind: "performance", labels: block.scenes.map((scene) => scene.id) }),
};

/** Every question is reported, the unscored ones (open_response, likert) with no weight. */
function isGraded(block: RenderableBlock): block is GradedBlock {
  return isGradedType(block.type) || isQuestionType(block.type);
}

function factsOf<T extends GradedBlock["type"]>(block: Extract<GradedBlock, { type: T }>): QuestionFacts {
  const base = {
    description: plainText("prompt" in block ? block.prompt : ""),
    weighting: "points" in block ? block.points : 0,
    objectiveIds: block.objectiveIds ?? [],
    targets: [],
    caseMatters: false,
  };
  return (factsByType[block.type as T] as FactsOf<T>)(block, base);
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
        if (isGraded(block)) facts[block.id] = factsOf(block);
      }
    }
  }
  return facts;
}
