/**
 * A course as a printable handout (export format `pdf_handout`): a cover (title, logo, description,
 * objectives), linked contents, each module and lesson under its heading, every block in a form that
 * works on paper (an accordion's or tabs' panels all open, a labelled graphic with numbered markers and
 * their texts, a process as numbered steps, a timeline as a list, a scenario as its paths), pictures
 * with their alt text, and the questions as a worksheet, numbered through the course, with the answer
 * key at the end when asked for. Each block keeps the language it is in (an untranslated block of a
 * translation is marked with its source language).
 */
import type { Block, BlockType } from "../../authoring/schemas/blocks.ts";
import type { ExportCourse } from "../package/types.ts";
import type { PdfLabels } from "./pdf-labels.ts";
import { markdownNodes, textNode, type FigurePicture, type PdfNode, type Run } from "./pdf-nodes.ts";

export interface HandoutOptions {
  readonly labels: PdfLabels;
  readonly answerKey: boolean;
}

interface BlockContext {
  readonly labels: PdfLabels;
  readonly lang: string | undefined;
  /** Numbers the next question and files its answer under that number. */
  question(answer: PdfNode[]): number;
}

type NodesOf<T extends BlockType> = (block: Extract<Block, { type: T }>, context: BlockContext) => PdfNode[];

const part = (lang: string | undefined) => (lang ? { lang } : {});
const md = (text: string | undefined | null, context: BlockContext): PdfNode[] => markdownNodes(text ?? "", { baseLevel: 4, ...part(context.lang) });
const label = (text: string, context: BlockContext): PdfNode => textNode(text, "label", context.lang);
const sub = (text: string, context: BlockContext): PdfNode => ({ kind: "heading", level: 4, text, ...part(context.lang) });
const letter = (index: number) => String.fromCharCode(65 + (index % 26));
const items = (texts: readonly string[]): Run[][] => texts.map((text) => [{ text }]);

function picture(source: { assetId?: string | undefined; url?: string | undefined }, alt: string | undefined, decorative = false): FigurePicture {
  return { ...(source.assetId ? { assetId: source.assetId } : {}), ...(source.url ? { url: source.url } : {}), alt: decorative ? "" : (alt ?? "") };
}

function questionHead(context: BlockContext, answer: PdfNode[], prompt: string | undefined): PdfNode[] {
  const number = context.question(answer);
  return [{ kind: "heading", level: 4, text: context.labels.question(number), ...part(context.lang) }, ...md(prompt, context)];
}

function explanation(block: { explanation?: string | undefined }, context: BlockContext): PdfNode[] {
  return block.explanation ? md(block.explanation, context) : [];
}

function media(block: Extract<Block, { type: "video" | "audio" }>, context: BlockContext): PdfNode[] {
  const name = block.title ?? block.url ?? "";
  return [
    textNode(`${block.type === "video" ? "Video" : "Audio"}: ${name}`, "label", context.lang),
    ...(block.transcript ? [sub(context.labels.transcript, context), ...md(block.transcript, context)] : []),
  ];
}

/** Every path from the start scene to an ending (or back to a scene already on the path), at most 50. */
function scenarioPaths(block: Extract<Block, { type: "scenario" }>): string[] {
  const scenes = new Map(block.scenes.map((scene) => [scene.id, scene]));
  const paths: string[] = [];
  const walk = (sceneId: string, trail: string[], seen: Set<string>) => {
    const scene = scenes.get(sceneId);
    if (paths.length >= 50 || !scene) return;
    if (scene.ending) {
      paths.push([...trail, `${scene.ending.outcome}`].join(" → "));
      return;
    }
    for (const choice of scene.choices ?? []) {
      const step = [...trail, `“${choice.text}”`];
      if (seen.has(choice.next)) paths.push(`${step.join(" → ")} → (${choice.next})`);
      else walk(choice.next, step, new Set([...seen, choice.next]));
    }
  };
  walk(block.startSceneId, [], new Set([block.startSceneId]));
  return paths;
}

