/**
 * Every authoring tool, in the order `tools/list` shows them: reading first, then whole-course
 * writes, structure edits, blocks, the atomic batch, assets, history and sharing.
 */
import type { AuthoringServices } from "../../authoring/services.ts";
import type { ToolDefinition } from "../registry.ts";
import { courseTools } from "./course-tools.ts";
import { editTools } from "./edit-tools.ts";
import { assetTools } from "./asset-tools.ts";
import { historyTools } from "./history-tools.ts";
import { sharingTools } from "./sharing-tools.ts";

export type { AuthoringServices } from "../../authoring/services.ts";
export { openAuthoringServices } from "../../authoring/services.ts";

export const authoringTools: ToolDefinition<AuthoringServices>[] = [...courseTools, ...editTools, ...assetTools, ...historyTools, ...sharingTools];
