/**
 * Fix hints that name a call an agent can send as written. Checks word their fixes with the edit they
 * need ("add_blocks { lessonId: … }"); this turns each such edit into the `edit_course` call that
 * carries it (every host lists edit_course; the one-tool-per-edit set is optional), filling in the
 * course ID, the IDs the finding's location gives, and a marked placeholder for content to write.
 */
import type { FindingLocation } from "./finding-location.ts";

type IdField = "blockId" | "lessonId" | "moduleId";

/** Each edit a fix may name: the location ID it acts on, and placeholders for what the agent must write. */
const edits: Record<string, { target?: IdField; placeholders?: Record<string, string> }> = {
  update_course: {},
  set_objectives: { placeholders: { objectives: '[{ text: "…" }]' } },
  add_module: { placeholders: { title: '"…"' } },
  update_module: { target: "moduleId" },
  remove_module: { target: "moduleId" },
  add_lesson: { target: "moduleId", placeholders: { title: '"…"' } },
  update_lesson: { target: "lessonId" },
  remove_lesson: { target: "lessonId" },
  add_blocks: { target: "lessonId", placeholders: { blocks: "[{ type: …, … }]" } },
  update_block: { target: "blockId", placeholders: { changes: "{ …the fields to change… }" } },
  move_block: { target: "blockId" },
};

const editMention = new RegExp(`\\b(${Object.keys(edits).join("|")})\\b(?: \\{ ([^}]*) \\})?`, "g");

/** `fix` with every named edit written as a complete edit_course call for `courseId`. */
export function withFixCalls(fix: string, courseId: string, location: FindingLocation): string {
  return fix.replace(editMention, (_mention, op: string, given: string | undefined) => {
    const edit = edits[op] ?? {};
    const args: string[] = [`op: "${op}"`];
    const id = edit.target ? location[edit.target] : undefined;
    if (edit.target && !given?.includes(`${edit.target}:`)) args.push(`${edit.target}: "${id ?? "…"}"`);
    if (given) args.push(given.trim());
    for (const [field, placeholder] of Object.entries(edit.placeholders ?? {})) if (!given?.includes(`${field}:`)) args.push(`${field}: ${placeholder}`);
    return `edit_course { courseId: "${courseId}", operations: [{ ${args.join(", ")} }] }`;
  });
}
