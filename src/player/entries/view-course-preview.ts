/** The MCP Apps course preview view's bundle. */
import { configElementIds, type ViewConfig } from "../config.ts";
import { readConfig } from "../read-config.ts";
import { startCoursePreviewView } from "../views/course-preview.ts";

const config = readConfig<ViewConfig>(configElementIds.view);
if (config) startCoursePreviewView(config);
