/** The launch bundle of a one-lesson Common Cartridge page. */
import { configElementIds, type LessonLaunchConfig } from "../../page-contract/config.ts";
import { openLessonOnLaunch } from "../lms/lesson-launch.ts";
import { readConfig } from "../read-config.ts";

const config = readConfig<LessonLaunchConfig>(configElementIds.lms);
if (config) openLessonOnLaunch(config.lessonId);
