/**
 * No import cycle in `src/`: every module can be read, tested and replaced from the bottom up. The
 * test walks the import graph (static imports, re-exports, dynamic `import()`, type-only imports
 * too, since a cycle of types is still two modules that only make sense together) and names each
 * cycle it finds as a path `a.ts → b.ts → a.ts`.
 */
import { expect, test } from "bun:test";
import { relative } from "node:path";
import { importsOf, sourceFiles, srcRoot } from "./support/source-graph.ts";

const graph = new Map(sourceFiles(srcRoot).map((file) => [relative(srcRoot, file), importsOf(file)]));

/** Each cycle once, as the path from its first module round to it again (Tarjan-free depth-first walk). */
function cycles(): string[] {
  const found = new Set<string>();
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (module: string) => {
    state.set(module, "open");
    stack.push(module);
    for (const next of graph.get(module) ?? []) {
      if (state.get(next) === "open") {
        const loop = stack.slice(stack.indexOf(next));
        // The same cycle found from another module is the same cycle: key it by its smallest rotation.
        const start = loop.indexOf([...loop].sort()[0]!);
        const rotated = [...loop.slice(start), ...loop.slice(0, start)];
        found.add([...rotated, rotated[0]].join(" → "));
      } else if (!state.has(next) && graph.has(next)) visit(next);
    }
    stack.pop();
    state.set(module, "done");
  };
  for (const module of [...graph.keys()].sort()) if (!state.has(module)) visit(module);
  return [...found].sort();
}

test("the import graph is read: known edges are seen", () => {
  expect(graph.get("service.ts")).toContain("store/sqlite/store.ts");
  expect(graph.get("mcp/rate-limit.ts")).toContain("http/jsonrpc-error.ts");
});

test("no import cycle in src/", () => {
  expect(cycles()).toEqual([]);
});

test("the cycle finder finds a cycle it is shown", () => {
  graph.set("x/a.ts", ["x/b.ts"]);
  graph.set("x/b.ts", ["x/c.ts"]);
  graph.set("x/c.ts", ["x/a.ts"]);
  try {
    expect(cycles()).toEqual(["x/a.ts → x/b.ts → x/c.ts → x/a.ts"]);
  } finally {
    for (const name of ["x/a.ts", "x/b.ts", "x/c.ts"]) graph.delete(name);
  }
});
