/**
 * Finding a translation from what the tools take: the SOURCE course ID and a language. A translation's
 * own course ID is accepted too, with its language. Reading a translation needs read on both courses
 * (its units show the source text); writing one needs edit on it; creating one needs copy on the source.
 */
import type { CourseRow, TranslationRow } from "../../store/types.ts";
import { openCourse, roleOnCourse, type CourseRole, type Permission } from "../access.ts";
import type { AuthoringSession } from "../context.ts";
import { CourseAuthoringError, forbidden, notFound } from "../errors.ts";

export interface OpenTranslation {
  source: CourseRow;
  link: TranslationRow;
  translation: CourseRow;
  role: CourseRole;
}

/** Same language, whatever the case of the tag ("pt-br" is "pt-BR"). */
export function sameLanguage(left: string, right: string): boolean {
  return left.toLowerCase() === right.toLowerCase();
}

/** The source a request names, and the link to its translation in `language` when one exists. */
export async function openSource(
  session: AuthoringSession,
  courseId: string,
  language: string,
  permission: Permission,
): Promise<{ source: CourseRow; link: TranslationRow | undefined }> {
  const named = await openCourse(session, courseId, "read");
  const links = await session.tx.listTranslationLinks(courseId);
  const asTranslation = links.find((link) => link.courseId === courseId);
  if (asTranslation) {
    if (!sameLanguage(asTranslation.language, language)) {
      throw new CourseAuthoringError(
        "invalid_arguments",
        `language: course ${courseId} is the ${asTranslation.language} translation of course ${asTranslation.sourceCourseId}; pass that source courseId with language "${language}", or language "${asTranslation.language}".`,
        { field: "language", sourceCourseId: asTranslation.sourceCourseId, language: asTranslation.language },
      );
    }
    const { course: source } = await openCourse(session, asTranslation.sourceCourseId, permission);
    return { source, link: asTranslation };
  }
  const source = permission === "read" ? named.course : (await openCourse(session, courseId, permission)).course;
  if (sameLanguage(source.language, language)) {
    throw new CourseAuthoringError("invalid_arguments", `language: course ${courseId} is written in ${source.language}; a translation needs another language.`, {
      field: "language",
      sourceLanguage: source.language,
    });
  }
  return { source, link: links.find((link) => link.sourceCourseId === courseId && sameLanguage(link.language, language)) };
}

/** The existing translation, opened with `permission` on the translation itself. */
export async function openTranslation(session: AuthoringSession, courseId: string, language: string, permission: Permission): Promise<OpenTranslation> {
  const { source, link } = await openSource(session, courseId, language, "read");
  if (!link) throw missingTranslation(source.id, language);
  const translation = await session.tx.find("course", link.courseId);
  const role = translation ? await roleOnCourse(session, translation) : null;
  if (!translation || role === null) throw missingTranslation(source.id, language);
  if (permission !== "read") {
    const opened = await openCourse(session, translation.id, permission).catch((error: unknown) => {
      if (error instanceof CourseAuthoringError && error.code === "forbidden") throw forbidden(`${error.message} (the ${link.language} translation ${translation.id})`);
      throw error;
    });
    return { source, link, translation: opened.course, role: opened.role };
  }
  return { source, link, translation, role };
}

export function missingTranslation(sourceId: string, language: string): CourseAuthoringError {
  const error = notFound("course", sourceId);
  return new CourseAuthoringError(
    "not_found",
    `language: course ${sourceId} has no ${language} translation you can see. Create it with create_translation { courseId: "${sourceId}", language: "${language}" } or import_translation.`,
    { ...error.details, field: "language", language },
  );
}

/**
 * Edit tools refuse a translation: its structure follows the source and its text comes from units, so
 * a direct edit would be undone by the next import. Checked after access, so strangers still get not_found.
 */
export async function refuseTranslationEdit(session: AuthoringSession, courseId: string): Promise<void> {
  const link = (await session.tx.listTranslationLinks(courseId)).find((candidate) => candidate.courseId === courseId);
  if (!link) return;
  throw new CourseAuthoringError(
    "invalid_state",
    `Course ${courseId} is the ${link.language} translation of course ${link.sourceCourseId}: edit the structure in ${link.sourceCourseId}, and the text with set_translation_units or import_translation { courseId: "${link.sourceCourseId}", language: "${link.language}" }.`,
    { courseId, sourceCourseId: link.sourceCourseId, language: link.language },
  );
}
