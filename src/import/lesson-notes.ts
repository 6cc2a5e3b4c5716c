/**
 * Speaker notes of an imported deck, kept as one open review comment per lesson: the author sees them
 * in list_comments and the review preview, learners never do, and resolving one says it was dealt with.
 */
import type { AuthoringSession } from "../authoring/context.ts";
import type { CourseDocument } from "../authoring/schemas/course.ts";
import { newCommentRow } from "../review/comments.ts";

const bodyCharacters = 5000;

/** A slide's notes; `path` is the outline path of its lesson in the import, `modules[i].lessons[j]`. */
export interface LessonNote {
  readonly path: string;
  readonly text: string;
}

/** The lesson IDs of a course just written from an import, by the import's outline paths. */
export function lessonsByOutlinePath(course: CourseDocument): (path: string) => string | undefined {
  return (path) => {
    const match = /^modules\[(\d+)\]\.lessons\[(\d+)\]$/.exec(path);
    return match ? course.modules[Number(match[1])]?.lessons[Number(match[2])]?.id : undefined;
  };
}

export async function insertLessonNotes(session: AuthoringSession, courseId: string, notes: readonly LessonNote[], lessonIdOf: (path: string) => string | undefined): Promise<void> {
  for (const note of notes) {
    const lessonId = lessonIdOf(note.path);
    if (!lessonId) continue;
    const body = note.text.length > bodyCharacters ? `${note.text.slice(0, bodyCharacters - 40)}\n\n(the notes go on in the deck)` : note.text;
    await session.tx.insertComment(newCommentRow(session, { courseId, targetKind: "lesson", targetId: lessonId, body }));
  }
}
