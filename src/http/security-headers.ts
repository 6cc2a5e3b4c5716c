/**
 * The security headers of our HTTP responses. Every response says `nosniff`, so a browser never reads
 * JSON or text as HTML or script. Responses that are not pages also forbid everything a page could do
 * (nothing of ours is meant to render or be framed); our HTML pages get a policy that allows exactly
 * their own inline styles and scripts, by hash, and nothing else: no framing, no referrer.
 */
import type { PreparedDocument } from "./router.ts";

/** On every response, whatever its type. */
export const everyResponseHeaders: Readonly<Record<string, string>> = {
  "X-Content-Type-Options": "nosniff",
};

const lockedDown = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** On every response that is not one of our pages (JSON, problems, streams, empty answers). */
export const notAPageHeaders: Readonly<Record<string, string>> = {
  ...everyResponseHeaders,
  "Content-Security-Policy": lockedDown,
  "Referrer-Policy": "no-referrer",
};

async function sha256Source(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return `'sha256-${btoa(String.fromCharCode(...digest))}'`;
}

async function hashesOf(html: string, element: "style" | "script"): Promise<string[]> {
  const pattern = new RegExp(`<${element}>([\\s\\S]*?)</${element}>`, "g");
  return Promise.all([...html.matchAll(pattern)].map((match) => sha256Source(match[1] ?? "")));
}

/**
 * The headers of one of our HTML pages: `default-src 'none'` plus a hash for each inline `<style>`
 * and `<script>` element it carries. Style attributes and external resources stay blocked, so a page
 * that needs one has to say so here.
 */
export async function htmlPageHeaders(html: string): Promise<Record<string, string>> {
  const directives = [lockedDown];
  const styles = await hashesOf(html, "style");
  if (styles.length > 0) directives.push(`style-src ${styles.join(" ")}`);
  const scripts = await hashesOf(html, "script");
  if (scripts.length > 0) directives.push(`script-src ${scripts.join(" ")}`);
  return {
    "Content-Type": "text/html; charset=utf-8",
    ...everyResponseHeaders,
    "Content-Security-Policy": directives.join("; "),
    "Referrer-Policy": "no-referrer",
  };
}

/** An HTML page prepared once at start-up, its policy computed from its own inline code. */
export async function preparedHtmlPage(html: string): Promise<PreparedDocument> {
  return { body: html, headers: await htmlPageHeaders(html) };
}
