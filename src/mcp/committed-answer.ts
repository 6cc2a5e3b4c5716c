/**
 * The answer of a write that committed but would pass the result cap. Refusing it (`limit_exceeded`,
 * "ask for less") told the agent the write failed, so a retry applied it twice; instead the answer
 * stays a success that fits: its lists are shortened until it does (the output schema still holds:
 * only array lengths change), and its text says the write is committed, at which version, not to
 * send it again, and which reads return the rest.
 */
import * as v from "valibot";
import type { CallToolResult } from "@modelcontextprotocol/server";
import { utf8Length } from "../bytes.ts";
import type { ToolResult } from "./registry.ts";

/** The array with the most items anywhere in `value`, or undefined when none has any. */
function longestArray(value: unknown): unknown[] | undefined {
  let longest: unknown[] | undefined;
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      if (node.length > 0 && (!longest || node.length > longest.length)) longest = node;
      for (const item of node) visit(item);
    } else if (typeof node === "object" && node !== null) {
      for (const item of Object.values(node)) visit(item);
    }
  };
  visit(value);
  return longest;
}

/** `structured` with its longest lists halved until its JSON fits `budgetBytes` (or no list is left to cut). */
export function shortenToFit(structured: Record<string, unknown>, budgetBytes: number): { structured: Record<string, unknown>; json: string } {
  const copy = structuredClone(structured);
  for (;;) {
    const json = JSON.stringify(copy);
    const longest = utf8Length(json) > budgetBytes ? longestArray(copy) : undefined;
    if (!longest) return { structured: copy, json };
    longest.length = Math.floor(longest.length / 2);
  }
}

/** How to read what the write made, in parts, for the course (or other entity) the answer names. */
function howToRead(structured: Record<string, unknown>): string {
  const courseId = typeof structured.courseId === "string" ? structured.courseId : typeof structured.id === "string" && structured.id.startsWith("crs_") ? structured.id : undefined;
  if (!courseId) return "Read what it made with the list_ and get_ tools, which page.";
  return (
    `Read the result in parts: get_course { courseId: "${courseId}", includeBlocks: false } for the outline with every module and lesson ID (pass nextCursor back for more), ` +
    `then get_course { courseId: "${courseId}", lessonIds: [...] } for blocks; list_revisions { courseId: "${courseId}" } shows this change.`
  );
}

const summaryCharacters = 1_000;

/**
 * A committed write's answer shortened to fit `resultMaxBytes`, a success that says so. The caller
 * checks the output schema still holds (`output`), so a client's validation cannot turn it into an error.
 */
export function committedAnswer(tool: { name: string; output: v.GenericSchema }, result: ToolResult, size: number, resultMaxBytes: number, budgetBytes: number): CallToolResult {
  const { structured, json } = shortenToFit(result.structuredContent, budgetBytes);
  const version = typeof structured.version === "number" ? ` as version ${structured.version}` : "";
  const summary = result.summary.length > summaryCharacters ? `${result.summary.slice(0, summaryCharacters)}…` : result.summary;
  const notice =
    `${tool.name} succeeded and is committed${version}: do not send it again (it would be applied twice). ` +
    `Its whole answer would be ${size} bytes, over this server's ${resultMaxBytes}-byte cap per result, so the lists in it are shortened. ${howToRead(structured)}`;
  const fits = v.safeParse(tool.output, structured).success;
  const text = `${notice}\n${summary}\n${json}`;
  // Further content (a resource link, a view) stays when it still fits beside the shortened answer.
  const further = result.content && utf8Length(text) + utf8Length(json) + utf8Length(JSON.stringify(result.content)) <= resultMaxBytes ? result.content : [];
  return {
    content: [{ type: "text", text }, ...further],
    // Only array lengths changed; should a list have a minimum, the answer still says the write committed.
    ...(fits ? { structuredContent: structured } : {}),
  };
}
