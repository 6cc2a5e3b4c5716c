/** The bundle of a page with questions but no teaching blocks. */
import { installQuizSupport } from "./install-quizzes.ts";
import { startCoursePage } from "../course/start.ts";

const started = startCoursePage();
if (started) installQuizSupport(started);