function scenario(block: Extract<Block, { type: "scenario" }>, context: BlockContext): PdfNode[] {
  const nodes: PdfNode[] = [sub(block.title, context), ...md(block.markdown, context)];
  for (const scene of block.scenes) {
    nodes.push(label(`${scene.id}`, context), ...md(scene.markdown, context));
    if (scene.choices && scene.choices.length > 0) nodes.push({ kind: "list", ordered: false, items: items(scene.choices.map((choice) => `${choice.text} → ${choice.next}`)), ...part(context.lang) });
    if (scene.ending) nodes.push(textNode(`${context.labels.ending}: ${scene.ending.outcome}`, "normal", context.lang));
  }
  nodes.push(label(context.labels.paths, context), { kind: "list", ordered: true, items: items(scenarioPaths(block)), ...part(context.lang) });
  return nodes;
}

function choices(block: Extract<Block, { type: "single_choice" | "multiple_choice" }>, context: BlockContext): PdfNode[] {
  const right = block.choices.flatMap((choice, index) => (choice.correct ? [`${letter(index)}. ${choice.text}`] : []));
  const answer: PdfNode[] = [{ kind: "list", ordered: false, items: items(right), ...part(context.lang) }, ...explanation(block, context)];
  return [...questionHead(context, answer, block.prompt), { kind: "list", ordered: false, boxes: true, items: block.choices.map((choice, index) => [{ text: `${letter(index)}. ${choice.text}` }]), ...part(context.lang) }];
}

function fillInBlank(block: Extract<Block, { type: "fill_in_blank" }>, context: BlockContext): PdfNode[] {
  const answer: PdfNode[] = [{ kind: "list", ordered: true, items: items(block.blanks.map((blank) => blank.answers.join(" / "))), ...part(context.lang) }, ...explanation(block, context)];
  const text = block.text.replace(/\{\{(\d+)\}\}/g, (_, number: string) => `(${number}) __________`);
  return [...questionHead(context, answer, block.prompt), ...md(text, context)];
}

function matching(block: Extract<Block, { type: "matching" }>, context: BlockContext): PdfNode[] {
  // The right-hand items in alphabetical order, lettered, so the printed order gives nothing away.
  const rights = [...new Set(block.pairs.map((pair) => pair.right))].sort((a, b) => a.localeCompare(b));
  const answer: PdfNode[] = [{ kind: "table", header: ["", ""], rows: block.pairs.map((pair) => [pair.left, `${letter(rights.indexOf(pair.right))}. ${pair.right}`]), ...part(context.lang) }, ...explanation(block, context)];
  return [
    ...questionHead(context, answer, block.prompt),
    textNode(context.labels.matchHint, "small", context.lang),
    { kind: "table", header: ["", ""], rows: block.pairs.map((pair, index) => [`${pair.left}  ____`, `${letter(index)}. ${rights[index] ?? ""}`]), ...part(context.lang) },
  ];
}

function ordering(block: Extract<Block, { type: "ordering" }>, context: BlockContext): PdfNode[] {
  const shown = [...block.items].sort((a, b) => a.text.localeCompare(b.text));
  const answer: PdfNode[] = [{ kind: "list", ordered: true, items: items(block.items.map((item) => item.text)), ...part(context.lang) }, ...explanation(block, context)];
  return [...questionHead(context, answer, block.prompt), textNode(context.labels.orderHint, "small", context.lang), { kind: "list", ordered: false, boxes: true, items: items(shown.map((item) => item.text)), ...part(context.lang) }];
}

function sorting(block: Extract<Block, { type: "sorting" }>, context: BlockContext): PdfNode[] {
  const shown = [...block.items].sort((a, b) => a.text.localeCompare(b.text));
  const answer: PdfNode[] = [{ kind: "table", header: ["", ""], rows: block.items.map((item) => [item.text, item.category]), ...part(context.lang) }, ...explanation(block, context)];
  return [
    ...questionHead(context, answer, block.prompt),
    textNode(`${context.labels.sortHint} (${block.categories.map((category) => category.title).join(", ")})`, "small", context.lang),
    { kind: "list", ordered: false, boxes: true, items: items(shown.map((item) => item.text)), ...part(context.lang) },
  ];
}

