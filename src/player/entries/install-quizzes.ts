/** Grading: the answer checker, quiz attempts and the quizzes' behaviour. */
import { courseEvents } from "../../page-contract/course-runtime.ts";
import { installQuizzes } from "../course/quiz/install.ts";
import { createAttemptTools } from "../course/quiz-attempts.ts";
import { newAnswerChecker, type StartedCourse } from "../course/start.ts";

export function installQuizSupport({ config, recorder }: StartedCourse): void {
  installQuizzes(recorder, config.text, courseEvents, { checker: newAnswerChecker(), attempts: createAttemptTools(), salt: config.salt ?? "", sealKey: config.sealKey ?? "" });
}
