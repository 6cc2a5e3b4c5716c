/** The bundle of a page with neither questions nor teaching blocks. */
import { startCoursePage } from "../course/start.ts";

startCoursePage();
