/**
 * The compiled tool catalogue: every authoring tool with its listing built once, the block union and
 * the edit_course step listed as compact shared definitions, each tool with its toolset's icon. The service and the tests use this one.
 */
import type { AuthoringServices } from "../../authoring/services.ts";
import { toolsetIcons } from "../icons.ts";
import { compileTools, type CompiledTool } from "../registry.ts";
import { sharedDefinitions } from "./block-types.ts";
import { authoringTools } from "./index.ts";

export function compileAuthoringTools(): Map<string, CompiledTool<AuthoringServices>> {
  return compileTools(authoringTools, sharedDefinitions, toolsetIcons);
}
