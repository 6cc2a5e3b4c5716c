/**
 * Builds the player (`src/player`, browser code only) into minified bundles in `src/player/dist`, one
 * per feature set a page needs and one per LMS adapter, and the page's style sheets, minified. The server embeds them with
 * `import … with { type: "text" }`, so `bun build --compile` carries them into the binary, where
 * `Bun.build` does not exist. Run by `npm install` (prepare), `bun run start`, the test preload and the
 * Dockerfile; the output is generated, never committed.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { minify as terserMinify } from "terser";
import { interactionStyles } from "./render/interaction-styles.ts";
import { printStyles } from "./render/print-styles.ts";
import { questionTypeStyles } from "./render/question-type-styles.ts";
import { quizStyles } from "./render/quiz-styles.ts";
import { shortenStyleVariables } from "./render/style-variables.ts";
import { courseStyles } from "./render/styles.ts";

export const playerEntries = ["course-base", "course-quiz", "course-interactions", "course-full", "question-types", "scorm", "cmi5", "lesson-launch", "review", "view-course-preview", "view-export", "view-files", "view-results"] as const;

/** The page's style sheets, minified by Bun's CSS minifier into `<name>.css.txt` (the theme's few rules are written per course). */
export const playerStyles = { "styles-course": courseStyles, "styles-print": printStyles, "styles-interactions": interactionStyles, "styles-quiz": quizStyles, "styles-question-types": questionTypeStyles } as const;

const playerFolder = join(import.meta.dir, "player");
export const playerOutputFolder = join(playerFolder, "dist");

export async function buildPlayer(): Promise<void> {
  const result = await Bun.build({
    entrypoints: playerEntries.map((name) => join(playerFolder, "entries", `${name}.ts`)),
    target: "browser",
    format: "iife",
    minify: true,
    splitting: false,
    sourcemap: "none",
  });
  if (!result.success) throw new AggregateError(result.logs, "the player did not build");
  mkdirSync(playerOutputFolder, { recursive: true });
  for (const output of result.outputs) {
    const name = output.path.split(/[\\/]/).at(-1)!.replace(/\.js$/, "");
    // `.js.txt`: a text import that `player-bundles.d.ts` types, never a module TypeScript resolves.
    const bundle = await output.text();
    writeOutput(`${name}.js.txt`, await shrink(bundle, name));
    writeOutput(`${name}.js.bun.txt`, shrinkKey(bundle));
  }
  const sources = mkdtempSync(join(tmpdir(), "player-styles-"));
  try {
    for (const [name, css] of Object.entries(playerStyles)) {
      const source = join(sources, `${name}.css`);
      writeFileSync(source, css);
      const styles = await Bun.build({ entrypoints: [source], minify: true });
      if (!styles.success || !styles.outputs[0]) throw new AggregateError(styles.logs, `the ${name} styles did not build`);
      writeOutput(`${name}.css.txt`, shortenStyleVariables(tidyBunStyles((await styles.outputs[0].text()).trim())));
    }
  } finally {
    rmSync(sources, { recursive: true, force: true });
  }
}

/** The body's font stack as `styles.ts` writes it, and as Bun's CSS minifier widens it for browsers without `system-ui`. */
const authoredFontStack = "system-ui,-apple-system,Segoe UI,Roboto,Noto Sans,sans-serif";
const widenedFontStack = "system-ui,-apple-system,BlinkMacSystemFont,Segoe UI,Roboto,Noto Sans,Ubuntu,Cantarell,Helvetica Neue,sans-serif";

/**
 * What Bun's CSS minifier leaves that no browser needs: a space after `align-items:`, beside any
 * `color-scheme` the two variables its `light-dark()` lowering reads (the sheets use no `light-dark()`),
 * and the four names it adds to a `system-ui` font stack for browsers that predate `system-ui` (Firefox
 * before 92, 2021); every browser the player supports reads `system-ui`, so the stack ships as written.
 */
export function tidyBunStyles(css: string): string {
  return css.replaceAll("align-items: ", "align-items:").replace("--buncss-light:initial;--buncss-dark: ;", "").replaceAll(widenedFontStack, authoredFontStack);
}

