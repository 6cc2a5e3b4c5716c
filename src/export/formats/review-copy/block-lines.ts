/**
 * What a reviewer reads for each block in a Word review copy, as plain styled lines: the content as a
 * learner sees it, and everything a learner does not see at first: right answers, per-answer feedback,
 * explanations, points, and every path through a scenario written out from its start to each ending.
 */
import { linksAsWords, picturesAsWords, withoutSingleEmphasis } from "./markdown-scan.ts";

export interface Run {
  readonly text: string;
  readonly bold?: boolean;
  readonly italic?: boolean;
}

export interface Line {
  /** A paragraph style of the review copy (styles.ts); Normal when absent. */
  readonly style?: "Quote" | "Code" | "ListBullet" | "BlockLabel" | "Answer";
  readonly runs: readonly Run[];
}

type Block = Readonly<Record<string, unknown>>;

const text = (value: unknown): string => (typeof value === "string" ? value : value === undefined || value === null ? "" : String(value));
const plain = (style: Line["style"] | undefined, ...runs: Run[]): Line => ({ ...(style ? { style } : {}), runs });
const label = (words: string): Run => ({ text: words, bold: true });
const items = (value: unknown): Block[] => (Array.isArray(value) ? (value.filter((item) => typeof item === "object" && item !== null) as Block[]) : []);

