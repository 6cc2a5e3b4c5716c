/**
 * A real browser for tests: Debian's Chromium driven by playwright-core (no downloaded browsers), a
 * throwaway HTTP server on 127.0.0.1 for the pages under test, keyboard helpers that move focus only
 * with the keys a learner would press, and axe-core injected into the page.
 */
import { chromium, type Browser, type Frame, type Page } from "playwright-core";
import type { AxeResults, ImpactValue } from "axe-core";

export const chromiumPath = "/usr/bin/chromium";

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

export interface StaticSite {
  readonly origin: string;
  stop(): Promise<void>;
}

/** Serves fixed responses by path (looked up per request, so entries may be added later); else 404. */
export function serveStatic(files: Record<string, { body: string | Uint8Array; type: string }>): StaticSite {
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const file = files[new URL(request.url).pathname];
      if (!file) return new Response("not found", { status: 404 });
      // A Uint8Array is not a BodyInit in the DOM typings (its buffer may be shared); a Blob is.
      const body = typeof file.body === "string" ? file.body : new Blob([new Uint8Array(file.body)]);
      return new Response(body, { headers: { "content-type": file.type } });
    },
  });
  return { origin: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) };
}

async function activeElementMatches(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((wanted) => document.activeElement?.matches(wanted) ?? false, selector);
}

/** Presses Tab (or Shift+Tab) until the focused element matches `selector`; fails after `limit` presses. */
export async function tabTo(page: Page, selector: string, options: { backwards?: boolean; limit?: number } = {}): Promise<void> {
  const key = options.backwards ? "Shift+Tab" : "Tab";
  for (let presses = 0; presses < (options.limit ?? 250); presses++) {
    if (await activeElementMatches(page, selector)) return;
    await page.keyboard.press(key);
  }
  throw new Error(`focus never reached ${selector}`);
}

const axeSourcePath = new URL(import.meta.resolve("axe-core/axe.min.js")).pathname;

export interface AxeViolation {
  readonly id: string;
  readonly impact: ImpactValue | undefined;
  readonly help: string;
  readonly targets: string[];
}

/** Runs axe-core (WCAG 2.x A/AA and best practices) on the page, or one framed document, as it is now. Needs a CSP-bypassing context. */
export async function runAxe(page: Page | Frame): Promise<AxeViolation[]> {
  const alreadyLoaded = await page.evaluate(() => "axe" in window);
  if (!alreadyLoaded) await page.addScriptTag({ content: await Bun.file(axeSourcePath).text() });
  const results = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResults> } }).axe;
    return axe.run(document, { resultTypes: ["violations"] });
  });
  return results.violations.map((violation) => ({
    id: violation.id,
    impact: violation.impact ?? undefined,
    help: violation.help,
    targets: violation.nodes.map((node) => node.target.join(" ")),
  }));
}

export function seriousOrCritical(violations: readonly AxeViolation[]): AxeViolation[] {
  return violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
}
