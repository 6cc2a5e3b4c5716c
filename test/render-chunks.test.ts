/**
 * The course page streamed piece by piece (`renderCourseHtmlChunks`): the pieces make exactly the
 * document `renderCourseHtml` returns, each block is rendered only when its piece is read, and an
 * export deflates the pieces as they come, so a large course is never held as one string.
 */
import { describe, expect, test } from "bun:test";
import { buildPackage } from "../src/export/build-package.ts";
import { renderCourseHtml, renderCourseHtmlChunks, type RenderableCourse, type RenderOptions } from "../src/render/index.ts";
import { generatedCourse, memoryAssets, sampleCourse, unzipPackage } from "./support/export-course.ts";
import { ClassName } from "../src/page-contract/markup-names.ts";

/** Each render has its own CSP nonce; everything else must match byte for byte. */
const withoutNonce = (markup: string): string =>
  markup
    .replace(/nonce-[A-Za-z0-9+/=]+|nonce="[A-Za-z0-9+/=]+"/g, "nonce")
    // So are the answer keys' salt and sealing key (issue 21), and with them the hashes and seals.
    .replace(/data-(key|sealed)="[^"]*"/g, "data-$1")
    .replace(/"(salt|sealKey)":"[0-9a-f]+"/g, "$1");

const options: RenderOptions = { mode: "package", assetUrl: (assetId) => `assets/${assetId}.png`, lmsAdapter: { script: "window.adapter = true;", config: { lessonId: "les_1" } }, connectSources: ["https:"] };

describe("streamed course page", () => {
  test("the pieces are the start, each lesson's opening, one per block and its closing, then the end, and join to the same document", () => {
    for (const course of [sampleCourse(), generatedCourse(40)]) {
      const pieces = [...renderCourseHtmlChunks(course, options)];
      const lessons = course.modules.flatMap((module) => module.lessons);
      const blockCount = lessons.reduce((count, lesson) => count + (lesson.blocks?.length ?? 0), 0);
      expect(pieces).toHaveLength(2 + lessons.length * 2 + blockCount);
      expect(lessons.length).toBeGreaterThan(0);
      expect(pieces[0]).toStartWith("<!doctype html>");
      expect(pieces.filter((piece) => piece.startsWith(`<article class="${ClassName.page} ${ClassName.lesson}"`))).toHaveLength(lessons.length);
      expect(pieces.filter((piece) => piece.endsWith("</article>"))).toHaveLength(lessons.length);
      expect(pieces.at(-1)).toEndWith("</html>\n");
      expect(withoutNonce(pieces.join(""))).toBe(withoutNonce(renderCourseHtml(course, options)));
    }
  });

  test("a lesson's blocks are rendered only when their pieces are read", () => {
    const course = generatedCourse(20);
    const touched: string[] = [];
    const watched: RenderableCourse = {
      ...course,
      modules: course.modules.map((module) => ({
        ...module,
        lessons: module.lessons.map((lesson) => ({
          ...lesson,
          get blocks() {
            touched.push(lesson.id);
            return lesson.blocks;
          },
        })),
      })),
    };
    const pieces = renderCourseHtmlChunks(watched, options)[Symbol.iterator]();
    pieces.next();
    pieces.next();
    // The start and the first lesson's opening are out; its first block is next.
    expect(touched).toEqual([]);
    pieces.next();
    expect(touched).toEqual([course.modules[0]?.lessons[0]?.id ?? ""]);
  });

  test("an export deflates the pieces into the same page as the whole string", async () => {
    const course = generatedCourse(300);
    const read = async (renderer: typeof renderCourseHtml | typeof renderCourseHtmlChunks): Promise<string> => {
      const built = await buildPackage(course, { format: "html", assets: memoryAssets({}), renderer });
      return new TextDecoder().decode((await unzipPackage(built.stream))["index.html"]);
    };
    const streamed = await read(renderCourseHtmlChunks);
    expect(streamed.length).toBeGreaterThan(4 * 64 * 1024);
    expect(streamed).toEndWith("</html>\n");
    expect(withoutNonce(streamed)).toBe(withoutNonce(await read(renderCourseHtml)));
  });
});
