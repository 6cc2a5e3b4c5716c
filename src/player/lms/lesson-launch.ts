/**
 * The launch script of a one-lesson page (an IMS Common Cartridge web-content resource): the page holds
 * the course introduction and the lesson, and must open on the lesson, as the LMS item promised. It asks
 * the course runtime to show the lesson before the runtime picks its first page, the same way a SCORM
 * adapter resumes at a bookmark; a link to the introduction (`#intro`) still wins, as any fragment does.
 */
export function openLessonOnLaunch(lessonId: string): void {
  if (window.location.hash.length > 1) return;
  window.CourseRuntime?.setState({ currentLessonId: lessonId });
}
