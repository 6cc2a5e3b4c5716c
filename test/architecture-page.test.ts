/**
 * The learner's page has two sides that must not lean on each other: the renderer (`render/`, server
 * code that writes the markup) and the player (`player/`, browser code built into `player/dist`). What
 * they share — class and `data-` names, the runtime API and its events, the configuration and text
 * shapes — lives in `page-contract/`, which both import and which imports neither. These tests fail
 * naming the file and the import that crosses.
 */
import { expect, test } from "bun:test";
import { relative } from "node:path";
import { importsOf, sourceFiles, srcRoot } from "./support/source-graph.ts";

const edges = sourceFiles(srcRoot).flatMap((file) => {
  const from = relative(srcRoot, file);
  return importsOf(file).map((to) => ({ from, to }));
});
const under = (path: string, folder: string) => path.startsWith(`${folder}/`);
const show = (list: { from: string; to: string }[]) => list.map((edge) => `${edge.from} imports ${edge.to}`);

test("the graph sees the page's known edges: the renderer reads the contract and embeds the built bundles", () => {
  expect(edges).toContainEqual({ from: "render/page.ts", to: "page-contract/markup-names.ts" });
  expect(edges).toContainEqual({ from: "render/player-bundles.ts", to: "player/dist/course-full.js.txt" });
  expect(edges.some((edge) => under(edge.from, "player") && under(edge.to, "page-contract"))).toBe(true);
});

test("the player imports only its own modules and page-contract/: no server module reaches the browser", () => {
  const wrong = edges.filter((edge) => under(edge.from, "player") && !under(edge.to, "player") && !under(edge.to, "page-contract"));
  expect(show(wrong)).toEqual([]);
});

test("the renderer imports nothing of the player but the built bundles it embeds as text (player/dist/*.txt)", () => {
  const wrong = edges.filter((edge) => under(edge.from, "render") && under(edge.to, "player") && !/^player\/dist\/[^/]+\.txt$/.test(edge.to));
  expect(show(wrong)).toEqual([]);
});

test("page-contract/ imports neither side, nor anything outside itself", () => {
  const wrong = edges.filter((edge) => under(edge.from, "page-contract") && !under(edge.to, "page-contract"));
  expect(show(wrong)).toEqual([]);
});
