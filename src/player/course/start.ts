/**
 * What every course page runs: the runtime (pages, progress, `window.CourseRuntime`) and the widgets
 * (tabs, accordions, flashcards). The feature bundles add grading and the teaching blocks on top.
 */
import { configElementIds, type CoursePlayerConfig } from "../../page-contract/config.ts";
import type { QuizRecorder } from "../../page-contract/course-runtime.ts";
import { readConfig } from "../read-config.ts";
import { createAnswerChecker, type AnswerChecker } from "./answer-checker.ts";
import { installCourseRuntime } from "./runtime.ts";
import { createSha256 } from "./sha256.ts";
import { installWidgets } from "./widgets.ts";

export interface StartedCourse {
  readonly config: CoursePlayerConfig;
  readonly recorder: QuizRecorder;
}

export function startCoursePage(): StartedCourse | null {
  const config = readConfig<CoursePlayerConfig>(configElementIds.course);
  if (!config) return null;
  const recorder = installCourseRuntime(config);
  installWidgets(config.text);
  return { config, recorder };
}

export const newAnswerChecker = (): AnswerChecker => createAnswerChecker(createSha256());
