/**
 * Author Markdown to HTML (`renderMarkdown`): raw HTML is shown as text, link and image URLs pass the
 * allow-lists however they are spelled, external links open in a new tab without an opener or referrer,
 * and headings sit below the lesson's `h1`. Plus the URL policy the media blocks apply to URLs that
 * never went through the block schema.
 */
import { newAnswerSecrets } from "../src/render/answer-key.ts";
import { describe, expect, test } from "bun:test";
import { renderMarkdown } from "../src/render/index.ts";
import { markdownWithBlanksHtml } from "../src/render/markdown.ts";
import { html } from "../src/render/html.ts";
import { renderAudioBlock, renderImageBlock, renderVideoBlock } from "../src/render/media-blocks.ts";
import { ElementIds, type RenderContext } from "../src/render/context.ts";
import { isSafeAssetUrl, isSafeImageUrl, isSafeLinkUrl, urlScheme } from "../src/render/urls.ts";
import { ClassName } from "../src/page-contract/markup-names.ts";

/** Every `href` and `src` value in the markup. */
function urlsIn(markup: string): string[] {
  return [...markup.matchAll(/\s(?:href|src)="([^"]*)"/g)].map((match) => match[1] ?? "");
}

const scriptCapable = /^\s*(?:java|vb|live)\s*script|^\s*data:(?!image\/(?:png|jpeg|gif|webp|avif);base64,)/i;

describe("renderMarkdown: raw HTML", () => {
  test.each([
    ["<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"],
    ['<img src=x onerror="alert(1)">', "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;"],
    ["Text <b onclick=alert(1)>bold</b>", "Text &lt;b onclick=alert(1)&gt;bold&lt;/b&gt;"],
    ["<!-- comment --><style>body{}</style>", "&lt;!-- comment --&gt;&lt;style&gt;body{}&lt;/style&gt;"],
    ["</textarea></title></style></script>", "&lt;/textarea&gt;&lt;/title&gt;&lt;/style&gt;&lt;/script&gt;"],
  ])("%p is escaped, never parsed as markup", (source, escaped) => {
    const rendered = renderMarkdown(source);
    expect(rendered).toContain(escaped);
    expect(rendered).not.toMatch(/<(?!\/?p>)[a-z!]/i);
  });

  test("entities written by the author stay text", () => {
    expect(renderMarkdown("&lt;script&gt; &#60;img&#62;")).toBe("<p>&lt;script&gt; &lt;img&gt;</p>\n");
  });

  test("code is escaped inside a keyboard-focusable pre", () => {
    expect(renderMarkdown("```html\n<script>alert(1)</script>\n```")).toBe('<pre tabindex="0"><code class="language-html">&lt;script&gt;alert(1)&lt;/script&gt;\n</code></pre>\n');
    expect(renderMarkdown("    <b>indented</b>")).toBe('<pre tabindex="0"><code>&lt;b&gt;indented&lt;/b&gt;\n</code></pre>\n');
  });
});

describe("renderMarkdown: link URLs", () => {
  test.each([
    "https://example.com/a?b=c#d",
    "http://example.com",
    "mailto:someone@example.com",
    "#lesson-les_next",
    "../relative/page.html",
    "/absolute/path",
  ])("%p is kept as a link", (url) => {
    expect(urlsIn(renderMarkdown(`[label](${url})`))).toEqual([url.replace(/&/g, "&amp;")]);
  });

  test.each([
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    "&#106;avascript:alert(1)",
    "&#x6A;avascript:alert(1)",
    "javascript&colon;alert(1)",
    "vbscript:msgbox(1)",
    "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    "data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+",
    "file:///etc/passwd",
    "<javascript:alert(1)>",
    "\u0001javascript:alert(1)",
  ])("%p is dropped or never becomes a script URL; the label stays", (url) => {
    const rendered = renderMarkdown(`[the label](${url}) and ![the alt](${url})`);
    expect(urlsIn(rendered).filter((found) => scriptCapable.test(found))).toEqual([]);
    expect(rendered).toContain("the label");
    expect(rendered).toContain("the alt");
  });

  test("obfuscated schemes that survive as links are percent-encoded into harmless relative URLs", () => {
    const rendered = renderMarkdown("[tab](jav&#x09;ascript:alert(1)) [nul](java\u0000script:alert(1)) [backslash](java\\0script:alert(1))");
    const urls = urlsIn(rendered);
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(urlScheme(url)).toBeNull();
  });

  test("reference-style links and autolinks obey the same allow-list", () => {
    expect(urlsIn(renderMarkdown("[x][bad] <javascript:alert(1)> javascript:alert(1)\n\n[bad]: javascript:alert(1)"))).toEqual([]);
    expect(urlsIn(renderMarkdown("[x][good]\n\n[good]: https://example.com/ref"))).toEqual(["https://example.com/ref"]);
    expect(urlsIn(renderMarkdown("<https://example.com/auto> and [text](https://example.com/explicit)"))).toEqual(["https://example.com/auto", "https://example.com/explicit"]);
  });

  test.each([
    ["a bare URL", "Visit https://example.com/login now", "https://example.com/login"],
    ["a bare www address", "See www.example.com for details", "www.example.com"],
    ["a bare e-mail address", "From: security-alert@examp1e-bank.com", "security-alert@examp1e-bank.com"],
    ["a bare address in a list item", "- reply to ceo@example.com", "ceo@example.com"],
  ])("%s stays text: only links the author wrote are links", (_what, source, text) => {
    const rendered = renderMarkdown(source);
    expect(rendered).not.toContain("<a");
    expect(rendered).toContain(text);
  });

  test("bare URLs stay text in fill-in-the-blank prompts too", () => {
    const rendered = markdownWithBlanksHtml("Report {{1}} to abuse@example.com", () => html`<input>`).markup;
    expect(rendered).not.toContain("<a");
    expect(rendered).toContain("abuse@example.com");
  });

  test('external links open in a new tab with rel="noopener noreferrer" and say so to screen readers', () => {
    expect(renderMarkdown("[Spec](https://www.rfc-editor.org/rfc/rfc9110)")).toBe(
      `<p><a href="https://www.rfc-editor.org/rfc/rfc9110" target="_blank" rel="noopener noreferrer">Spec<span class="${ClassName.visuallyHidden}"> (opens in a new tab)</span></a></p>\n`,
    );
    expect(renderMarkdown("[x](//cdn.example.com/x)")).toContain('rel="noopener noreferrer"');
  });

  test("in-page, relative and mailto links stay in the same tab", () => {
    for (const url of ["#intro", "page.html", "mailto:a@example.com"]) {
      const rendered = renderMarkdown(`[x](${url})`);
      expect(rendered).not.toContain("target=");
      expect(rendered).not.toContain("rel=");
    }
  });
});

