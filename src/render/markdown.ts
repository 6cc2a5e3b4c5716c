/**
 * Markdown to sanitised HTML with markdown-it: raw HTML is off (it renders as text), links are only
 * those the author wrote (no linkify: a phishing sender's address in a lesson must stay text), every link and
 * image URL passes our allow-lists, external links open in a new tab with `rel="noopener noreferrer"`,
 * and headings shift down one level because the lesson title is the page's `h1`. A second instance adds
 * `{{n}}` placeholders for fill-in-the-blank questions.
 */
import MarkdownIt, { type MarkdownIt as Markdown, type StateCore, type Token } from "markdown-it";
import { trustedHtml, type SafeHtml } from "./html.ts";
import { uiText } from "./ui-text.ts";
import { boundTables } from "./markdown-tables.ts";
import { renderMarkdownSliced } from "./markdown-sliced.ts";
import type { SlicePause } from "../codecs/event-loop.ts";
import { isExternalUrl, isSafeImageUrl, isSafeLinkUrl, remotePictureOrigin } from "./urls.ts";
import { ClassName } from "../page-contract/markup-names.ts";

/**
 * What a render tells the sanitiser: the origins remote pictures may come from (the page's `img-src`);
 * a picture from any other host becomes its alt text, so the page never asks for it. Absent: no policy
 * (a fragment rendered outside a page).
 */
type MarkdownEnv = {
  pictureOrigins?: ReadonlySet<string>;
};

function createMarkdown(): Markdown {
  const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });
  boundTables(markdown);
  // The first gate: links and images share it, so it admits the union; `sanitiseInline` narrows it.
  markdown.validateLink = (url) => isSafeLinkUrl(url) || isSafeImageUrl(url);
  markdown.core.ruler.push("shift_headings", shiftHeadings);
  markdown.core.ruler.push("sanitise_inline", sanitiseInline);
  const renderFence = markdown.renderer.rules.fence;
  const renderCodeBlock = markdown.renderer.rules.code_block;
  // Code can scroll sideways, so keyboard users must be able to focus it.
  markdown.renderer.rules.fence = (...args) => focusablePre(renderFence?.(...args) ?? "");
  markdown.renderer.rules.code_block = (...args) => focusablePre(renderCodeBlock?.(...args) ?? "");
  return markdown;
}

function focusablePre(markup: string): string {
  return markup.replace(/^<pre>/, '<pre tabindex="0">');
}

function shiftHeadings(state: StateCore): void {
  for (const token of state.tokens) {
    if (token.type !== "heading_open" && token.type !== "heading_close") continue;
    const level = Number(token.tag.slice(1));
    token.tag = `h${Math.min(6, level + 1)}`;
  }
}

function sanitiseInline(state: StateCore): void {
  for (const blockToken of state.tokens) {
    if (blockToken.type !== "inline" || !blockToken.children) continue;
    blockToken.children = sanitiseChildren(state, blockToken.children);
  }
}

/** Drops unsafe link targets (the text stays), turns unsafe images into their alt text. */
function sanitiseChildren(state: StateCore, children: Token[]): Token[] {
  const result: Token[] = [];
  const openLinks: Array<"dropped" | "external" | "internal"> = [];
  for (const token of children) {
    if (token.type === "link_open") {
      const href = String(token.attrGet("href") ?? "");
      if (!isSafeLinkUrl(href)) {
        openLinks.push("dropped");
        continue;
      }
      const kind = isExternalUrl(href) ? "external" : "internal";
      if (kind === "external") {
        token.attrSet("target", "_blank");
        token.attrSet("rel", "noopener noreferrer");
      }
      openLinks.push(kind);
    } else if (token.type === "link_close") {
      const kind = openLinks.pop();
      if (kind === "dropped") continue;
      if (kind === "external") result.push(hiddenNote(state, uiText.opensInNewTab));
    } else if (token.type === "image") {
      if (!isAllowedPicture(String(token.attrGet("src") ?? ""), state.env as MarkdownEnv)) {
        result.push(textToken(state, altText(token)));
        continue;
      }
      token.attrSet("loading", "lazy");
    }
    result.push(token);
  }
  return result;
}

function isAllowedPicture(src: string, env: MarkdownEnv): boolean {
  if (!isSafeImageUrl(src)) return false;
  const origin = remotePictureOrigin(src);
  return origin === null || env.pictureOrigins === undefined || env.pictureOrigins.has(origin);
}

function altText(image: Token): string {
  return (image.children ?? []).map((child) => child.content).join("") || image.content;
}

function textToken(state: StateCore, content: string): Token {
  const token = new state.Token("text", "", 0);
  token.content = content;
  return token;
}

/** Our own markup, never author text: `html_inline` renders its content as is. */
function hiddenNote(state: StateCore, note: string): Token {
  const token = new state.Token("html_inline", "", 0);
  token.content = `<span class="${ClassName.visuallyHidden}"> ${note}</span>`;
  return token;
}

const markdown = createMarkdown();

/**
 * The renderer's parser as a reader, for what validation needs to know (images, headings, prose): the
 * same markdown-it and options, so it reads exactly the syntax the page renders, without the page's
 * rewrites (headings shifted, unsafe URLs dropped), so validation still sees what the author wrote.
 */
const reader = new MarkdownIt({ html: false, linkify: false, typographer: false });
reader.validateLink = () => true;
boundTables(reader);

/** The block-level tokens of `source`, each inline token with its children. */
export function markdownTokens(source: string): Token[] {
  return reader.parse(source, {});
}

