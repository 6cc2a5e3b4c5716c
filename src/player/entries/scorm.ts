/** The SCORM 1.2 / 2004 adapter bundle; its version and question facts come from the page's LMS config. */
import { configElementIds } from "../../page-contract/config.ts";
import { createAnswerTools } from "../lms/answers.ts";
import { createProgressTools } from "../lms/progress.ts";
import { installScormAdapter, type ScormAdapterConfig } from "../lms/scorm.ts";
import { readConfig } from "../read-config.ts";

const config = readConfig<ScormAdapterConfig>(configElementIds.lms);
if (config) installScormAdapter(config, { createProgressTools, createAnswerTools });
