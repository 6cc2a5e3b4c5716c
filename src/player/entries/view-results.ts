/** The MCP Apps results view's bundle. */
import { configElementIds, type ViewConfig } from "../../page-contract/config.ts";
import { readConfig } from "../read-config.ts";
import { startResultsView } from "../views/results.ts";

const config = readConfig<ViewConfig>(configElementIds.view);
if (config) startResultsView(config);
