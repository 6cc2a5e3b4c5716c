/**
 * What a reviewer reads for each block in a Word review copy, as plain styled lines: the content as a
 * learner sees it, and everything a learner does not see at first: right answers, per-answer feedback,
 * explanations, points, and every path through a scenario written out from its start to each ending.
 */
import type { Block, BlockType } from "../../authoring/schemas/blocks.ts";
import { regionBounds, type RegionShape } from "../../authoring/schemas/picture-questions.ts";
import { isUnscoredQuestionType } from "../../authoring/schemas/question-blocks.ts";
import { linksAsWords, picturesAsWords, withoutSingleEmphasis } from "./markdown-scan.ts";

export interface Run {
  readonly text: string;
  readonly bold?: boolean;
  readonly italic?: boolean;
}

/** A picture as the copy shows it: embedded when it is an uploaded PNG, JPEG or GIF within the copy's budget. */
export interface PictureRef {
  readonly assetId?: string | undefined;
  readonly url?: string | undefined;
  readonly alt?: string | undefined;
  /** A labelled graphic's markers, numbered from 1 in this order, placed in percent of the picture. */
  readonly markers?: readonly { readonly x: number; readonly y: number }[];
}

export interface Line {
  /** A paragraph style of the review copy (styles.ts); Normal when absent. */
  readonly style?: "Quote" | "Code" | "ListBullet" | "BlockLabel" | "Answer";
  readonly runs: readonly Run[];
  /** A list item's marker, "2. " for a numbered one; "• " when absent. */
  readonly marker?: string;
  /** The line is this picture (its runs are empty). */
  readonly picture?: PictureRef;
  /** The line is a table: rows of cells of lines, the first row its header. */
  readonly table?: readonly (readonly (readonly Line[])[])[];
}

/** A loosely read part of a block (scenes, choices), read with `text` and `items`. */
type Part = Readonly<Record<string, unknown>>;

const text = (value: unknown): string => (typeof value === "string" ? value : value === undefined || value === null ? "" : String(value));
const plain = (style: Line["style"] | undefined, ...runs: Run[]): Line => ({ ...(style ? { style } : {}), runs });
const label = (words: string): Run => ({ text: words, bold: true });
const items = (value: unknown): Part[] => (Array.isArray(value) ? (value.filter((item) => typeof item === "object" && item !== null) as Part[]) : []);

/** Private-use marks around bold and italic words while Markdown is cleaned; removed from the author's text first. */
const [boldOn, boldOff, italicOn, italicOff] = ["\uE001", "\uE002", "\uE003", "\uE004"];
const emphasisMarks = /[\uE001-\uE004]/g;

/** Cleaned text with emphasis marks as runs: bold and italic kept as the author wrote them. */
function emphasisRuns(text: string): Run[] {
  const runs: Run[] = [];
  let bold = false;
  let italic = false;
  let current = "";
  const flush = () => {
    if (current) runs.push({ text: current, ...(bold ? { bold: true } : {}), ...(italic ? { italic: true } : {}) });
    current = "";
  };
  for (const character of text) {
    if (character === boldOn || character === boldOff || character === italicOn || character === italicOff) {
      flush();
      if (character === boldOn || character === boldOff) bold = character === boldOn;
      else italic = character === italicOn;
    } else current += character;
  }
  flush();
  return runs.length > 0 ? runs : [{ text: "" }];
}

