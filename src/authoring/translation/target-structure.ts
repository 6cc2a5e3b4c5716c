/**
 * Translators change words, not structure: a unit's target may not bring in links, pictures, HTML or
 * block syntax (headings, lists, quotes, code, tables, rules) that its source text does not have. Both
 * texts are read by markdown-it with the renderer's preset, plus raw HTML and scheme-prefixed bare URLs
 * turned on so that nothing a stricter or later renderer would treat as markup hides as text. A link or
 * picture counts by its destination, so a target can neither add one nor point an existing one elsewhere.
 */
import MarkdownIt, { type Token } from "markdown-it";

const structureParser = new MarkdownIt({ html: true, linkify: true, typographer: false });
// Only `https://…`-style addresses become links: "Node.js" or "z.B." in a sentence must stay words.
structureParser.linkify.set({ fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false });
// Every destination is structure, including those the renderer would drop as unsafe.
structureParser.validateLink = () => true;

/** Block syntax, by token type, with the words an error names it by. */
const blockKinds: Readonly<Record<string, string>> = {
  heading_open: "a heading",
  bullet_list_open: "a bulleted list",
  ordered_list_open: "a numbered list",
  blockquote_open: "a quote",
  fence: "a code fence",
  code_block: "an indented code block",
  table_open: "a table",
  hr: "a thematic break",
};

interface Structure {
  /** Block kinds present, by description (a heading also by its level). */
  blocks: Set<string>;
  /** Inline things that must each come from the source, counted: "link …", "picture …", "HTML …", "reference …". */
  inline: Map<string, number>;
}

function describeDestination(url: string): string {
  const shown = url.length > 80 ? `${url.slice(0, 77)}…` : url;
  return JSON.stringify(shown);
}

function count(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

function visit(tokens: readonly Token[], into: Structure): void {
  for (const token of tokens) {
    const block = blockKinds[token.type];
    if (block) into.blocks.add(token.type === "heading_open" ? `${block} (${"#".repeat(Number(token.tag.slice(1)))})` : block);
    if (token.type === "link_open") count(into.inline, `a link to ${describeDestination(String(token.attrGet("href") ?? ""))}`);
    else if (token.type === "image") count(into.inline, `a picture from ${describeDestination(String(token.attrGet("src") ?? ""))}`);
    else if (token.type === "html_inline" || token.type === "html_block") count(into.inline, `HTML ${describeDestination(token.content.trim())}`);
    if (token.children) visit(token.children, into);
  }
}

function structureOf(markdown: string): Structure {
  const env: { references?: Record<string, { href: string; title: string }> } = {};
  const structure: Structure = { blocks: new Set(), inline: new Map() };
  visit(structureParser.parse(markdown, env), structure);
  for (const [label, reference] of Object.entries(env.references ?? {})) count(structure.inline, `a reference link [${label.toLowerCase()}] to ${describeDestination(reference.href)}`);
  return structure;
}

/** What `target` adds to `source`'s structure, in words ("a link to …", "a heading (##)"); empty when it adds nothing. */
export function structureAdded(source: string, target: string): string[] {
  const had = structureOf(source);
  const has = structureOf(target);
  const added: string[] = [];
  for (const block of has.blocks) if (!had.blocks.has(block)) added.push(block);
  for (const [thing, times] of has.inline) {
    const before = had.inline.get(thing) ?? 0;
    if (times > before) added.push(before === 0 && times === 1 ? thing : `${thing} (${times} times; the source has it ${before} time(s))`);
  }
  return added;
}

export interface StructureProblem {
  unitId: string;
  /** Where the target was given: "xliff" or "units[3].target". */
  field: string;
  added: string[];
}

/** Units named in one error at most; the rest are counted. */
export const structureProblemsListed = 10;

/** One sentence naming the units that add structure (at most `structureProblemsListed`, then how many more). */
export function describeStructureProblems(problems: readonly StructureProblem[]): string {
  const listed = problems.slice(0, structureProblemsListed).map((problem) => {
    const shown = problem.added.slice(0, 3).join(", ");
    const more = problem.added.length > 3 ? ` and ${problem.added.length - 3} more` : "";
    return `unit ${problem.unitId} adds ${shown}${more}`;
  });
  const rest = problems.length - listed.length;
  return `${listed.join("; ")}${rest > 0 ? `; and ${rest} more unit(s)` : ""}`;
}
