/**
 * The player is one typed unit of browser code (`src/player`), built by `Bun.build` into the bundles the
 * pages carry: it type-checks alone with DOM types and without Bun's, imports nothing at run time from
 * outside itself but the page contract it shares with the renderer (`src/page-contract`), and the rest
 * of the service writes no script of its own into a page.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { buildPlayer, playerEntries, playerOutputFolder, playerStyles } from "../src/build-player.ts";
import { courseBundles, featureSetOf, lmsBundles } from "../src/render/player-bundles.ts";
import { importsOf, sourceFiles, srcRoot } from "./support/source-graph.ts";

const playerRoot = join(srcRoot, "player");
const contractRoot = join(srcRoot, "page-contract");

describe("the player", () => {
  test("type-checks on its own, with DOM types and without Bun's or Node's", async () => {
    const check = Bun.spawn([process.execPath, join(import.meta.dir, "..", "node_modules", "typescript", "bin", "tsc"), "--noEmit", "-p", playerRoot], { stdout: "pipe", stderr: "pipe" });
    const output = await new Response(check.stdout).text();
    expect(output).toBe("");
    expect(await check.exited).toBe(0);
  }, 120_000);

  // Bun's and Node's globals are kept out by the player's tsconfig (`types: []`), checked above.
  test("imports at run time only its own modules and the page contract: nothing from Bun, Node or the server", () => {
    const offending: string[] = [];
    // page-contract/ is browser code too (the player's tsconfig checks it), shared with the renderer.
    const isOwn = (path: string) => !relative(playerRoot, path).startsWith("..") || !relative(contractRoot, path).startsWith("..");
    for (const file of sourceFiles(playerRoot).filter((path) => !path.includes(`${join("player", "dist")}`))) {
      const text = readFileSync(file, "utf8");
      for (const match of text.matchAll(/^import\s+(?!type\b)[^;]*?from\s*["']([^"']+)["']/gm)) {
        const specifier = match[1]!;
        if (!specifier.startsWith(".") || !isOwn(join(file, "..", specifier))) offending.push(`${relative(srcRoot, file)}: ${specifier}`);
      }
    }
    expect(offending).toEqual([]);
  });

  test("builds one minified bundle per feature set and adapter, each a plain script the page can run", async () => {
    await buildPlayer();
    for (const name of playerEntries) {
      const source = readFileSync(join(playerOutputFolder, `${name}.js.txt`), "utf8");
      expect(source.startsWith("(()=>{")).toBe(true);
      expect(source.split("\n").length).toBeLessThan(5);
      expect(source).not.toMatch(/\brequire\(|\bimport\(|^import\s|^export\s/m);
      expect(() => new Function(source)).not.toThrow();
    }
    // Every page gets the smallest bundle that has what its blocks need.
    expect(featureSetOf({ quizzes: false, interactions: false })).toBe("course-base");
    expect(featureSetOf({ quizzes: true, interactions: false })).toBe("course-quiz");
    expect(featureSetOf({ quizzes: false, interactions: true })).toBe("course-interactions");
    expect(featureSetOf({ quizzes: true, interactions: true })).toBe("course-full");
    expect(courseBundles["course-base"].length).toBeLessThan(courseBundles["course-quiz"].length);
    expect(courseBundles["course-quiz"].length).toBeLessThan(courseBundles["course-full"].length);
    expect(lmsBundles.scorm.length).toBeGreaterThan(0);
    // The style sheets come minified from Bun's CSS minifier: one line each, no comments.
    for (const name of Object.keys(playerStyles)) {
      const css = readFileSync(join(playerOutputFolder, `${name}.css.txt`), "utf8");
      expect(css.length).toBeGreaterThan(500);
      expect(css).not.toContain("/*");
      expect(css.split("\n").length).toBeLessThan(3);
    }
  });

  test("the rest of the service ships no script of its own: no function source as text, no script in a template string", () => {
    const offending: string[] = [];
    const server = sourceFiles(srcRoot).filter((file) => !file.startsWith(playerRoot));
    for (const file of server) {
      const text = readFileSync(file, "utf8").replace(/^\s*(\/\*\*|\*|\/\/).*$/gm, "");
      if (/\b(install|create)\w*\.toString\(\)/.test(text) || /\(\$\{\w+\.toString\(\)\}\)/.test(text)) offending.push(`${relative(srcRoot, file)}: function source as text`);
      for (const match of text.matchAll(/<script\b([^>]*)>/g)) {
        if (!relative(srcRoot, file).startsWith(join("render", "player-scripts.ts"))) offending.push(`${relative(srcRoot, file)}: <script${match[1]}>`);
      }
    }
    expect(offending).toEqual([]);
    expect(importsOf(join(srcRoot, "render", "player-bundles.ts")).every((path) => path.startsWith(join("player", "dist")))).toBe(true);
  });
});
