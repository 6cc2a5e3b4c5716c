/**
 * What the LMS adapters say to the learner, in one place (like the renderer's `ui-text.ts`), passed to
 * the browser as data: that progress is not being saved (no LMS found, or the LMS stopped accepting
 * it), and the exit button's label.
 */
export const adapterText = {
  exitCourse: "Exit course",
  noLmsFound: "Your progress is not being saved: this course was not opened from a learning platform. Open it from your learning platform to have your progress recorded.",
  lmsUnavailable: "Your progress is not being saved: the learning platform could not be reached. Close the course and open it again from your learning platform.",
  sessionExpired: "Your progress is no longer being saved: your session with the learning platform has expired. Close the course and open it again from your learning platform to continue.",
  stillSending: "Your learning platform is not answering. Your progress is kept on this device and will be sent when it answers again.",
};
export type AdapterText = typeof adapterText;