function numeric(block: Extract<Block, { type: "numeric" }>, context: BlockContext): PdfNode[] {
  const unit = block.unit ? ` ${block.unit}` : "";
  const value = block.value === undefined ? `${block.min} – ${block.max}` : block.tolerance ? `${block.value} ± ${block.tolerance}${block.toleranceMode === "percent" ? " %" : ""}` : `${block.value}`;
  const answer: PdfNode[] = [textNode(`${value}${unit}`, "normal", context.lang), ...explanation(block, context)];
  return [...questionHead(context, answer, block.prompt), textNode(`__________${unit}`, "normal", context.lang)];
}

/** A question on a picture: the picture, then its regions or zones by name, each with a box. */
function pictureQuestion(block: Extract<Block, { type: "hotspot" | "drag_onto_image" }>, context: BlockContext, answer: PdfNode[], names: readonly string[]): PdfNode[] {
  return [
    ...questionHead(context, answer, block.prompt),
    { kind: "figure", picture: picture(block.image, block.image.alt), ...part(context.lang) },
    { kind: "list", ordered: true, boxes: block.type === "hotspot", items: items(names), ...part(context.lang) },
  ];
}

function hotspot(block: Extract<Block, { type: "hotspot" }>, context: BlockContext): PdfNode[] {
  const answer: PdfNode[] = [{ kind: "list", ordered: false, items: items(block.regions.filter((region) => region.correct).map((region) => region.name)), ...part(context.lang) }, ...explanation(block, context)];
  return pictureQuestion(block, context, answer, block.regions.map((region) => region.name));
}

function dragOntoImage(block: Extract<Block, { type: "drag_onto_image" }>, context: BlockContext): PdfNode[] {
  const labelName = (label: (typeof block.labels)[number]): string => label.text ?? label.image?.alt ?? "";
  const answer: PdfNode[] = [
    { kind: "table", header: ["", ""], rows: block.zones.map((zone) => [zone.name, block.labels.filter((label) => label.zone === zone.id).map(labelName).join(", ")]), ...part(context.lang) },
    ...explanation(block, context),
  ];
  return [
    ...pictureQuestion(block, context, answer, block.zones.map((zone) => `${zone.name}: __________`)),
    textNode([...block.labels].map(labelName).sort((a, b) => a.localeCompare(b)).join(" · "), "small", context.lang),
  ];
}

function inlineChoice(block: Extract<Block, { type: "inline_choice" }>, context: BlockContext): PdfNode[] {
  const answer: PdfNode[] = [{ kind: "list", ordered: true, items: items(block.gaps.map((gap) => gap.choices.find((choice) => choice.correct)?.text ?? "")), ...part(context.lang) }, ...explanation(block, context)];
  const text = block.text.replace(/\{\{(\d+)\}\}/g, (_, number: string) => `(${number}) [${(block.gaps[Number(number) - 1]?.choices ?? []).map((choice) => choice.text).join(" / ")}]`);
  return [...questionHead(context, answer, block.prompt), ...md(text, context)];
}

function openResponse(block: Extract<Block, { type: "open_response" }>, context: BlockContext): PdfNode[] {
  const criteria = block.rubric?.criteria ?? [];
  const answer: PdfNode[] = [
    ...md(block.modelAnswer, context),
    ...(criteria.length > 0 ? [{ kind: "table", header: ["", ""], rows: criteria.map((criterion) => [criterion.text, String(criterion.points)]), ...part(context.lang) } as PdfNode] : []),
    ...explanation(block, context),
  ];
  const lines = Math.min(12, Math.max(3, Math.ceil(block.maxCharacters / 160)));
  return [...questionHead(context, answer, block.prompt), ...Array.from({ length: lines }, () => textNode("_".repeat(60), "normal", context.lang))];
}