// pure_getters: no player code reads a property for its side effect (no getters of its own, no layout
// reads to force a reflow). unsafe_arrows: the bundles call no function of their own with `new`, read
// no `prototype` or `arguments`, and terser keeps any function that uses `this`. Left out on purpose:
// booleans_as_integers (the LMS reports carry true/false) and unsafe (e.g. its String(x) rewrite).
// hoist_funs: moves function declarations to the top of their scope, where the engine hoists them
// anyway; the module-level `var`s between them then join into one statement.
const terserOptions = { ecma: 2020, compress: { ecma: 2020, passes: 3, pure_getters: true, unsafe_arrows: true, hoist_funs: true }, mangle: true, format: { ecma: 2020 } } as const;

/** What the pass's result depends on: Bun's output and the options (so changing either runs it again). */
function shrinkKey(bundle: string): string {
  return `/* terser ${JSON.stringify(terserOptions)}, names by use */\n${bundle}`;
}

/**
 * A second pass over Bun's minified bundle: terser (options checked safe for this code, ES2020 output, which the
 * player's ES2022 code needs no lowering for) finds what Bun's single pass leaves, about 4 % of the course bundles (bench/NOTES.md
 * "Page weight"). Each bundle is one IIFE, so nothing outside it is renamed.
 */
async function shrink(bundle: string, name: string): Promise<string> {
  // The pass costs a few seconds of CPU and every test process builds the player (the preload), so
  // Bun's output is kept beside the result (written after it) and the pass runs again only when that
  // output or the options changed.
  const source = join(playerOutputFolder, `${name}.js.bun.txt`);
  const target = join(playerOutputFolder, `${name}.js.txt`);
  if (existsSync(source) && existsSync(target) && readFileSync(source, "utf8") === shrinkKey(bundle)) return readFileSync(target, "utf8");
  // `format.ast` is terser's documented way to get the tree back (its typings leave it out).
  const compressOnly = { ...terserOptions, mangle: false, format: { ...terserOptions.format, ast: true, code: false } } as Parameters<typeof terserMinify>[1];
  const result = (await terserMinify(bundle, compressOnly)) as { ast?: unknown };
  const ast = result.ast as TerserToplevel | undefined;
  if (!ast) throw new Error(`the ${name} bundle did not minify`);
  return mangleByUse(ast).trim();
}

/** The few methods of terser's syntax tree that its own mangle step calls (its typings leave them out). */
interface TerserScopeNode {
  variables?: Map<string, { references: unknown[]; orig: unknown[] }>;
  block_scope?: TerserScopeNode;
}
interface TerserToplevel {
  figure_out_scope(options: object): void;
  compute_char_frequency(options: object): void;
  mangle_names(options: object): void;
  print_to_string(options: object): string;
  walk(visitor: { _visit(node: TerserScopeNode, descend?: () => void): void }): void;
}

/**
 * terser's mangle step, with one change: in each scope, the most used names are named first. terser
 * hands out names in the order a scope declares them, so the one-letter names went to whatever the
 * bundle declares first; since the player became modules (issue 40), the bundle's one scope holds more
 * names than there are letters, and the functions called most often were left with two (bench/NOTES.md,
 * "The player as modules"). Only which name gets which letter changes, never which names collide.
 */
function mangleByUse(ast: TerserToplevel): string {
  ast.figure_out_scope({});
  const uses = (entry: [string, { references: unknown[]; orig: unknown[] }]) => entry[1].references.length + entry[1].orig.length;
  const byUse = (variables: TerserScopeNode["variables"]) => {
    if (!(variables instanceof Map)) return;
    const entries = [...variables.entries()].sort((a, b) => uses(b) - uses(a));
    variables.clear();
    for (const [key, value] of entries) variables.set(key, value);
  };
  ast.walk({
    _visit(node, descend) {
      byUse(node.variables);
      byUse(node.block_scope?.variables);
      descend?.call(node);
    },
  });
  ast.compute_char_frequency({});
  ast.mangle_names({});
  return ast.print_to_string(terserOptions.format);
}

function writeOutput(fileName: string, text: string): void {
  const target = join(playerOutputFolder, fileName);
  if (existsSync(target) && readFileSync(target, "utf8") === text) return;
  // Written beside and renamed, so a server starting meanwhile reads the old file or the new, never half of one.
  const partial = `${target}.${process.pid}.partial`;
  writeFileSync(partial, text);
  renameSync(partial, target);
}

if (import.meta.main) await buildPlayer();
