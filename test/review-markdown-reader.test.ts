/**
 * One Markdown reader (issue 30): validation reads Markdown with the renderer's markdown-it parser, so
 * what it reports is what the page shows. The three samples the line scanners read differently from
 * the page are the cases here, each checked against the rendered HTML too.
 */
import { describe, expect, test } from "bun:test";
import { renderMarkdown } from "../src/render/index.ts";
import { markdownHeadingLevels, markdownImages, plainText } from "../src/review/validation/markdown-text.ts";

describe("validation reads Markdown as the page renders it", () => {
  test("a setext heading (a line underlined with =) is a level-1 heading, and not prose", () => {
    const markdown = "Before you start\n================\n\nCheck the exits.";
    expect(renderMarkdown(markdown)).toContain("<h2>Before you start</h2>");
    expect(markdownHeadingLevels(markdown)).toEqual([1]);
    expect(plainText(markdown)).toBe("Check the exits.");
  });

  test("an image inside indented code is code, not an image without alt text", () => {
    const markdown = "Write it like this:\n\n    ![](diagram.png)\n";
    expect(renderMarkdown(markdown)).not.toContain("<img");
    expect(markdownImages(markdown)).toEqual([]);
  });

  test("a reference-style image is an image, with its alt text and the referenced URL", () => {
    const markdown = "![Fire exit plan][plan]\n\n[plan]: https://example.com/plan.png";
    expect(renderMarkdown(markdown)).toContain('alt="Fire exit plan"');
    expect(markdownImages(markdown)).toEqual([{ alt: "Fire exit plan", url: "https://example.com/plan.png" }]);
    const missingAlt = "![][plan]\n\n[plan]: https://example.com/plan.png";
    expect(markdownImages(missingAlt)).toEqual([{ alt: "", url: "https://example.com/plan.png" }]);
  });

  test("prose keeps link text and list items as lines, and drops code, images and URLs", () => {
    const markdown = "## Steps\n\n- Read the [plan](https://example.com/p) first\n- Run `npm test` now\n\n```\nignored code\n```\n\nSee https://example.com/x today.";
    expect(plainText(markdown)).toBe("Read the plan first\nRun now\nSee today.");
  });
});
