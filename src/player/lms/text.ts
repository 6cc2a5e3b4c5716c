/**
 * What the LMS adapters say to the learner: that progress is not being saved (no LMS found, or the LMS
 * stopped accepting it), that it is waiting to send, and the exit button's label. The words come from
 * the course's language pack (`render/ui-text.ts`), handed to the adapter as data.
 */
export interface AdapterText {
  readonly exitCourse: string;
  readonly noLmsFound: string;
  readonly lmsUnavailable: string;
  readonly sessionExpired: string;
  readonly stillSending: string;
}
