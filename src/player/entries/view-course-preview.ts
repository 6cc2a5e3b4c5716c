/** The MCP Apps course preview view's bundle. */
import { configElementIds, type ViewConfig } from "../../page-contract/config.ts";
import { readConfig } from "../read-config.ts";
import { startCoursePreviewView } from "../views/course-preview.ts";

const config = readConfig<ViewConfig>(configElementIds.view);
if (config) startCoursePreviewView(config);