/** Markdown as lines a reader can follow: list items as bullets, emphasis and link markup dropped (link targets kept). */
export function markdownLines(markdown: string): Line[] {
  const lines: Line[] = [];
  // Pictures, links and single emphasis by linear scanners (markdown-scan.ts), not backtracking expressions.
  const clean = (raw: string) =>
    withoutSingleEmphasis(linksAsWords(picturesAsWords(raw)).replace(/(\*\*|__)(.+?)\1/g, "$2"))
      .replace(/^#{1,6}\s+/, "")
      .replace(/\\([\\`*_[\]<>#|])/g, "$1")
      .trim();
  for (const paragraph of markdown.split(/\n\s*\n/)) {
    let words: string[] = [];
    const flush = () => {
      if (words.length > 0) lines.push(plain(undefined, { text: words.join(" ") }));
      words = [];
    };
    for (const raw of paragraph.split("\n")) {
      // (?!\s) keeps the whole space run in \s+, so a failing line is not re-split at every space.
      const bullet = /^\s*(?:[-+*]|\d+[.)])\s+(?!\s)(.*)$/.exec(raw);
      if (bullet) {
        flush();
        lines.push(plain("ListBullet", { text: clean(bullet[1] ?? "") }));
      } else if (clean(raw)) words.push(clean(raw));
    }
    flush();
  }
  return lines;
}

function feedbackLine(feedback: unknown): Line[] {
  return text(feedback).trim() ? [plain("Answer", label("Feedback: "), { text: text(feedback).trim() })] : [];
}

function labelled(words: string, value: unknown): Line[] {
  return text(value).trim() ? [plain("Answer", label(words), { text: text(value).trim() })] : [];
}

function questionFooter(block: Block): Line[] {
  const lines: Line[] = [];
  if (text(block.explanation).trim()) lines.push(plain("Answer", label("Explanation: "), { text: text(block.explanation).trim() }));
  const objectives = Array.isArray(block.objectiveIds) ? block.objectiveIds.map(text).filter(Boolean) : [];
  if (objectives.length > 0) lines.push(plain("Answer", label("Objectives: "), { text: objectives.join(", ") }));
  return lines;
}

function choices(block: Block): Line[] {
  const lines = markdownLines(text(block.prompt));
  for (const choice of items(block.choices)) {
    const mark = choice.correct === true ? "✔ right: " : "✘ wrong: ";
    lines.push(plain("Answer", label(mark), { text: text(choice.text) }, ...(choice.fixed === true ? [{ text: " (keeps its place)", italic: true }] : [])));
    lines.push(...feedbackLine(choice.feedback));
  }
  return lines;
}

/** Every path from the start scene to an ending (or back to a scene already on the path), at most 50. */
function scenarioPaths(block: Block): string[] {
  const scenes = new Map(items(block.scenes).map((scene) => [text(scene.id), scene]));
  const paths: string[] = [];
  const walk = (sceneId: string, trail: string[], seen: Set<string>) => {
    if (paths.length >= 50) return;
    const scene = scenes.get(sceneId);
    if (!scene) return;
    if (scene.ending && typeof scene.ending === "object") {
      paths.push(`${[...trail, sceneId].join(" → ")} → ending (${text((scene.ending as Block).outcome)})`);
      return;
    }
    for (const choice of items(scene.choices)) {
      const next = text(choice.next);
      const step = [...trail, `${sceneId} [“${text(choice.text)}”]`];
      if (seen.has(next)) paths.push(`${step.join(" → ")} → back to ${next}`);
      else walk(next, step, new Set([...seen, next]));
    }
  };
  walk(text(block.startSceneId), [], new Set([text(block.startSceneId)]));
  return paths;
}

function scenario(block: Block): Line[] {
  const lines = [plain(undefined, label(text(block.title)))];
  lines.push(...markdownLines(text(block.markdown)));
  for (const scene of items(block.scenes)) {
    lines.push(plain("BlockLabel", label(`Scene ${text(scene.id)}${text(scene.id) === text(block.startSceneId) ? " (start)" : ""}`)));
    lines.push(...markdownLines(text(scene.markdown)));
    for (const choice of items(scene.choices)) {
      lines.push(plain("Answer", label("Choice: "), { text: `“${text(choice.text)}” → scene ${text(choice.next)}` }));
      lines.push(...feedbackLine(choice.feedback));
    }
    if (scene.ending && typeof scene.ending === "object") lines.push(plain("Answer", label("Ending: "), { text: text((scene.ending as Block).outcome) }));
  }
  lines.push(plain("BlockLabel", label("Paths through the scenario")));
  for (const path of scenarioPaths(block)) lines.push(plain("ListBullet", { text: path }));
  return lines;
}

/** Any other block: its fields as "name: value" lines, nested lists indented by their path. */
function fieldLines(value: unknown, path: string, lines: Line[]): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => fieldLines(item, `${path} ${index + 1}`, lines));
    return;
  }
  if (typeof value === "object" && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      if (key === "type" || key === "id") continue;
      fieldLines(child, path ? `${path} › ${key}` : key, lines);
    }
    return;
  }
  if (value === undefined || value === null || value === "") return;
  lines.push(plain("Answer", label(`${path}: `), { text: text(value) }));
}

export function blockLines(block: Block): Line[] {
  switch (block.type) {
    case "text":
      return markdownLines(text(block.markdown));
    case "heading":
      return [plain(undefined, label(text(block.text)))];
    case "image":
      return [plain(undefined, { text: "Picture. ", italic: true }, { text: block.decorative === true ? "Decorative (no alt text)." : `Alt text: ${text(block.alt)}` }, ...(block.caption ? [{ text: ` Caption: ${text(block.caption)}` }] : []))];
    case "quote":
      return [...markdownLines(text(block.text)).map((line) => ({ ...line, style: "Quote" as const })), ...(block.attribution ? [plain("Quote", { text: `— ${text(block.attribution)}` })] : [])];
    case "code":
      return text(block.code).split("\n").map((codeLine) => plain("Code", { text: codeLine }));
    case "callout":
      return [plain(undefined, label(`${text(block.variant) || "info"}${block.title ? `: ${text(block.title)}` : ""}`)), ...markdownLines(text(block.markdown))];
    case "divider":
      return [plain(undefined, { text: "———", italic: true })];
    case "single_choice":
    case "multiple_choice":
      return [...choices(block), ...questionFooter(block)];
    case "true_false":
      return [...markdownLines(text(block.prompt)), plain("Answer", label("Answer: "), { text: block.answer === true ? "True" : "False" }), ...labelled("Feedback on True: ", block.trueFeedback), ...labelled("Feedback on False: ", block.falseFeedback), ...questionFooter(block)];
    case "fill_in_blank":
      return [
        ...markdownLines(text(block.prompt)),
        ...markdownLines(text(block.text)),
        ...items(block.blanks).map((blank, index) =>
          plain("Answer", label(`Blank ${index + 1}: `), { text: (Array.isArray(blank.answers) ? blank.answers.map(text) : []).join(" | ") + (blank.caseSensitive === true ? " (case sensitive)" : "") }),
        ),
        ...questionFooter(block),
      ];
    case "matching":
      return [...markdownLines(text(block.prompt)), ...items(block.pairs).flatMap((pair) => [plain("Answer", { text: `${text(pair.left)} → ${text(pair.right)}` }), ...feedbackLine(pair.feedback)]), ...questionFooter(block)];
    case "ordering":
      return [...markdownLines(text(block.prompt)), ...items(block.items).flatMap((item, index) => [plain("Answer", label(`${index + 1}. `), { text: text(item.text) }), ...feedbackLine(item.feedback)]), ...questionFooter(block)];
    case "scenario":
      return [...scenario(block), ...questionFooter(block)];
    default: {
      const lines: Line[] = [];
      fieldLines(block, "", lines);
      return lines;
    }
  }
}

/** "Single choice · 2 points", the label above a block. */
export function blockLabel(block: Block): string {
  const type = text(block.type).replace(/_/g, " ");
  const points = typeof block.points === "number" ? ` · ${block.points} point${block.points === 1 ? "" : "s"}` : "";
  return `${type.charAt(0).toUpperCase()}${type.slice(1)}${points}`;
}
