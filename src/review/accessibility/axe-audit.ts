/**
 * axe-core on the rendered course, with no browser: the learner page (every lesson, as the packages
 * render it) is loaded into happy-dom, a DOM in plain JavaScript that runs in Bun, in a worker thread
 * and in the compiled binary alike, and axe's WCAG rules run on it with the light and, when the page has
 * dark styles, the dark colour-scheme preference. Page scripts are never run. Each result names the lesson and the
 * block it sits in. What axe cannot decide without layout (colour contrast, target size…) comes back
 * as `incomplete`: listed as not evaluated by it, never counted as a pass.
 */
import { renderCoursePiecesSliced, type RenderableCourse } from "../../render/index.ts";
import { DataName } from "../../page-contract/markup-names.ts";

import type { AxeNodePlace, ColourScheme, RawRule } from "./axe-dom.ts";

export type { AxeNodePlace, ColourScheme };
export const colourSchemes: readonly ColourScheme[] = ["light", "dark"];

export interface AxeRuleResult {
  readonly rule: string;
  readonly help: string;
  /** WCAG success criteria the rule tests ("1.1.1"), from its tags. */
  readonly criteria: readonly string[];
  readonly outcome: "violation" | "incomplete" | "pass";
  readonly schemes: readonly ColourScheme[];
  /** Violating or undecided nodes (at most 50 per rule). */
  readonly nodes: readonly AxeNodePlace[];
  readonly nodeCount: number;
}

export interface AxeAudit {
  readonly axeVersion: string;
  readonly lessons: number;
  /** The colour-scheme preferences audited: both when the page has dark styles, else light (the dark one would be the same page). */
  readonly schemes: readonly ColourScheme[];
  readonly darkStyles: boolean;
  /** axe's rules that need layout, not run here and listed as not evaluated by axe. */
  readonly notRunWithoutLayout: readonly string[];
  readonly rules: readonly AxeRuleResult[];
  /** Rules that found nothing to test in this course. */
  readonly inapplicable: readonly string[];
}

const blockMarker = "data-acr-block";
const nodesKept = 50;
const lessonAttribute = `data-${DataName.lessonId}`;

/** The success criteria in axe's tags: "wcag111" → "1.1.1", "wcag1410" → "1.4.10". */
export function criteriaOfTags(tags: readonly string[]): string[] {
  const criteria: string[] = [];
  for (const tag of tags) {
    const match = /^wcag(\d)(\d)(\d{1,2})$/.exec(tag);
    if (match) criteria.push(`${match[1]}.${match[2]}.${match[3]}`);
  }
  return criteria;
}

/** The page with each block wrapped in a marker element, so a node can name its block. */
async function markedPage(course: RenderableCourse): Promise<string> {
  const parts: string[] = [];
  for await (const piece of renderCoursePiecesSliced(course, { assetUrl: (assetId) => `assets/${assetId}`, mode: "package", playerDelivery: "referenced" })) {
    parts.push(piece.blockId ? `<div ${blockMarker}="${piece.blockId}">${piece.text}</div>` : piece.text);
  }
  return parts.join("");
}

/** Runs axe on the course's learner page in both colour-scheme preferences and merges the outcomes by rule. */
export async function auditCourseWithAxe(input: { course: RenderableCourse }): Promise<AxeAudit> {
  // happy-dom and axe's script load only on the thread that audits, not on every heavy-work thread.
  const { runScheme, layoutRules } = await import("./axe-dom.ts");
  const page = await markedPage(input.course);
  const merged = new Map<string, { rule: string; help: string; criteria: string[]; outcome: AxeRuleResult["outcome"]; schemes: Set<ColourScheme>; nodes: AxeNodePlace[]; nodeCount: number }>();
  const inapplicable = new Set<string>();
  let version = "";
  let lessons = 0;
  const rank = { violation: 0, incomplete: 1, pass: 2 } as const;
  // With no dark styles in the page, the dark preference renders the same page: one run, on the page
  // without its style sheet (axe decides nothing from styles without layout, and computing them is most of its time).
  const hasDarkStyles = /prefers-color-scheme\s*:\s*dark/i.test(page);
  const schemes: ColourScheme[] = hasDarkStyles ? [...colourSchemes] : ["light"];
  const audited = hasDarkStyles ? page : page.replace(/<style\b[^>]*>[\s\S]*?<\/style>/gi, "");
  for (const scheme of schemes) {
    const run = await runScheme(audited, scheme, { lessonAttribute, blockMarker });
    version = run.version;
    lessons = run.lessons;
    const outcomes: [AxeRuleResult["outcome"], RawRule[]][] = [["violation", run.results.violations], ["incomplete", run.results.incomplete], ["pass", run.results.passes]];
    for (const [outcome, rules] of outcomes) {
      for (const rule of rules) {
        const known = merged.get(rule.id);
        const nodes = outcome === "pass" ? [] : rule.nodes.slice(0, nodesKept).map(run.places);
        if (!known || rank[outcome] < rank[known.outcome]) {
          merged.set(rule.id, { rule: rule.id, help: rule.help, criteria: criteriaOfTags(rule.tags), outcome, schemes: new Set([scheme]), nodes, nodeCount: outcome === "pass" ? 0 : rule.nodes.length });
        } else if (known.outcome === outcome) known.schemes.add(scheme);
      }
    }
    for (const rule of run.results.inapplicable) inapplicable.add(rule.id);
  }
  for (const rule of merged.keys()) inapplicable.delete(rule);
  const rules = [...merged.values()].map(({ schemes, ...rest }) => ({ ...rest, schemes: [...schemes] }));
  return { axeVersion: version, lessons, schemes, darkStyles: hasDarkStyles, notRunWithoutLayout: [...layoutRules], rules, inapplicable: [...inapplicable] };
}
