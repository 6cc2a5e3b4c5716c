/**
 * Questions asked on a picture: hotspot (choose one or more regions) and drag_onto_image (put labels on
 * zones). Regions and zones are in picture coordinates: pixels of the picture as `image.width` ×
 * `image.height` declare it, so they hold at every screen size and when a translation swaps the picture
 * for one of the same frame. The rules a player depends on (every region inside the picture, a size above
 * zero, a polygon of three points or more, names that differ, labels that name a zone) are checked here,
 * each on the path an author must fix.
 */
import * as v from "valibot";
import { exactlyOneSourceMessage, httpUrlField, idField, markdownField, requiredTextField } from "./fields.ts";
import { issueAt } from "./issue-path.ts";
import { pictureSchema } from "./picture.ts";
import { questionEntries } from "./question-blocks.ts";

/** At most this many regions of a hotspot, zones and labels of a drag_onto_image. */
export const maxPictureRegions = 50;

const coordinate = (what: string) => v.pipe(v.number("must be a number"), v.description(what));
const size = (what: string) => v.pipe(v.number("must be a number"), v.gtValue(0, "must be more than 0 (a size is never zero or negative)"), v.description(what));
const pixels = (what: string) =>
  v.pipe(v.number("must be a number"), v.integer("must be a whole number of pixels"), v.minValue(1, "must be at least 1"), v.maxValue(20_000, "must be at most 20000"), v.description(what));

const questionPictureFields = v.object({
  assetId: v.optional(v.pipe(idField("asset"), v.description("An image asset ID returned by upload_asset for this course."))),
  url: v.optional(httpUrlField),
  alt: v.pipe(requiredTextField(1_000), v.description("Describes the picture without giving the answer away.")),
  width: pixels("The picture's width: regions use x from 0 (left) to width."),
  height: pixels("The picture's height: regions use y from 0 (top) to height."),
});
type QuestionPicture = v.InferOutput<typeof questionPictureFields>;

/** The picture a hotspot or drag_onto_image is asked on; its width and height are the frame of every region. */
export const questionPictureSchema = v.pipe(
  questionPictureFields,
  v.forward(v.check<QuestionPicture, string>((picture) => (picture.assetId === undefined) !== (picture.url === undefined), exactlyOneSourceMessage), ["url"]),
);

export const regionShapes = ["rect", "circle", "polygon"] as const;

const pointSchema = v.pipe(v.tuple([coordinate("x"), coordinate("y")], "must be a point [x, y]"));

/** The three shapes of a region, each with the entries (name, answer, feedback) its block adds. */
function regionSchema<TEntries extends v.ObjectEntries>(entries: TEntries) {
  return v.variant(
    "shape",
    [
      v.object({ shape: v.literal("rect"), x: coordinate("Left edge."), y: coordinate("Top edge."), width: size("Width."), height: size("Height."), ...entries }),
      v.object({ shape: v.literal("circle"), x: coordinate("Centre x."), y: coordinate("Centre y."), radius: size("Radius."), ...entries }),
      v.object({
        shape: v.literal("polygon"),
        points: v.pipe(v.array(pointSchema), v.minLength(3, "must have at least 3 points (a polygon is 3 corners or more)"), v.maxLength(100, "must have at most 100 points")),
        ...entries,
      }),
    ],
    `shape must be one of ${regionShapes.join(", ")}`,
  );
}

/** A region's shape alone, as players and formats read it. */
export type RegionShape =
  | { shape: "rect"; x: number; y: number; width: number; height: number }
  | { shape: "circle"; x: number; y: number; radius: number }
  | { shape: "polygon"; points: [number, number][] };

/** The smallest box holding the region: [left, top, right, bottom]. */
export function regionBounds(region: RegionShape): [number, number, number, number] {
  switch (region.shape) {
    case "rect":
      return [region.x, region.y, region.x + region.width, region.y + region.height];
    case "circle":
      return [region.x - region.radius, region.y - region.radius, region.x + region.radius, region.y + region.radius];
    case "polygon": {
      const xs = region.points.map((point) => point[0]);
      const ys = region.points.map((point) => point[1]);
      return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
    }
  }
}

type Report = (path: readonly (string | number)[], message: string) => void;

