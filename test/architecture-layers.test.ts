/**
 * The layers point one way (developers' guide): `http` → `auth` → `mcp` → use cases (`authoring`,
 * `review`, `export`, `import`) → `render`, `store`. Heavy work (`workers/`) runs the use cases'
 * parsers and renderers on other threads: use cases see only its contract (`workers/heavy-work.ts`,
 * the job table's types), the composition root alone starts the pool, and the worker entry loads
 * parsing and rendering code, never a store implementation, a transport or an adapter. These tests read every `import`/`export … from` in
 * `src/` and fail naming the file and the import that runs back up, so a wrong arrow is caught when it
 * is written rather than when a second store or a second adapter needs the code below it.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { importsOf, sourceFiles, srcRoot } from "./support/source-graph.ts";

/** Every import edge in `src/`, as paths relative to `src/` (`authoring/services.ts` → `store/types.ts`). */
const edges = sourceFiles(srcRoot).flatMap((file) => {
  const from = relative(srcRoot, file);
  return importsOf(file).map((to) => ({ from, to }));
});

const under = (path: string, folders: readonly string[]) => folders.some((folder) => path.startsWith(`${folder}/`));
const show = (list: { from: string; to: string }[]) => list.map((edge) => `${edge.from} imports ${edge.to}`);

/** A folder under `src/store/` is one store implementation (`sqlite/`, later `postgres/`); files directly in `store/` are its contracts. */
/** `store/sqlite/`, `store/postgres/`…; `store/sql/` is the relational model both share, not an implementation. */
const isStoreImplementation = (path: string) => /^store\/(?!sql\/)[^/]+\//.test(path);

const belowMcp = ["authoring", "export", "import", "review", "formats", "codecs", "render", "store", "auth"] as const;
const useCases = ["authoring", "review", "export", "import"] as const;

test("the import graph is read: src/ has files in every layer and the parser sees known edges", () => {
  for (const folder of [...belowMcp, "mcp", "discovery"]) {
    expect(edges.some((edge) => edge.from.startsWith(`${folder}/`))).toBe(true);
  }
  // Known edges of each import form, so a parser that silently found nothing would fail here.
  expect(edges).toContainEqual({ from: "service.ts", to: "store/sqlite/store.ts" });
  expect(edges).toContainEqual({ from: "authoring/services.ts", to: "store/packages.ts" });
  expect(edges).toContainEqual({ from: "formats/package/types.ts", to: "store/packages.ts" });
});

test("no file under authoring/, export/, import/, review/, formats/, codecs/, render/, store/ or auth/ imports mcp/", () => {
  expect(show(edges.filter((edge) => under(edge.from, belowMcp) && under(edge.to, ["mcp"])))).toEqual([]);
});

test("the domain (authoring/) imports neither config.ts, a store implementation, nor export/", () => {
  const wrong = edges.filter(
    (edge) =>
      under(edge.from, ["authoring"]) && (edge.to === "config.ts" || isStoreImplementation(edge.to) || under(edge.to, ["export"])),
  );
  expect(show(wrong)).toEqual([]);
});

test("no use case, renderer, store or worker reads config.ts: configuration reaches them through the composition root", () => {
  const wrong = edges.filter((edge) => under(edge.from, [...useCases, "render", "store", "workers"]) && edge.to === "config.ts");
  expect(show(wrong)).toEqual([]);
});

test("only the composition root (service.ts) picks a store implementation: nothing else imports store/<implementation>/", () => {
  const implementationOf = (path: string) => path.split("/").slice(0, 2).join("/");
  const wrong = edges.filter((edge) => edge.from !== "service.ts" && isStoreImplementation(edge.to) && implementationOf(edge.from) !== implementationOf(edge.to));
  expect(show(wrong)).toEqual([]);
});

