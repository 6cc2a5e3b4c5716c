/**
 * What an XLIFF import would replace: the units of the file that the translation already has a target
 * for, so an author can be asked before their translated text is overwritten. Reads only; a file that
 * cannot be read, or a translation that does not exist yet, replaces nothing (the import itself then
 * says what is wrong, or starts the translation).
 */
import type { Actor, AuthoringSession } from "../context.ts";
import { CourseAuthoringError } from "../../course-authoring-error.ts";
import { openSource } from "./access.ts";
import { loadUnitTable } from "./translations.ts";
import type { XliffTargets } from "../../formats/xliff/xliff-read.ts";
import { readAs, type AuthoringServices } from "../services.ts";

export interface ImportOverwrites {
  courseId: string;
  title: string;
  language: string;
  /** Units of the file whose current target differs from the file's. */
  replaced: number;
}

/** The file is read off the request loop, then compared with the stored targets in a read. */
export async function importOverwrites(services: AuthoringServices, actor: Actor, args: { courseId: string; language: string; xliff: string }): Promise<ImportOverwrites | undefined> {
  let file: XliffTargets;
  try {
    file = await services.heavyWork.run("readXliff", args.xliff);
  } catch (error) {
    if (error instanceof CourseAuthoringError) return undefined;
    throw error;
  }
  return readAs(services, actor, (session) => overwrittenBy(session, args, file));
}

async function overwrittenBy(session: AuthoringSession, args: { courseId: string; language: string }, file: XliffTargets): Promise<ImportOverwrites | undefined> {
  const { source, link } = await openSource(session, args.courseId, args.language, "read");
  if (!link) return undefined;
  const table = await loadUnitTable(session, source, link.courseId);
  const replaced = file.unitIds.filter((id) => {
    const stored = table.stored.get(id);
    return stored !== undefined && stored.target.trim() !== "";
  }).length;
  return replaced === 0 ? undefined : { courseId: source.id, title: source.title, language: link.language, replaced };
}
