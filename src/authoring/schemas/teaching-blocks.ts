/**
 * Blocks that teach by interaction without being graded: labeled_graphic (an image with numbered
 * markers), process (steps one at a time), timeline (dated events), attachment (a file to download) and
 * continue (a gate hiding what follows). The graded ones, scenario and sorting, live beside the questions.
 */
import * as v from "valibot";
import { exactlyOneSourceMessage, httpUrlField, idField, limits, markdownField, optionalMarkdownField, requiredTextField, shortTextField, titleField } from "./fields.ts";
import { pictureSchema } from "./picture.ts";

const percentField = v.pipe(v.number("must be a number"), v.minValue(0, "must be between 0 and 100"), v.maxValue(100, "must be between 0 and 100"));

const graphicSource = v.pipe(
  v.object({ assetId: v.optional(v.pipe(idField("asset"), v.description("An image asset ID returned by upload_asset."))), url: v.optional(httpUrlField) }),
  v.forward(
    v.check((source: { assetId?: string | undefined; url?: string | undefined }) => (source.assetId === undefined) !== (source.url === undefined), exactlyOneSourceMessage),
    ["url"],
  ),
);

export const labeledGraphicBlock = v.object({
  type: v.literal("labeled_graphic"),
  image: graphicSource,
  alt: v.pipe(requiredTextField(1_000), v.description("Describes the whole image for screen readers.")),
  markers: v.pipe(
    v.array(
      v.object({
        x: v.pipe(percentField, v.description("Across the image, in percent of its width (0 = left edge).")),
        y: v.pipe(percentField, v.description("Down the image, in percent of its height (0 = top edge).")),
        title: titleField(),
        markdown: v.optional(optionalMarkdownField(), ""),
      }),
    ),
    v.minLength(1, "must have at least 1 marker"),
    v.maxLength(20, "must have at most 20 markers"),
    v.description("In reading order; learners open them one by one."),
  ),
});

export const processBlock = v.object({
  type: v.literal("process"),
  steps: v.pipe(
    v.array(v.object({ title: titleField(), markdown: markdownField(), image: v.optional(pictureSchema) })),
    v.minLength(2, "must have at least 2 steps"),
    v.maxLength(20, "must have at most 20 steps"),
  ),
});

export const timelineBlock = v.object({
  type: v.literal("timeline"),
  events: v.pipe(
    v.array(
      v.object({
        date: v.pipe(requiredTextField(40), v.description('Free text such as "Day 1", "2019" or "Step 3 of onboarding".')),
        title: titleField(),
        markdown: markdownField(),
        image: v.optional(pictureSchema),
      }),
    ),
    v.minLength(2, "must have at least 2 events"),
    v.maxLength(50, "must have at most 50 events"),
  ),
});

export const attachmentBlock = v.object({
  type: v.literal("attachment"),
  assetId: v.pipe(idField("asset"), v.description("The file to hand out (PDF, DOCX, XLSX, PPTX, text, CSV…), from upload_asset; offered as a download, never shown inline.")),
  title: titleField(),
  description: v.optional(shortTextField(limits.shortTextCharacters)),
});

export const continueBlock = v.object({
  type: v.literal("continue"),
  // No stored default: an English "Continue" would show on every course whatever its language; the page takes the course language's word.
  label: v.optional(v.pipe(requiredTextField(60), v.description("The button's words; leave it out for the course language's own (\"Continue\", \"Continuer\", \"Weiter\"…)."))),
  requireCompletion: v.optional(
    v.pipe(v.boolean(), v.description("When true, the button waits until every question, scenario and sorting above it in the lesson is answered.")),
    false,
  ),
});
