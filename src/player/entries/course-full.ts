/** The bundle of a page with questions and teaching blocks. */
import { installInteractionSupport } from "./install-interactions.ts";
import { installQuizSupport } from "./install-quizzes.ts";
import { startCoursePage } from "../course/start.ts";

const started = startCoursePage();
if (started) {
  installQuizSupport(started);
  installInteractionSupport(started);
}
