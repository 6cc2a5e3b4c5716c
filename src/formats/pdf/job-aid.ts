/**
 * A course's key points on one or two pages (export format `pdf_job_aid`), for the workplace: the
 * objectives, then for each lesson its key points: the callouts the author wrote (a tip, a warning),
 * a process's steps, a timeline's events, a lesson's headings; a lesson with none of these gives the
 * first paragraph of its text as its summary. Modules give their summary. Points are kept in course
 * order; when they do not fit in two pages, the last are left out and the page says how many.
 */
import type { ExportCourse } from "../package/types.ts";
import { moduleTitle } from "./course-handout.ts";
import type { PdfLabels } from "./pdf-labels.ts";
import { markdownNodes, textNode, type PdfNode } from "./pdf-nodes.ts";

/** One lesson's (or module's) share of the job aid, kept or left out whole. */
export interface JobAidPoint {
  readonly name: string;
  readonly nodes: readonly PdfNode[];
}

type LooseBlock = { readonly id: string; readonly type: string } & Record<string, unknown>;

const text = (value: unknown): string => (typeof value === "string" ? value : "");
const list = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? value.filter((item): item is Record<string, unknown> => typeof item === "object" && item !== null) : []);

/** The first paragraph of some Markdown, at most about 300 characters. */
function firstParagraph(markdown: string): PdfNode[] {
  const first = markdownNodes(markdown).find((node) => node.kind === "paragraph" || node.kind === "list");
  if (first?.kind === "list") return [first];
  if (!first || first.kind !== "paragraph") return [];
  const words = first.runs.map((run) => run.text).join("");
  return [textNode(words.length > 300 ? `${words.slice(0, 297).replace(/\s+\S*$/, "")}…` : words)];
}

function blockPoints(block: LooseBlock): PdfNode[] {
  const lang = typeof block.lang === "string" ? { lang: block.lang } : {};
  switch (block.type) {
    case "callout":
      return [
        ...(text(block.title) ? [{ ...textNode(text(block.title), "label"), ...lang }] : []),
        ...markdownNodes(text(block.markdown), lang).map((node) => (node.kind === "paragraph" ? { ...node, style: "quote" as const } : node)),
      ];
    case "process":
      return [{ kind: "list", ordered: true, items: list(block.steps).map((step) => [{ text: text(step.title) }]), ...lang }];
    case "timeline":
      return [{ kind: "list", ordered: false, items: list(block.events).map((event) => [{ text: `${text(event.date)}: `, bold: true }, { text: text(event.title) }]), ...lang }];
    case "heading":
      return [{ kind: "list", ordered: false, items: [[{ text: text(block.text) }]], ...lang }];
    default:
      return [];
  }
}

/** Every lesson's and module's key points, in course order. */
export function jobAidPoints(course: ExportCourse, labels: PdfLabels): JobAidPoint[] {
  const points: JobAidPoint[] = [];
  course.modules.forEach((module, moduleIndex) => {
    const title = moduleTitle(course, moduleIndex, labels);
    const summary = firstParagraph(module.summary ?? "");
    const at = points.length;
    for (const lesson of module.lessons) {
      if (lesson.kind === "quiz") continue;
      const blocks = (lesson.blocks ?? []) as readonly LooseBlock[];
      let nodes = blocks.flatMap(blockPoints);
      if (nodes.length === 0) nodes = firstParagraph(text(blocks.find((block) => block.type === "text")?.markdown));
      if (nodes.length > 0) points.push({ name: lesson.title, nodes: [{ kind: "heading", level: 3, text: lesson.title }, ...nodes] });
    }
    // A module is named when it says something: its summary or a lesson's points.
    if (summary.length > 0 || points.length > at) points.splice(at, 0, { name: title, nodes: [{ kind: "heading", level: 2, text: title }, ...summary] });
  });
  return points;
}

/** The job aid's nodes with the first `keep` points; a closing line counts those left out. */
export function jobAidNodes(course: ExportCourse, labels: PdfLabels, points: readonly JobAidPoint[], keep: number): PdfNode[] {
  const left = points.length - keep;
  return [
    { kind: "heading", level: 1, text: `${labels.jobAid}: ${course.title}`, anchor: "top" },
    ...(course.objectives.length > 0
      ? [{ kind: "heading" as const, level: 2 as const, text: labels.objectives }, { kind: "list" as const, ordered: false, items: course.objectives.map((objective) => [{ text: objective.text }]) }]
      : []),
    ...points.slice(0, keep).flatMap((point) => point.nodes),
    ...(left > 0 ? [textNode(labels.leftOut(left), "small")] : []),
  ];
}