test("only the composition root (service.ts) constructs the package storage; everything else sees the PackageStorage contract", () => {
  const constructing = sourceFiles(srcRoot)
    .filter((file) => /\bnew ExportStore\(/.test(readFileSync(file, "utf8")))
    .map((file) => relative(srcRoot, file));
  expect(constructing).toEqual(["service.ts"]);
});

test("render/ and store/ import no use case, adapter or transport (render may read the content model in authoring/schemas/)", () => {
  const above = [...useCases, "mcp", "http", "auth", "discovery", "dev-identity-provider"];
  const wrong = edges.filter(
    (edge) =>
      under(edge.from, ["render", "store"]) &&
      (under(edge.to, above) || ["app.ts", "service.ts"].includes(edge.to)) &&
      !(under(edge.from, ["render"]) && under(edge.to, ["authoring/schemas"])),
  );
  expect(show(wrong)).toEqual([]);
});

test("only the composition root (service.ts) starts the heavy-work pool: nothing else imports workers/pool.ts or the worker entry", () => {
  const wrong = edges.filter((edge) => ["workers/pool.ts", "workers/worker-entry.ts"].includes(edge.to) && edge.from !== "service.ts");
  expect(show(wrong)).toEqual([]);
  expect(edges).toContainEqual({ from: "service.ts", to: "workers/pool.ts" });
});

test("workers/ imports no transport, adapter or store implementation (it sits under the use cases, beside the stores)", () => {
  const above = ["mcp", "http", "auth", "discovery", "dev-identity-provider"];
  const wrong = edges.filter((edge) => under(edge.from, ["workers"]) && (under(edge.to, above) || isStoreImplementation(edge.to) || ["app.ts", "service.ts"].includes(edge.to)));
  expect(show(wrong)).toEqual([]);
});

/** Every module a file loads, following imports (type-only ones too: the check is the stricter for it). */
function closureOf(start: string): Set<string> {
  const seen = new Set<string>();
  const pending = [start];
  while (pending.length > 0) {
    const module = pending.pop() as string;
    if (seen.has(module)) continue;
    seen.add(module);
    pending.push(...edges.filter((edge) => edge.from === module).map((edge) => edge.to));
  }
  return seen;
}

test("a worker thread loads parsing and rendering code only: nothing the worker entry reaches is a store implementation, a transport, an adapter or the composition root", () => {
  const reached = closureOf("workers/worker-entry.ts");
  expect(reached.has("render/index.ts")).toBe(true);
  expect(reached.has("import/plan-import.ts")).toBe(true);
  const wrong = [...reached].filter(
    (path) => isStoreImplementation(path) || under(path, ["mcp", "http", "auth", "discovery", "dev-identity-provider", "metrics"]) || ["app.ts", "service.ts", "config.ts", "main.ts"].includes(path),
  );
  expect(wrong).toEqual([]);
});

test("the OpenAPI schema check (ajv) is loaded by its own thread only, never by what the service imports", () => {
  const reached = closureOf("service.ts");
  expect(reached.has("discovery/openapi-check-thread.ts")).toBe(true);
  expect(reached.has("discovery/openapi-check.ts")).toBe(false);
  expect(closureOf("discovery/openapi-check-worker.ts").has("discovery/openapi-check.ts")).toBe(true);
});

/** The runtime-neutral core (design card): web standards only, Bun's APIs stay in the adapters that pick the runtime. */
const runtimeNeutral = ["authoring", "review", "render", "export", "import", "formats", "codecs", "mcp", "auth", "http", "discovery"] as const;
/** The package storage writes files and zips on the host; it is the export's adapter, not its core. */
const runtimeAdapters = ["export/export-store.ts"];
const runtimeSpecific = /\bBun\.|["']bun(?::[\w-]+)?["']|\bBuffer\b/;
const isComment = (line: string) => /^\s*(?:\/\/|\/\*|\*)/.test(line);

test("the core (authoring/, review/, render/, export/, import/, formats/, codecs/, mcp/, auth/, http/, discovery/) uses no Bun.*, bun:* or Buffer", () => {
  const files = sourceFiles(srcRoot).filter((file) => {
    const path = relative(srcRoot, file);
    return under(path, runtimeNeutral) && !runtimeAdapters.includes(path);
  });
  expect(files.length).toBeGreaterThan(50);
  const offenders = files.flatMap((file) =>
    readFileSync(file, "utf8")
      .split("\n")
      .flatMap((line, index) => (!isComment(line) && runtimeSpecific.test(line) ? [`${relative(srcRoot, file)}:${index + 1}: ${line.trim()}`] : [])),
  );
  expect(offenders).toEqual([]);
});

test("the runtime check sees what it looks for: Bun's APIs are found where they belong", () => {
  const uses = (path: string) => readFileSync(join(srcRoot, path), "utf8").split("\n").some((line) => !isComment(line) && runtimeSpecific.test(line));
  expect(uses("service.ts")).toBe(true);
  expect(uses("store/sqlite/open.ts")).toBe(true);
});

/** Statements (SELECT, INSERT, UPDATE, DELETE) in a file's "…" and `…` strings, whitespace collapsed. */
function statementsIn(file: string): string[] {
  const quoted = [...readFileSync(file, "utf8").matchAll(/(["`])((?:(?!\1)[\s\S])*)\1/g)].map((match) => match[2]!.replace(/\s+/g, " ").trim());
  return quoted.filter((text) => /^(SELECT|INSERT|UPDATE|DELETE)\b/.test(text));
}

test("the store's SQL is written once: no statement appears in both store/sqlite/ and store/postgres/ (migrations aside)", () => {
  const statementsOf = (folder: string) =>
    new Set(sourceFiles(join(srcRoot, "store", folder)).filter((file) => !file.endsWith("migrations.ts")).flatMap(statementsIn));
  const sqlite = statementsOf("sqlite");
  const postgres = statementsOf("postgres");
  expect(statementsIn(join(srcRoot, "store", "sql", "transaction.ts")).length).toBeGreaterThan(20);
  expect([...sqlite].filter((statement) => postgres.has(statement))).toEqual([]);
});

/** The small helpers every layer may use (README, Layout). */
const sharedHelpers = ["course-authoring-error.ts", "bytes.ts", "notice.ts", "course-uris.ts", "unknown-arguments.ts", "exhaustive.ts", "json-response.ts"];

test("codecs/ (XML, zip, inflate, JSON, PDF, media sniffing, the event-loop yielder) import nothing but each other and the shared helpers", () => {
  const wrong = edges.filter((edge) => under(edge.from, ["codecs"]) && !under(edge.to, ["codecs"]) && !sharedHelpers.includes(edge.to));
  expect(edges.filter((edge) => under(edge.from, ["codecs"])).length).toBeGreaterThan(5);
  expect(show(wrong)).toEqual([]);
});

test("formats/ (one folder per exchange format, both directions) import no pipeline (import/, export/, review/), no domain but the content model, and no adapter", () => {
  const pipelinesAndAbove = ["import", "export", "review", "mcp", "http", "auth", "discovery"];
  const wrong = edges.filter(
    (edge) =>
      under(edge.from, ["formats"]) &&
      (under(edge.to, pipelinesAndAbove) || (under(edge.to, ["authoring"]) && !under(edge.to, ["authoring/schemas"])) || ["app.ts", "service.ts", "config.ts"].includes(edge.to)),
  );
  expect(edges.filter((edge) => under(edge.from, ["formats"])).length).toBeGreaterThan(20);
  expect(show(wrong)).toEqual([]);
});

test("each exchange format has one home: QTI, Moodle XML, GIFT, Office, XLIFF and the review copy are folders under formats/ with both directions", () => {
  const files = sourceFiles(join(srcRoot, "formats")).map((file) => relative(join(srcRoot, "formats"), file));
  for (const [folder, read, write] of [
    ["qti", "qti-read.ts", "qti-items.ts"],
    ["moodle-xml", "moodle-read.ts", "moodle-write.ts"],
    ["gift", "gift-read.ts", "gift-write.ts"],
    ["xliff", "xliff-read.ts", "xliff-write.ts"],
    ["review-copy", "read-review-copy.ts", "review-docx.ts"],
    ["course-json", "json-read.ts", "json-write.ts"],
  ] as const) {
    expect(files).toContain(`${folder}/${read}`);
    expect(files).toContain(`${folder}/${write}`);
  }
  // Pipelines keep only pipelines: no reader or writer of a format is left in import/ or export/.
  const stray = sourceFiles(srcRoot)
    .map((file) => relative(srcRoot, file))
    .filter((path) => /^(import|export|review)\/.*(qti|moodle|gift|xliff|docx|pptx|manifest)/.test(path));
  expect(stray).toEqual([]);
});

test("per-type mappings are exhaustive: no switch over a block, question or interaction type ends in a silent default", () => {
  // A switch whose cases are block or question types must end in `unhandled(…)` (src/exhaustive.ts), so a new type fails to compile there.
  const typeCase = /case "(single_choice|multiple_choice|true_false|fill_in_blank|matching|ordering|sorting|scenario|labeled_graphic|accordion|flashcards)":/;
  const offenders = sourceFiles(srcRoot).flatMap((file) => {
    const text = readFileSync(file, "utf8");
    return [...text.matchAll(/switch \(([^)]*)\) \{([\s\S]*?)\n {0,6}\}\n/g)]
      .filter((match) => typeCase.test(match[2]!) && /default:(?![\s\S]*unhandled\()/.test(match[2]!))
      .map((match) => `${relative(srcRoot, file)}: switch (${match[1]})`);
  });
  expect(offenders).toEqual([]);
});

test("the graded types tools and formats read (questionTypes) are exactly the block types whose role is question", async () => {
  const { blockRoles } = await import("../src/authoring/schemas/blocks.ts");
  const { questionTypes } = await import("../src/authoring/schemas/question-blocks.ts");
  const questions = Object.entries(blockRoles).flatMap(([type, role]) => (role === "question" ? [type] : []));
  expect([...questionTypes].sort() as string[]).toEqual(questions.sort());
});
