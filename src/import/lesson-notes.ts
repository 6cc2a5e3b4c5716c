/**
 * Speaker notes of an imported deck, kept as one open review comment per lesson: the author sees them
 * in list_comments and the review preview, learners never do, and resolving one says it was dealt with.
 */
import type { AuthoringSession } from "../authoring/context.ts";
import { newCommentRow } from "../review/comments.ts";
import type { CourseDocument } from "../authoring/schemas/course.ts";

const bodyCharacters = 5000;

/** `path` is an outline path, `modules[i].lessons[j]`, of the course just written. */
export async function insertLessonNotes(session: AuthoringSession, course: CourseDocument, notes: readonly { path: string; text: string }[]): Promise<void> {
  for (const note of notes) {
    const match = /^modules\[(\d+)\]\.lessons\[(\d+)\]$/.exec(note.path);
    const lesson = match ? course.modules[Number(match[1])]?.lessons[Number(match[2])] : undefined;
    if (!lesson) continue;
    const body = note.text.length > bodyCharacters ? `${note.text.slice(0, bodyCharacters - 40)}\n\n(the notes go on in the deck)` : note.text;
    await session.tx.insertComment(newCommentRow(session, { courseId: course.id, targetKind: "lesson", targetId: lesson.id, body }));
  }
}
