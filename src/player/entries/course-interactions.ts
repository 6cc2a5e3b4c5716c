/** The bundle of a page with teaching blocks (scenario, sorting, process...) but no questions. */
import { installInteractionSupport } from "./install-interactions.ts";
import { startCoursePage } from "../course/start.ts";

const started = startCoursePage();
if (started) installInteractionSupport(started);
