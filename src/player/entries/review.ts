/** The review package's comment layer (export_course format html_review), run after the course player; learner pages never carry it. */
import { configElementIds } from "../../page-contract/config.ts";
import type { ReviewLayerConfig } from "../../page-contract/review.ts";
import { readConfig } from "../read-config.ts";
import { startReviewLayer } from "../review/layer.ts";

const config = readConfig<ReviewLayerConfig>(configElementIds.lms);
if (config) startReviewLayer(config);
