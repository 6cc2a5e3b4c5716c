/**
 * Every authoring tool, in the order `tools/list` shows them: reading first, then whole-course
 * writes, structure edits, blocks, the atomic batch, assets, history, sharing, and then review:
 * validation, the status workflow, comments and the preview.
 */
import type { AuthoringServices } from "../../authoring/services.ts";
import type { ToolDefinition } from "../registry.ts";
import { courseTools } from "./course-tools.ts";
import { editTools } from "./edit-tools.ts";
import { assetTools } from "./asset-tools.ts";
import { uploadTools } from "./upload-tools.ts";
import { historyTools } from "./history-tools.ts";
import { sharingTools } from "./sharing-tools.ts";
import { reviewTools } from "./review-tools.ts";
import { commentTools } from "./comment-tools.ts";
import { exportTools } from "./export-tools.ts";
import { importTools } from "./import-tools.ts";
import { previewTools } from "./preview-tools.ts";
import { blockTypeTools } from "./block-types.ts";
import { translationTools } from "./translation-tools.ts";
import { resultsTools } from "./results-tools.ts";

export type { AuthoringServices } from "../../authoring/services.ts";

export const authoringTools: ToolDefinition<AuthoringServices>[] = [
  ...courseTools,
  ...blockTypeTools,
  ...editTools,
  ...assetTools,
  ...uploadTools,
  ...historyTools,
  ...sharingTools,
  ...reviewTools,
  ...commentTools,
  ...previewTools,
  ...exportTools,
  ...importTools,
  ...translationTools,
  ...resultsTools,
];
