/** The bundle a page carries beside its course bundle when its course asks a round-5 question type (issue 42). */
import { configElementIds, type CoursePlayerConfig } from "../../page-contract/config.ts";
import { installQuestionTypes } from "../course/question-types/install.ts";
import { readConfig } from "../read-config.ts";

const config = readConfig<CoursePlayerConfig>(configElementIds.course);
if (config) installQuestionTypes(config);
