/**
 * The DOM side of the axe audit: one rendered page loaded into a happy-dom window (page scripts off),
 * axe-core's script evaluated inside that window, and its WCAG rules run with a colour-scheme
 * preference. Loaded on demand by `axe-audit.ts`, so only the thread that audits carries happy-dom.
 */
import { Window } from "happy-dom";
import axeSource from "axe-core/axe.min.js" with { type: "text" };
/**
 * axe's rules that measure rendered boxes or colours through layout: without a layout engine they only
 * ever come back undecided, and computing styles for them costs most of the run, so they are not run
 * here and are listed as not evaluated by axe (the theme contrast check and the player's browser tests
 * stand for them).
 */
export const layoutRules = ["color-contrast", "color-contrast-enhanced", "link-in-text-block", "target-size", "scrollable-region-focusable", "css-orientation-lock", "meta-viewport-large"];

export type ColourScheme = "light" | "dark";

export interface AxeNodePlace {
  readonly lessonId: string | null;
  readonly blockId: string | null;
  readonly target: string;
}

export interface RawNode {
  target: unknown[];
}
export interface RawRule {
  id: string;
  help: string;
  tags: string[];
  nodes: RawNode[];
}
export interface RawResults {
  violations: RawRule[];
  incomplete: RawRule[];
  passes: RawRule[];
  inapplicable: RawRule[];
}

export async function runScheme(page: string, scheme: ColourScheme, names: { lessonAttribute: string; blockMarker: string }): Promise<{ results: RawResults; places: (node: RawNode) => AxeNodePlace; version: string; lessons: number }> {
  const window = new Window({
    settings: {
      disableJavaScriptEvaluation: true,
      disableJavaScriptFileLoading: true,
      disableCSSFileLoading: true,
      disableIframePageLoading: true,
      disableErrorCapturing: false,
      device: { prefersColorScheme: scheme },
    },
  });
  const document = window.document;
  document.write(page);
  // axe is evaluated inside the window (not the page's scripts, which stay off).
  (window as unknown as { eval(source: string): void }).eval(axeSource);
  const axe = (window as unknown as { axe: { version: string; run(context: unknown, options: unknown): Promise<RawResults> } }).axe;
  const results = await axe.run(document, {
    runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"] },
    resultTypes: ["violations", "incomplete"],
    rules: Object.fromEntries(layoutRules.map((rule) => [rule, { enabled: false }])),
  });
  const places = (node: RawNode): AxeNodePlace => {
    const target = String(node.target[0] ?? "");
    let element: Element | null = null;
    try {
      element = document.querySelector(target) as unknown as Element | null;
    } catch {
      element = null;
    }
    return {
      lessonId: element?.closest(`[${names.lessonAttribute}]`)?.getAttribute(names.lessonAttribute) ?? null,
      blockId: element?.closest(`[${names.blockMarker}]`)?.getAttribute(names.blockMarker) ?? null,
      target: target.slice(0, 200),
    };
  };
  const lessons = document.querySelectorAll(`[${names.lessonAttribute}]`).length;
  return { results, places, version: axe.version, lessons: Number(lessons) };
}

