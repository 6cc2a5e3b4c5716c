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
import { isExternalUrl, isSafeImageUrl, isSafeLinkUrl } from "./urls.ts";
import { ClassName } from "../page-contract/markup-names.ts";

function createMarkdown(): Markdown {
  const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });
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
      if (!isSafeImageUrl(String(token.attrGet("src") ?? ""))) {
        result.push(textToken(state, altText(token)));
        continue;
      }
      token.attrSet("loading", "lazy");
    }
    result.push(token);
  }
  return result;
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

/** The block-level tokens of `source`, each inline token with its children. */
export function markdownTokens(source: string): Token[] {
  return reader.parse(source, {});
}

/** Renders author or agent Markdown as sanitised HTML: no raw HTML, no script-capable URLs. */
export function renderMarkdown(source: string): string {
  return markdown.render(source);
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
  const env: BlankEnv = { renderBlank: (number) => renderBlank(number).markup };
  return trustedHtml(blankMarkdown.render(source, env as unknown as Record<string, unknown>));
}