/** An opinion scale: each statement with a box per point of the scale; never in the answer key's scores. */
function likert(block: Extract<Block, { type: "likert" }>, context: BlockContext): PdfNode[] {
  return [
    ...md(block.prompt, context),
    { kind: "table", header: ["", ...block.scale], rows: block.statements.map((statement) => [statement.text, ...block.scale.map(() => "[  ]")]), ...part(context.lang) },
  ];
}

/** Each block type on paper; a new block type must say how it prints. */
const nodesByType: { readonly [T in BlockType]: NodesOf<T> } = {
  text: (block, context) => md(block.markdown, context),
  heading: (block, context) => [{ kind: "heading", level: 3, text: block.text, ...part(context.lang) }],
  image: (block, context) => [{ kind: "figure", picture: picture(block, block.alt, block.decorative === true), ...(block.caption ? { caption: block.caption } : {}), ...part(context.lang) }],
  quote: (block, context) => [
    ...markdownNodes(`> ${block.text.split("\n").join("\n> ")}`, part(context.lang)),
    ...(block.attribution ? [textNode(`— ${block.attribution}`, "small", context.lang)] : []),
  ],
  code: (block, context) => [{ kind: "paragraph", runs: [{ text: block.code, code: true }], style: "code", ...part(context.lang) }],
  callout: (block, context) => [...(block.title ? [label(block.title, context)] : []), ...md(block.markdown, context).map((node) => (node.kind === "paragraph" ? { ...node, style: "quote" as const } : node))],
  divider: () => [{ kind: "rule" }],
  video: media,
  audio: media,
  accordion: (block, context) => block.items.flatMap((item) => [sub(item.title, context), ...md(item.markdown, context)]),
  tabs: (block, context) => block.tabs.flatMap((tab) => [sub(tab.title, context), ...md(tab.markdown, context)]),
  flashcards: (block, context) => block.cards.flatMap((card, index) => [sub(`${context.labels.card(index + 1)}: ${card.front}`, context), ...md(card.back, context)]),
  labeled_graphic: (block, context) => [
    { kind: "figure", picture: { ...picture(block.image, block.alt), markers: block.markers.map((marker) => ({ x: marker.x, y: marker.y })) }, ...part(context.lang) },
    ...block.markers.flatMap((marker, index) => [sub(`${index + 1}. ${marker.title}`, context), ...md(marker.markdown, context)]),
  ],
  process: (block, context) =>
    block.steps.flatMap((step, index) => [
      sub(`${index + 1}. ${step.title}`, context),
      ...(step.image ? [{ kind: "figure" as const, picture: picture(step.image, step.image.alt), ...part(context.lang) }] : []),
      ...md(step.markdown, context),
    ]),
  timeline: (block, context) => [
    { kind: "list", ordered: false, items: block.events.map((event) => [{ text: `${event.date}: `, bold: true }, { text: event.title }]), ...part(context.lang) },
    ...block.events.flatMap((event) => (event.markdown ? [label(`${event.date} ${event.title}`, context), ...md(event.markdown, context)] : [])),
  ],
  attachment: (block, context) => [textNode(`${context.labels.download}: ${block.title}`, "label", context.lang), ...(block.description ? [textNode(block.description, "normal", context.lang)] : [])],
  continue: () => [],
  single_choice: choices,
  multiple_choice: choices,
  true_false: (block, context) => {
    const answer: PdfNode[] = [textNode(block.answer ? context.labels.trueWord : context.labels.falseWord, "normal", context.lang), ...explanation(block, context)];
    return [...questionHead(context, answer, block.prompt), { kind: "list", ordered: false, boxes: true, items: items([context.labels.trueWord, context.labels.falseWord]), ...part(context.lang) }];
  },
  fill_in_blank: fillInBlank,
  matching,
  ordering,
  sorting,
  scenario,
  numeric,
  hotspot,
  drag_onto_image: dragOntoImage,
  inline_choice: inlineChoice,
  open_response: openResponse,
  likert,
};

