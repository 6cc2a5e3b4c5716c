/** The MCP Apps files view's bundle. */
import { configElementIds, type FilesViewConfig } from "../../page-contract/config.ts";
import { readConfig } from "../read-config.ts";
import { startFilesView } from "../views/files.ts";

const config = readConfig<FilesViewConfig>(configElementIds.view);
if (config) startFilesView(config);
