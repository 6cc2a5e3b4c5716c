/**
 * Tables within bounds. markdown-it's table rule turns every line after a table's header into a row of
 * as many cells as the header has, each cell its own inline parse and a handful of tokens, and it checks
 * every other block rule against each line to see whether the table ends there: a line of one character
 * costs a whole row, so a field of short lines costs far more than its size (bench/NOTES.md). Real tables
 * in a lesson are a few dozen rows. So a table shows at most `maxTableRows` rows and `maxTableCells`
 * cells; the rows past that are skipped with a linear scan (no tokens, no inline parsing) and a note says
 * how many were left out.
 */
import type { MarkdownIt as Markdown, StateBlock } from "markdown-it";
import { escapeHtml } from "./html.ts";
import { uiText } from "./ui-text.ts";

export const tableBounds = {
  /** Body rows shown per table. */
  maxTableRows: 500,
  /** Body cells shown per table (rows times the header's columns). */
  maxTableCells: 5_000,
} as const;

type BlockRule = (state: StateBlock, startLine: number, endLine: number, silent: boolean) => boolean;

/** The header's column count as the delimiter row gives it (`|---|:-:|` is 2): cells between pipes, edges trimmed. */
function columnCount(state: StateBlock, delimiterLine: number): number {
  const line = state.src.slice(state.bMarks[delimiterLine]! + state.tShift[delimiterLine]!, state.eMarks[delimiterLine]!).trim();
  const cells = line.split("|");
  if (cells[0]?.trim() === "") cells.shift();
  if (cells.at(-1)?.trim() === "") cells.pop();
  return Math.max(1, cells.length);
}

/** The line after the rows that would have continued the table from `line` (the table rule's own end test). */
function endOfRows(state: StateBlock, line: number, endLine: number): number {
  const terminators = state.md.block.ruler.getRules("blockquote");
  let next = line;
  for (; next < endLine; next++) {
    if (state.sCount[next]! < state.blkIndent) break;
    if (state.isEmpty(next)) break;
    if (state.sCount[next]! - state.blkIndent >= 4) break;
    if (terminators.some((rule) => rule(state, next, endLine, true))) break;
  }
  return next;
}

function leftOutNote(state: StateBlock, rows: number, shown: number): void {
  const token = state.push("html_block", "", 0);
  token.content = `<p role="note">${escapeHtml(uiText.tableRowsLeftOut(rows, shown))}</p>\n`;
}

/** markdown-it's `table` rule, stopped after the bounds above; rows past them are skipped and named. */
function boundedTable(table: BlockRule): BlockRule {
  return (state, startLine, endLine, silent) => {
    if (silent || startLine + 2 > endLine) return table(state, startLine, endLine, silent);
    const rows = Math.min(tableBounds.maxTableRows, Math.floor(tableBounds.maxTableCells / columnCount(state, startLine + 1)));
    const stop = Math.min(endLine, startLine + 2 + rows);
    if (!table(state, startLine, stop, false)) return false;
    if (state.line < stop || stop === endLine) return true;
    const end = endOfRows(state, state.line, endLine);
    if (end > state.line) leftOutNote(state, end - state.line, state.line - startLine - 2);
    state.line = end;
    return true;
  };
}

/** Replaces the table rule of `markdown` with the bounded one. */
export function boundTables(markdown: Markdown): void {
  const rule = markdown.block.ruler.__rules__.find((entry) => entry.name === "table");
  if (rule) markdown.block.ruler.at("table", boundedTable(rule.fn), { alt: rule.alt });
}
