/**
 * Small functions (STYLE.md): no function in `src/` runs over 150 lines, measured by the TypeScript
 * compiler's own parse from a function's first line to its last. Data written as code (the OpenAPI
 * document) and the composition root are exempt by file; the long functions outside the player and the
 * renderer that predate this rule are listed by name, so the list can only shrink: a new long function
 * fails, and so does an entry whose function has since been cut down.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import ts from "typescript";
import { sourceFiles, srcRoot } from "./support/source-graph.ts";

const maxLines = 150;

/** Files whose long functions are data or wiring, not logic to split. */
const exemptFiles: Readonly<Record<string, string>> = {
  "discovery/openapi-document.ts": "data: the OpenAPI document, one literal",
  "service.ts": "the composition root: wiring every store, adapter and route in one readable place",
};

/** Long functions that predate the rule, as `file#function`; each one split is taken off this list. */
const knownOffenders: readonly string[] = [];

/** The page's own long functions still to split; the page test allows only these. */
const pageNotYetSplit: readonly string[] = [];

interface LongFunction {
  readonly where: string;
  readonly name: string;
  readonly lines: number;
}

function functionName(node: ts.SignatureDeclaration, file: ts.SourceFile): string {
  if (node.name) return node.name.getText(file);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText(file);
  return "(anonymous)";
}

/** Every function-like node with a body over the limit, in every `.ts` file under `src/`. */
function longFunctions(): LongFunction[] {
  const found: LongFunction[] = [];
  for (const path of sourceFiles(srcRoot)) {
    const file = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && "body" in node && node.body) {
        const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
        const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
        if (last - first + 1 > maxLines) found.push({ where: relative(srcRoot, path), name: functionName(node, file), lines: last - first + 1 });
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found;
}

const long = longFunctions();
const key = (found: LongFunction) => `${found.where}#${found.name}`;

test("the measure sees long functions: the exempt OpenAPI document's builder is over the limit", () => {
  expect(long.some((found) => found.where === "discovery/openapi-document.ts")).toBe(true);
});

const onThePage = (found: LongFunction) => /^(player|page-contract|render)\//.test(found.where);

test(`no function in src/player, src/page-contract or src/render is over ${maxLines} lines`, () => {
  const page = long.filter((found) => onThePage(found) && !pageNotYetSplit.includes(key(found)));
  expect(page.map((found) => `${key(found)} (${found.lines} lines)`)).toEqual([]);
});

test(`no function elsewhere in src/ is over ${maxLines} lines, but the exempt files and the known offenders`, () => {
  const wrong = long.filter((found) => !onThePage(found) && !(found.where in exemptFiles) && !knownOffenders.includes(key(found)));
  expect(wrong.map((found) => `${key(found)} (${found.lines} lines)`)).toEqual([]);
});

test("every known offender is still long: one that has been split is taken off the list", () => {
  expect([...knownOffenders, ...pageNotYetSplit].filter((offender) => !long.some((found) => key(found) === offender))).toEqual([]);
});
