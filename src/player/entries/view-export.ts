/** The MCP Apps export view's bundle. */
import { configElementIds, type ExportViewConfig } from "../../page-contract/config.ts";
import { readConfig } from "../read-config.ts";
import { startExportView } from "../views/export.ts";

const config = readConfig<ExportViewConfig>(configElementIds.view);
if (config) startExportView(config);