/**
 * The Markdown side of one step of a page's render: the picture policy, and the fields of the block
 * about to be rendered that were already rendered in time slices (`prerenderMarkdown`). Set only around
 * a synchronous step (`inMarkdownScope`), so two renders whose steps interleave never see each other's.
 */
export interface MarkdownScope {
  readonly pictureOrigins: ReadonlySet<string>;
  readonly prerendered: Map<string, string>;
}

let scope: MarkdownScope | null = null;

/**
 * Yielded by a page's pieces before a piece whose Markdown is large: a caller that can wait renders these
 * texts in time slices first (`prerenderMarkdown`); one that cannot skips it and the piece renders them.
 */
export interface MarkdownRequest {
  readonly prerender: readonly string[];
  /** The block the next piece renders, when it is a block (a caller measuring blocks reads it). */
  readonly blockId?: string;
}

/** Texts shorter than this render in well under a millisecond: not worth a detour. */
const prerenderMinLength = 200;

/** The long ones of `texts`, the ones worth rendering in slices. */
export function longMarkdown(texts: readonly (string | null | undefined)[]): string[] {
  return texts.filter((text): text is string => typeof text === "string" && text.length >= prerenderMinLength);
}

function scopeEnv(current: MarkdownScope | null): MarkdownEnv {
  return current ? { pictureOrigins: current.pictureOrigins } : {};
}

/** Runs each step of `pieces` inside `markdownScope`. */
export function* inMarkdownScope<T>(markdownScope: MarkdownScope, pieces: Iterable<T>): Generator<T> {
  const iterator = pieces[Symbol.iterator]();
  for (;;) {
    const previous = scope;
    scope = markdownScope;
    let step: IteratorResult<T>;
    try {
      step = iterator.next();
    } finally {
      scope = previous;
    }
    if (step.done) return;
    yield step.value;
  }
}

/**
 * `compute`'s result with Markdown pictures allowed only from `origins` (e.g. a question bank's HTML,
 * which a learning platform shows without our page's policy): a picture on any other host is its alt text.
 */
export function withPictureOrigins<T>(origins: readonly string[], compute: () => T): T {
  function* once(): Generator<T> {
    yield compute();
  }
  const step = inMarkdownScope({ pictureOrigins: new Set(origins), prerendered: new Map() }, once()).next();
  return step.value as T;
}

/**
 * Renders `sources` in time slices into `markdownScope.prerendered` (replacing what it held), so the
 * block that reads them next renders without holding the event loop for its Markdown.
 */
export async function prerenderMarkdown(markdownScope: MarkdownScope, sources: readonly string[], pause: SlicePause): Promise<void> {
  markdownScope.prerendered.clear();
  for (const source of sources) {
    if (markdownScope.prerendered.has(source)) continue;
    markdownScope.prerendered.set(source, await renderMarkdownSliced(markdown, source, { ...scopeEnv(markdownScope) }, pause));
  }
}

/** Renders author or agent Markdown as sanitised HTML: no raw HTML, no script-capable URLs. */
export function renderMarkdown(source: string): string {
  return scope?.prerendered.get(source) ?? markdown.render(source, scopeEnv(scope));
}

export function markdownHtml(source: string): SafeHtml {
  return trustedHtml(renderMarkdown(source));
}

/* ---------- Fill in the blank ---------- */

interface BlankEnv {
  renderBlank: (number: number) => string;
}

const blankPattern = /\{\{(\d+)\}\}/g;

/** Splits text tokens at `{{n}}` into a `blank` token per placeholder (never inside code or URLs). */
function splitBlankPlaceholders(state: StateCore): void {
  for (const blockToken of state.tokens) {
    if (blockToken.type !== "inline" || !blockToken.children) continue;
    blockToken.children = blockToken.children.flatMap((token) => (token.type === "text" ? splitText(state, token.content) : [token]));
  }
}

function splitText(state: StateCore, content: string): Token[] {
  const tokens: Token[] = [];
  let last = 0;
  for (const match of content.matchAll(blankPattern)) {
    if (match.index > last) tokens.push(textToken(state, content.slice(last, match.index)));
    const blank = new state.Token("blank", "", 0);
    blank.meta = { number: Number(match[1]) };
    tokens.push(blank);
    last = match.index + match[0].length;
  }
  if (last < content.length) tokens.push(textToken(state, content.slice(last)));
  return tokens;
}

function createBlankMarkdown(): Markdown {
  const blankMarkdown = createMarkdown();
  blankMarkdown.core.ruler.push("blank_placeholders", splitBlankPlaceholders);
  blankMarkdown.renderer.rules.blank = (tokens, index, _options, env) => {
    const meta: unknown = tokens[index]?.meta;
    const number = typeof meta === "object" && meta !== null && "number" in meta ? Number(meta.number) : 0;
    return (env as unknown as BlankEnv).renderBlank(number);
  };
  return blankMarkdown;
}

const blankMarkdown = createBlankMarkdown();

/** Markdown whose `{{n}}` placeholders become the markup `renderBlank(n)` returns (our own inputs). */
export function markdownWithBlanksHtml(source: string, renderBlank: (number: number) => SafeHtml): SafeHtml {
  const env: BlankEnv & MarkdownEnv = { ...scopeEnv(scope), renderBlank: (number) => renderBlank(number).markup };
  return trustedHtml(blankMarkdown.render(source, env as unknown as Record<string, unknown>));
}