export function blockNodes(block: { readonly id: string; readonly type: string }, context: BlockContext): PdfNode[] {
  const write = (nodesByType as Record<string, ((block: never, context: BlockContext) => PdfNode[]) | undefined>)[block.type];
  const lang = (block as { lang?: unknown }).lang;
  const own = typeof lang === "string" ? { ...context, lang } : context;
  try {
    return write ? write(block as never, own) : [];
  } catch {
    // A block stored before its type's fields were settled prints as nothing rather than breaking the handout.
    return [];
  }
}

/** The module's heading as learners see it: "Module 2: Title", or the title alone when the course does not number modules. */
export function moduleTitle(course: ExportCourse, index: number, labels: PdfLabels): string {
  const title = course.modules[index]?.title ?? "";
  return course.numbering === "none" ? title : `${labels.module(index + 1)}: ${title}`;
}

function cover(course: ExportCourse, labels: PdfLabels): PdfNode[] {
  const logo = course.theme?.logo;
  const coverImage = course.theme?.coverImage;
  return [
    ...(logo ? [{ kind: "figure" as const, picture: { assetId: logo.assetId, alt: logo.alt } }] : []),
    { kind: "heading", level: 1, text: course.title, anchor: "cover" },
    ...(coverImage ? [{ kind: "figure" as const, picture: { assetId: coverImage.assetId, alt: coverImage.alt } }] : []),
    ...markdownNodes(course.description ?? ""),
    ...([course.audience, course.level].some(Boolean) ? [textNode([course.audience, course.level].filter(Boolean).join(" · "), "small")] : []),
    ...(course.objectives.length > 0
      ? [{ kind: "heading" as const, level: 2 as const, text: labels.objectives }, { kind: "list" as const, ordered: false, items: items(course.objectives.map((objective) => objective.text)) }]
      : []),
  ];
}

/** The handout's nodes, contents first after the cover. */
export function handoutNodes(course: ExportCourse, options: HandoutOptions): PdfNode[] {
  const { labels } = options;
  const answers: { number: number; nodes: PdfNode[] }[] = [];
  const context: BlockContext = {
    labels,
    lang: undefined,
    question(answer) {
      answers.push({ number: answers.length + 1, nodes: answer });
      return answers.length;
    },
  };
  const body: PdfNode[] = [];
  const entries: { level: 1 | 2; text: string; anchor: string }[] = [];
  course.modules.forEach((module, moduleIndex) => {
    const title = moduleTitle(course, moduleIndex, labels);
    entries.push({ level: 1, text: title, anchor: `m${moduleIndex + 1}` });
    body.push({ kind: "heading", level: 1, text: title, anchor: `m${moduleIndex + 1}`, newPage: true }, ...markdownNodes(module.summary ?? ""));
    module.lessons.forEach((lesson, lessonIndex) => {
      const anchor = `m${moduleIndex + 1}l${lessonIndex + 1}`;
      entries.push({ level: 2, text: lesson.title, anchor });
      body.push({ kind: "heading", level: 2, text: lesson.title, anchor });
      if (lesson.banner && (lesson.banner.assetId || lesson.banner.url)) body.push({ kind: "figure", picture: picture(lesson.banner, lesson.banner.alt, lesson.banner.decorative === true) });
      for (const block of lesson.blocks ?? []) body.push(...blockNodes(block, context));
    });
  });
  const key: PdfNode[] = [];
  if (answers.length > 0 && options.answerKey) {
    entries.push({ level: 1, text: labels.answerKey, anchor: "answers" });
    key.push({ kind: "heading", level: 1, text: labels.answerKey, anchor: "answers", newPage: true });
    for (const answer of answers) key.push({ kind: "heading", level: 3, text: labels.question(answer.number) }, ...answer.nodes);
  }
  return [...cover(course, labels), { kind: "contents", title: labels.contents, entries }, ...body, ...key];
}