function checkRegionsInside(regions: readonly RegionShape[], picture: { width: number; height: number }, field: string, report: Report): void {
  regions.forEach((region, index) => {
    const [left, top, right, bottom] = regionBounds(region);
    if (left < 0 || top < 0 || right > picture.width || bottom > picture.height) {
      report([field, index], `lies outside the picture: every region must be within 0–${picture.width} across and 0–${picture.height} down (image.width × image.height); this one spans ${round(left)}–${round(right)} × ${round(top)}–${round(bottom)}`);
    }
  });
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

function checkDistinct(values: readonly string[], report: (index: number, value: string) => void): void {
  const seen = new Set<string>();
  values.forEach((value, index) => {
    const key = value.trim().toLowerCase();
    if (seen.has(key)) report(index, value);
    seen.add(key);
  });
}

const feedbackField = v.optional(v.pipe(markdownField(), v.description("Shown to the learner who picks this region.")));

const hotspotFields = v.object({
  type: v.literal("hotspot"),
  ...questionEntries,
  image: questionPictureSchema,
  regions: v.pipe(
    v.array(
      regionSchema({
        name: v.pipe(requiredTextField(100), v.description('Read to keyboard and screen reader users; never gives the answer away ("Valve A", not "The open valve").')),
        correct: v.optional(v.boolean(), false),
        feedback: feedbackField,
      }),
    ),
    v.minLength(1, "must have at least 1 region"),
    v.maxLength(maxPictureRegions, `must have at most ${maxPictureRegions} regions`),
    v.description("In picture coordinates. One correct region: the learner picks one; several: the learner picks all of them."),
  ),
});

export const hotspotBlock = v.pipe(
  hotspotFields,
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const hotspot = dataset.value;
    const report = issueAt(addIssue, hotspot);
    checkRegionsInside(hotspot.regions, hotspot.image, "regions", report);
    checkDistinct(
      hotspot.regions.map((region) => region.name),
      (index, name) => report(["regions", index, "name"], `duplicate region name "${name}"; each region needs its own name`),
    );
    if (!hotspot.regions.some((region) => region.correct)) report(["regions"], "needs at least one region with correct: true");
  }),
);

export const zoneIdPattern = /^[a-z0-9_-]{1,40}$/;
const zoneIdField = v.pipe(v.string(), v.regex(zoneIdPattern, "must be a zone id: 1-40 of a-z 0-9 _ -"));

const dragOntoImageFields = v.object({
  type: v.literal("drag_onto_image"),
  ...questionEntries,
  image: questionPictureSchema,
  zones: v.pipe(
    v.array(
      regionSchema({
        id: v.pipe(zoneIdField, v.description("Your slug for this zone, unique in the block; labels name it in zone.")),
        name: v.pipe(requiredTextField(100), v.description('Read to keyboard and screen reader users ("Zone 1", "Top left"); never the answer.')),
      }),
    ),
    v.minLength(1, "must have at least 1 zone"),
    v.maxLength(maxPictureRegions, `must have at most ${maxPictureRegions} zones`),
  ),
  labels: v.pipe(
    v.array(
      v.object({
        text: v.optional(requiredTextField(200)),
        image: v.optional(v.pipe(pictureSchema, v.description("A small picture as the label; its alt is the label's name when there is no text."))),
        zone: v.optional(v.pipe(zoneIdField, v.description("The id of the zone this label belongs on; omit for a distractor that belongs nowhere."))),
        feedback: v.optional(v.pipe(markdownField(), v.description("Shown when the learner puts this label in the wrong place."))),
      }),
    ),
    v.minLength(1, "must have at least 1 label"),
    v.maxLength(maxPictureRegions, `must have at most ${maxPictureRegions} labels`),
  ),
});

export const dragOntoImageBlock = v.pipe(
  dragOntoImageFields,
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const question = dataset.value;
    const report = issueAt(addIssue, question);
    checkRegionsInside(question.zones, question.image, "zones", report);
    const ids = question.zones.map((zone) => zone.id);
    ids.forEach((id, index) => {
      if (ids.indexOf(id) !== index) report(["zones", index, "id"], `duplicate zone id "${id}"; each zone needs its own`);
    });
    checkDistinct(
      question.zones.map((zone) => zone.name),
      (index, name) => report(["zones", index, "name"], `duplicate zone name "${name}"; each zone needs its own name`),
    );
    const taken = new Map<string, number>();
    question.labels.forEach((label, index) => {
      if (label.text === undefined && !label.image?.alt) report(["labels", index, "text"], "a label needs text, or an image with alt text that names it");
      if (label.zone === undefined) return;
      if (!ids.includes(label.zone)) report(["labels", index, "zone"], `no zone "${label.zone}"; zone ids are ${ids.join(", ")}`);
      else if (taken.has(label.zone)) report(["labels", index, "zone"], `zone "${label.zone}" already holds labels[${taken.get(label.zone)}]; a zone takes one label`);
      else taken.set(label.zone, index);
    });
    if (!question.labels.some((label) => label.zone !== undefined)) report(["labels"], "needs at least one label with a zone (the others are distractors)");
  }),
);