describe("renderMarkdown: images and headings", () => {
  test("http(s), relative and base64 raster data images load lazily; anything else becomes its alt text", () => {
    const png = "data:image/png;base64,iVBORw0KGgo=";
    expect(renderMarkdown(`![a](https://example.com/a.png) ![b](img/b.jpg) ![c](${png})`)).toBe(
      `<p><img src="https://example.com/a.png" alt="a" loading="lazy"> <img src="img/b.jpg" alt="b" loading="lazy"> <img src="${png}" alt="c" loading="lazy"></p>\n`,
    );
    expect(renderMarkdown("![a diagram](mailto:a@example.com)")).toBe("<p>a diagram</p>\n");
    expect(renderMarkdown("![a diagram](data:image/svg+xml;base64,PHN2Zz4=)")).not.toContain("<img");
    expect(renderMarkdown("![a <b>diagram</b>](javascript:alert(1))")).not.toContain("<img");
  });

  test("headings shift down one level, so the lesson title stays the only h1", () => {
    expect(renderMarkdown("# One\n\n## Two\n\n###### Six")).toBe("<h2>One</h2>\n<h3>Two</h3>\n<h6>Six</h6>\n");
  });

  test("fill-in-the-blank placeholders become our inputs; author HTML around them stays text", () => {
    const rendered = markdownWithBlanksHtml("<b>{{1}}</b> `{{2}}`", (number) => html`<input data-blank="${number}">`).markup;
    expect(rendered).toBe('<p>&lt;b&gt;<input data-blank="1">&lt;/b&gt; <code>{{2}}</code></p>\n');
  });
});

describe("URL policy of media blocks", () => {
  const context: RenderContext = { options: { mode: "package", assetUrl: (assetId) => (assetId === "ast_bad" ? "javascript:alert(1)" : `assets/${assetId}.png`) }, ids: new ElementIds(), secrets: newAnswerSecrets() };

  test("a media URL that bypassed the block schema is still left out", () => {
    const hostile = ["javascript:alert(1)", " JAVASCRIPT:alert(1)", "java\tscript:alert(1)", "data:text/html,<script>alert(1)</script>", "vbscript:x"];
    for (const url of hostile) {
      const image = renderImageBlock({ id: "blk_i", type: "image", url, alt: "alt", decorative: false }, context).markup;
      const video = renderVideoBlock({ id: "blk_v", type: "video", url, transcript: "t", captions: { url }, poster: { url } }, context, "en").markup;
      const audio = renderAudioBlock({ id: "blk_a", type: "audio", url, transcript: "t", captions: { url } }, context, "en").markup;
      for (const markup of [image, video, audio]) expect(urlsIn(markup).concat([...markup.matchAll(/poster="([^"]*)"/g)].map((match) => match[1] ?? ""))).toEqual([]);
    }
  });

  test("an asset URL the caller resolves to a script URL is left out too", () => {
    expect(renderImageBlock({ id: "blk_i", type: "image", assetId: "ast_bad", alt: "alt", decorative: false }, context).markup).not.toContain("<img");
    expect(renderImageBlock({ id: "blk_i", type: "image", assetId: "ast_good", alt: "alt", decorative: false }, context).markup).toContain('src="assets/ast_good.png"');
  });

  test("schemes are read the way a browser reads them", () => {
    expect(urlScheme("\u0001 JaVa\tScRipt:x")).toBe("javascript");
    expect(isSafeLinkUrl("java\nscript:alert(1)")).toBe(false);
    expect(isSafeImageUrl("data:image/svg+xml;base64,PHN2Zz4=")).toBe(false);
    expect(isSafeAssetUrl("data:image/svg+xml;base64,PHN2Zz4=")).toBe(true);
    expect(isSafeAssetUrl("DATA:text/html,x")).toBe(false);
    expect(isSafeAssetUrl("course://crs_1/assets/ast_1")).toBe(true);
  });
});
