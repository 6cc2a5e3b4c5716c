/**
 * The two protocol eras meet at one seam (issue 40): `mcp/endpoint.ts` alone tells a request's era and
 * hands it to the 2025-11-25 leg (sessions and their streams) or to the 2026-07-28 leg (the SDK's
 * handler, the tasks extension, listen). The 2025 files reach nothing of the 2026 leg or of the tasks,
 * not even through another module, so either leg can change without the other.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { importsOf, sourceFiles, srcRoot } from "./support/source-graph.ts";

const files = sourceFiles(srcRoot).map((file) => relative(srcRoot, file));
const graph = new Map(files.map((file) => [file, importsOf(join(srcRoot, file))]));

const sessionFiles = files.filter((file) => /^mcp\/(sessions|session-[^/]*|event-streams?)\.ts$/.test(file));
const modernLeg = (file: string) => file === "mcp/endpoint.ts" || file === "mcp/modern-leg.ts" || file === "mcp/modern-listen.ts" || file.startsWith("mcp/tasks/");

/** Every module `file` reaches through its imports, itself excluded. */
function reachedFrom(file: string): Set<string> {
  const seen = new Set<string>();
  const walk = (from: string) => {
    for (const next of graph.get(from) ?? []) {
      if (seen.has(next)) continue;
      seen.add(next);
      walk(next);
    }
  };
  walk(file);
  return seen;
}

test("the 2025 session files are found", () => {
  expect(sessionFiles).toEqual(expect.arrayContaining(["mcp/sessions.ts", "mcp/session-table.ts", "mcp/session-transport.ts", "mcp/event-stream.ts", "mcp/event-streams.ts"]));
});

test("the 2025 session files reach nothing of the 2026-07-28 leg, the endpoint or the tasks, directly or not", () => {
  const crossings = sessionFiles.flatMap((file) => [...reachedFrom(file)].filter(modernLeg).map((to) => `${file} reaches ${to}`));
  expect(crossings).toEqual([]);
});

test("only the endpoint tells the era: it alone uses the SDK's era classification", () => {
  const classifiers = files.filter((file) => /\b(isLegacyRequest|PROTOCOL_VERSION_META_KEY)\b/.test(readFileSync(join(srcRoot, file), "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "")));
  expect(classifiers).toEqual(["mcp/endpoint.ts"]);
});

test("the /mcp route hands every request to the endpoint, and only the endpoint and the composition root see both legs", () => {
  expect(graph.get("mcp/http-route.ts")).toContain("mcp/endpoint.ts");
  expect(graph.get("mcp/http-route.ts")).not.toContain("mcp/sessions.ts");
  expect(graph.get("mcp/http-route.ts")).not.toContain("mcp/modern-leg.ts");
  const seeingBoth = files.filter((file) => {
    const imports = graph.get(file) ?? [];
    return imports.includes("mcp/sessions.ts") && imports.includes("mcp/modern-leg.ts");
  });
  expect(seeingBoth.sort()).toEqual(["mcp/endpoint.ts", "service.ts"]);
});

test("tasks live in one folder: no task module is left beside it", () => {
  expect(files.filter((file) => /^mcp\/[^/]*task[^/]*\.ts$/.test(file))).toEqual([]);
});
