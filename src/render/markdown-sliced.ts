/**
 * markdown-it's `render`, in time slices. markdown-it renders a field in one synchronous call, and a
 * block of many large fields (200 flashcard backs) held the event loop for all of them at once. This runs the same core chain with the same rules, in the same order,
 * and gives the event loop a turn between top-level blocks of the source, between inline runs and
 * between rendered tokens once a slice is used up. The output is exactly `markdown.render(source, env)`:
 * the block loop is markdown-it's own (`ParserBlock.tokenize`) at the top level, and every reference
 * definition is still read before any inline run, as markdown-it does.
 */
import type { MarkdownIt as Markdown, StateBlock, StateCore, Token } from "markdown-it";
import type { SlicePause } from "../codecs/event-loop.ts";

type Env = Record<string, unknown>;

async function turn(pause: SlicePause): Promise<void> {
  const waiting = pause();
  if (waiting) await waiting;
}

/** `ParserBlock.tokenize(state, 0, lineMax)` with a slice check before each top-level block. */
async function tokenizeBlocks(state: StateBlock, pause: SlicePause): Promise<void> {
  const rules = state.md.block.ruler.getRules("");
  const maxNesting = state.md.options.maxNesting ?? 100;
  const endLine = state.lineMax;
  let line = state.line;
  let hasEmptyLines = false;
  while (line < endLine) {
    await turn(pause);
    state.line = line = state.skipEmptyLines(line);
    if (line >= endLine || state.sCount[line]! < state.blkIndent) break;
    if (state.level >= maxNesting) {
      state.line = endLine;
      break;
    }
    const before = state.line;
    if (!rules.some((rule) => rule(state, line, endLine, false)) || state.line <= before) throw new Error("markdown: no block rule advanced the line");
    state.tight = !hasEmptyLines;
    if (state.isEmpty(state.line - 1)) hasEmptyLines = true;
    line = state.line;
    if (line < endLine && state.isEmpty(line)) {
      hasEmptyLines = true;
      line++;
      state.line = line;
    }
  }
}

async function parseBlocks(core: StateCore, pause: SlicePause): Promise<void> {
  if (core.inlineMode || !core.src) return;
  const md = core.md;
  await tokenizeBlocks(new md.block.State(core.src, md, core.env, core.tokens), pause);
}

async function parseInlines(core: StateCore, pause: SlicePause): Promise<void> {
  for (const token of core.tokens) {
    if (token.type !== "inline") continue;
    await turn(pause);
    core.md.inline.parse(token.content, core.md, core.env, token.children ?? (token.children = []));
  }
}

/** `Renderer.render` with a slice check between tokens. */
async function renderTokens(md: Markdown, tokens: Token[], env: Env, pause: SlicePause): Promise<string> {
  const renderer = md.renderer;
  const rules = renderer.rules;
  let result = "";
  for (let index = 0; index < tokens.length; index++) {
    if (index % 64 === 0) await turn(pause);
    const token = tokens[index]!;
    const rule = rules[token.type];
    if (token.type === "inline") result += renderer.renderInline(token.children ?? [], md.options, env);
    else if (rule !== undefined) result += rule(tokens, index, md.options, env, renderer);
    else result += renderer.renderToken(tokens, index, md.options);
  }
  return result;
}

/** `markdown.render(source, env)`, yielding to the event loop whenever `pause` says a slice is used up. */
export async function renderMarkdownSliced(markdown: Markdown, source: string, env: Env, pause: SlicePause): Promise<string> {
  const core = new markdown.core.State(source, markdown, env);
  for (const rule of markdown.core.ruler.__rules__) {
    if (!rule.enabled) continue;
    if (rule.name === "block") await parseBlocks(core, pause);
    else if (rule.name === "inline") await parseInlines(core, pause);
    else rule.fn(core);
  }
  return renderTokens(markdown, core.tokens, env, pause);
}