/** Markdown as lines a reader can follow: list items as bullets (numbered ones keep their number), bold and italic kept, link markup dropped (link targets kept). */
export function markdownLines(markdown: string): Line[] {
  const lines: Line[] = [];
  // Pictures, links and single emphasis by linear scanners (markdown-scan.ts), not backtracking expressions.
  const clean = (raw: string) =>
    withoutSingleEmphasis(linksAsWords(picturesAsWords(raw.replace(emphasisMarks, ""))).replace(/(\*\*|__)(.+?)\1/g, `${boldOn}$2${boldOff}`), italicOn, italicOff)
      .replace(/^#{1,6}\s+/, "")
      .replace(/\\([\\`*_[\]<>#|])/g, "$1")
      .trim();
  const visible = (text: string) => text.replace(emphasisMarks, "") !== "";
  const paragraphLine = (texts: readonly string[], style?: Line["style"], marker?: string): Line => {
    const runs = emphasisRuns(texts.join(" "));
    return { ...(style ? { style } : {}), ...(marker ? { marker } : {}), runs };
  };
  for (const paragraph of markdown.split(/\n\s*\n/)) {
    let words: string[] = [];
    const flush = () => {
      if (words.length > 0) lines.push(paragraphLine(words));
      words = [];
    };
    for (const raw of paragraph.split("\n")) {
      // (?!\s) keeps the whole space run in \s+, so a failing line is not re-split at every space.
      const bullet = /^\s*(?:[-+*]|(\d+)[.)])\s+(?!\s)(.*)$/.exec(raw);
      if (bullet) {
        flush();
        lines.push(paragraphLine([clean(bullet[2] ?? "")], "ListBullet", bullet[1] ? `${bullet[1]}. ` : undefined));
      } else if (visible(clean(raw))) words.push(clean(raw));
    }
    flush();
  }
  return lines;
}

/** A loosely read picture (a scene's, a choice's). */
function pictureOf(image: Part): Line[] {
  const source = { assetId: typeof image.assetId === "string" ? image.assetId : undefined, url: typeof image.url === "string" ? image.url : undefined };
  return picture(source, text(image.alt));
}

function feedbackLine(feedback: unknown): Line[] {
  return text(feedback).trim() ? [plain("Answer", label("Feedback: "), { text: text(feedback).trim() })] : [];
}

function labelled(words: string, value: unknown): Line[] {
  return text(value).trim() ? [plain("Answer", label(words), { text: text(value).trim() })] : [];
}

function questionFooter(block: { explanation?: string | undefined; objectiveIds?: readonly string[] | undefined }, context: BlockLineContext): Line[] {
  const lines: Line[] = [];
  if (text(block.explanation).trim()) lines.push(plain("Answer", label("Explanation: "), { text: text(block.explanation).trim() }));
  const objectives = (block.objectiveIds ?? []).map((id) => context.objectiveText?.(id) ?? id).filter(Boolean);
  if (objectives.length > 0) lines.push(plain("Answer", label("Objectives: "), { text: objectives.join("; ") }));
  return lines;
}

function choices(block: Part): Line[] {
  const lines = markdownLines(text(block.prompt));
  for (const choice of items(block.choices)) {
    const mark = choice.correct === true ? "✔ right: " : "✘ wrong: ";
    lines.push(plain("Answer", label(mark), { text: text(choice.text) }, ...(choice.fixed === true ? [{ text: " (keeps its place)", italic: true }] : [])));
    if (choice.image && typeof choice.image === "object") lines.push(...pictureOf(choice.image as Part));
    lines.push(...feedbackLine(choice.feedback));
  }
  return lines;
}

/** Every path from the start scene to an ending (or back to a scene already on the path), at most 50. */
function scenarioPaths(block: Part): string[] {
  const scenes = new Map(items(block.scenes).map((scene) => [text(scene.id), scene]));
  const paths: string[] = [];
  const walk = (sceneId: string, trail: string[], seen: Set<string>) => {
    if (paths.length >= 50) return;
    const scene = scenes.get(sceneId);
    if (!scene) return;
    if (scene.ending && typeof scene.ending === "object") {
      paths.push(`${[...trail, sceneId].join(" → ")} → ending (${text((scene.ending as Part).outcome)})`);
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

function scenario(block: Part): Line[] {
  const lines = [plain(undefined, label(text(block.title)))];
  lines.push(...markdownLines(text(block.markdown)));
  for (const scene of items(block.scenes)) {
    lines.push(plain("BlockLabel", label(`Scene ${text(scene.id)}${text(scene.id) === text(block.startSceneId) ? " (start)" : ""}`)));
    if (scene.image && typeof scene.image === "object") lines.push(...pictureOf(scene.image as Part));
    lines.push(...markdownLines(text(scene.markdown)));
    for (const choice of items(scene.choices)) {
      lines.push(plain("Answer", label("Choice: "), { text: `“${text(choice.text)}” → scene ${text(choice.next)}` }));
      lines.push(...feedbackLine(choice.feedback));
    }
    if (scene.ending && typeof scene.ending === "object") lines.push(plain("Answer", label("Ending: "), { text: text((scene.ending as Part).outcome) }));
  }
  lines.push(plain("BlockLabel", label("Paths through the scenario")));
  for (const path of scenarioPaths(block)) lines.push(plain("ListBullet", { text: path }));
  return lines;
}

/** What a block's lines may need from its course: objectives are read by their text, not their IDs. */
export interface BlockLineContext {
  readonly objectiveText?: (objectiveId: string) => string | undefined;
}

type LinesOf<T extends BlockType> = (block: Extract<Block, { type: T }>, context: BlockLineContext) => Line[];

const heading = (words: string): Line => plain("BlockLabel", label(words));
const numbered = (index: number, title: string): Line => plain(undefined, label(`${index + 1}. `), { text: title, bold: true });
/** A picture, then its alt text (what a screen reader says) and caption, for the reviewer to check. */
function picture(source: { assetId?: string | undefined; url?: string | undefined } | undefined, alt: string | undefined, extra: { decorative?: boolean; caption?: string | undefined; markers?: PictureRef["markers"] } = {}): Line[] {
  const lines: Line[] = [];
  if (source && (source.assetId || source.url)) {
    lines.push({ runs: [], picture: { assetId: source.assetId, url: source.url, alt: extra.decorative ? "" : text(alt), ...(extra.markers ? { markers: extra.markers } : {}) } });
  }
  lines.push(plain("Answer", { text: extra.decorative || !text(alt).trim() ? "Decorative picture (no alt text)." : "Alt text: ", italic: true }, ...(extra.decorative || !text(alt).trim() ? [] : [{ text: text(alt).trim() }])));
  if (text(extra.caption).trim()) lines.push(plain("Answer", { text: "Caption: ", italic: true }, { text: text(extra.caption).trim() }));
  return lines;
}

function media(block: Extract<Block, { type: "video" | "audio" }>): Line[] {
  const source = block.title ?? block.url ?? block.assetId ?? "";
  const captions = block.captions || (block.captionTracks?.length ?? 0) > 0 ? "captions" : "no captions";
  return [
    plain(undefined, { text: `${block.type === "video" ? "Video" : "Audio"}: `, italic: true }, { text: `${text(source)} (${captions})` }),
    ...(block.transcript ? [heading("Transcript"), ...markdownLines(block.transcript)] : []),
  ];
}

/** Categories side by side as a table's columns, each holding its items (and their feedback), as the learner sorts them. */
function sorting(block: Extract<Block, { type: "sorting" }>, context: BlockLineContext): Line[] {
  const columns = block.categories.map((category) => block.items.filter((entry) => entry.category === category.title));
  const depth = Math.max(0, ...columns.map((column) => column.length));
  const header = block.categories.map((category) => [plain(undefined, label(category.title))]);
  const rows = Array.from({ length: depth }, (_, row) =>
    columns.map((column) => {
      const item = column[row];
      return item ? [plain(undefined, { text: item.text }), ...(text(item.feedback).trim() ? [plain(undefined, { text: "Feedback: ", italic: true }, { text: text(item.feedback).trim() })] : [])] : [plain(undefined, { text: "" })];
    }),
  );
  return [
    ...markdownLines(text(block.prompt)),
    plain(undefined, { text: `Right answer: ${block.items.length} items in ${block.categories.length} categories, each item under its category.`, italic: true }),
    { runs: [], table: [header, ...rows] },
    ...questionFooter(block, context),
  ];
}

/** A region as a reviewer reads it: its shape in picture coordinates. */
function regionWords(region: RegionShape): string {
  switch (region.shape) {
    case "rect":
      return `rectangle at ${region.x},${region.y}, ${region.width}×${region.height}`;
    case "circle":
      return `circle at ${region.x},${region.y}, radius ${region.radius}`;
    case "polygon":
      return `polygon ${region.points.map((point) => point.join(",")).join(" ")}`;
  }
}

/** The question's picture with each region's number drawn at its centre, then the words for the list below it. */
function pictureFrame(image: { assetId?: string | undefined; url?: string | undefined; alt: string; width: number; height: number }, regions: readonly RegionShape[]): Line[] {
  const markers = regions.map((region) => {
    const [left, top, right, bottom] = regionBounds(region);
    return { x: Math.round((((left + right) / 2) * 100) / image.width), y: Math.round((((top + bottom) / 2) * 100) / image.height) };
  });
  return [...picture(image, image.alt, { markers }), plain(undefined, { text: `Regions in picture coordinates (${image.width}×${image.height}), numbered as on the picture:`, italic: true })];
}

function numericAnswer(block: Extract<Block, { type: "numeric" }>): string {
  const unit = block.unit ? ` ${block.unit}` : "";
  if (block.value === undefined) return `from ${block.min} to ${block.max}${unit}`;
  if (!block.tolerance) return `${block.value}${unit}`;
  return `${block.value}${unit} ± ${block.tolerance}${block.toleranceMode === "percent" ? " %" : unit}`;
}

const moreQuestionLines = {
  numeric: (block, context) => [
    ...markdownLines(text(block.prompt)),
    plain("Answer", label("Answer: "), { text: numericAnswer(block) }),
    ...labelled("Feedback when right: ", block.correctFeedback),
    ...labelled("Feedback when wrong: ", block.incorrectFeedback),
    ...questionFooter(block, context),
  ],
  hotspot: (block, context) => [
    ...markdownLines(text(block.prompt)),
    ...pictureFrame(block.image, block.regions),
    ...block.regions.flatMap((region, index) => [
      plain("Answer", label(`${index + 1}. ${region.correct ? "✔ right" : "✘ wrong"}: `), { text: `${region.name} (${regionWords(region)})` }),
      ...feedbackLine(region.feedback),
    ]),
    ...questionFooter(block, context),
  ],
  drag_onto_image: (block, context) => [
    ...markdownLines(text(block.prompt)),
    ...pictureFrame(block.image, block.zones),
    ...block.zones.map((zone, index) => plain("Answer", label(`${index + 1}. `), { text: `${zone.name} (${regionWords(zone)})` })),
    heading("Labels"),
    ...block.labels.flatMap((label) => {
      const zone = block.zones.findIndex((candidate) => candidate.id === label.zone);
      const name = label.text ?? label.image?.alt ?? "";
      return [plain("Answer", { text: `${name} → ${zone >= 0 ? `zone ${zone + 1} (${block.zones[zone]?.name ?? ""})` : "no zone (distractor)"}` }), ...feedbackLine(label.feedback)];
    }),
    ...questionFooter(block, context),
  ],
  inline_choice: (block, context) => [
    ...markdownLines(text(block.prompt)),
    ...markdownLines(text(block.text)),
    ...block.gaps.flatMap((gap, index) => [
      plain("Answer", label(`Gap ${index + 1}: `), { text: gap.choices.map((choice) => (choice.correct ? `✔ ${choice.text}` : choice.text)).join(" | ") }),
      ...feedbackLine(gap.feedback),
    ]),
    ...questionFooter(block, context),
  ],
  open_response: (block, context) => [
    ...markdownLines(text(block.prompt)),
    plain("Answer", label("Length guide: "), { text: `${block.minCharacters ? `${block.minCharacters} to ` : "up to "}${block.maxCharacters} characters` }),
    heading("Model answer"),
    ...markdownLines(block.modelAnswer),
    ...(block.rubric ? [heading("Rubric"), ...block.rubric.criteria.map((criterion) => plain("ListBullet", { text: `${criterion.text} (${criterion.points} point${criterion.points === 1 ? "" : "s"})` }))] : []),
    ...questionFooter(block, context),
  ],
  likert: (block, context) => [
    ...markdownLines(text(block.prompt)),
    plain("Answer", label("Scale: "), { text: block.scale.map((point, index) => `${index + 1} ${point}`).join(" | ") }),
    ...block.statements.map((statement) => plain("ListBullet", { text: statement.text })),
    ...questionFooter(block, context),
  ],
} satisfies { readonly [T in "numeric" | "hotspot" | "drag_onto_image" | "inline_choice" | "open_response" | "likert"]: LinesOf<T> };

/** Each block type as a person reads it; a new block type must say how it reads here. */
const linesByType: { readonly [T in BlockType]: LinesOf<T> } = {
  text: (block) => markdownLines(text(block.markdown)),
  heading: (block) => [plain(undefined, label(text(block.text)))],
  image: (block) => picture(block, block.alt, { decorative: block.decorative === true, caption: block.caption }),
  quote: (block) => [...markdownLines(text(block.text)).map((line) => ({ ...line, style: "Quote" as const })), ...(block.attribution ? [plain("Quote", { text: `— ${text(block.attribution)}` })] : [])],
  code: (block) => text(block.code).split("\n").map((codeLine) => plain("Code", { text: codeLine })),
  callout: (block) => [plain(undefined, label(`${text(block.variant) || "info"}${block.title ? `: ${text(block.title)}` : ""}`)), ...markdownLines(text(block.markdown))],
  divider: () => [plain(undefined, { text: "———", italic: true })],
  video: media,
  audio: media,
  accordion: (block) => block.items.flatMap((item, index) => [numbered(index, item.title), ...markdownLines(item.markdown)]),
  tabs: (block) => block.tabs.flatMap((tab, index) => [numbered(index, `Tab: ${tab.title}`), ...markdownLines(tab.markdown)]),
  flashcards: (block) =>
    block.cards.flatMap((card, index) => [plain(undefined, label(`Card ${index + 1}, front: `), { text: card.front }), plain(undefined, label("Back: ")), ...markdownLines(card.back)]),
  labeled_graphic: (block) => [
    ...picture(block.image, block.alt, { markers: block.markers.map((marker) => ({ x: marker.x, y: marker.y })) }),
    plain(undefined, { text: "Markers, numbered as on the picture:", italic: true }),
    ...block.markers.flatMap((marker, index) => [numbered(index, marker.title), ...markdownLines(marker.markdown)]),
  ],
  process: (block) => block.steps.flatMap((step, index) => [plain(undefined, label(`Step ${index + 1} of ${block.steps.length}: `), { text: step.title, bold: true }), ...(step.image ? picture(step.image, step.image.alt) : []), ...markdownLines(step.markdown)]),
  timeline: (block) =>
    block.events.flatMap((event) => [plain(undefined, label(`${event.date}: `), { text: event.title, bold: true }), ...(event.image ? picture(event.image, event.image.alt) : []), ...markdownLines(event.markdown)]),
  attachment: (block) => [plain(undefined, { text: "Download: ", italic: true }, { text: block.title }), ...(block.description ? [plain(undefined, { text: block.description })] : [])],
  continue: (block) => [
    plain(undefined, { text: "Continue button: ", italic: true }, { text: text(block.label) || "(the course language's default)" }, ...(block.requireCompletion ? [{ text: " (shown once the blocks above are done)" }] : [])),
  ],
  single_choice: (block, context) => [...choices(block), ...questionFooter(block, context)],
  multiple_choice: (block, context) => [...choices(block), ...questionFooter(block, context)],
  true_false: (block, context) => [
    ...markdownLines(text(block.prompt)),
    plain("Answer", label("Answer: "), { text: block.answer === true ? "True" : "False" }),
    ...labelled("Feedback on True: ", block.trueFeedback),
    ...labelled("Feedback on False: ", block.falseFeedback),
    ...questionFooter(block, context),
  ],
  fill_in_blank: (block, context) => [
    ...markdownLines(text(block.prompt)),
    ...markdownLines(text(block.text)),
    ...block.blanks.map((blank, index) => plain("Answer", label(`Blank ${index + 1}: `), { text: blank.answers.map(text).join(" | ") + (blank.caseSensitive === true ? " (case sensitive)" : "") })),
    ...questionFooter(block, context),
  ],
  matching: (block, context) => [
    ...markdownLines(text(block.prompt)),
    ...block.pairs.flatMap((pair) => [plain("Answer", { text: `${text(pair.left)} → ${text(pair.right)}` }), ...feedbackLine(pair.feedback)]),
    ...questionFooter(block, context),
  ],
  ordering: (block, context) => [
    ...markdownLines(text(block.prompt)),
    ...block.items.flatMap((item, index) => [plain("Answer", label(`${index + 1}. `), { text: text(item.text) }), ...feedbackLine(item.feedback)]),
    ...questionFooter(block, context),
  ],
  sorting,
  ...moreQuestionLines,
  scenario: (block, context) => [...scenario(block as unknown as Part), ...questionFooter(block, context)],
};

export function blockLines<T extends BlockType>(block: Extract<Block, { type: T }>, context: BlockLineContext = {}): Line[] {
  const lines = linesByType[block.type as T] as LinesOf<T> | undefined;
  // A block stored before its type's fields were settled reads as nothing rather than breaking the copy.
  return lines ? lines(block, context) : [];
}

/** "Single choice · 2 points", the label above a block. */
export function blockLabel(block: Part): string {
  const type = text(block.type).replace(/_/g, " ");
  const unscored = isUnscoredQuestionType(text(block.type)) ? " · not scored in the course" : "";
  const points = typeof block.points === "number" ? ` · ${block.points} point${block.points === 1 ? "" : "s"}${block.type === "open_response" ? " for an LMS grader" : ""}` : "";
  return `${type.charAt(0).toUpperCase()}${type.slice(1)}${points}${unscored}`;
}
