/**
 * A picture inside a richer block (a scenario scene, a process step, a timeline event, a choice): an
 * uploaded asset or an external URL, never both, with optional alt text (empty or absent: decorative,
 * because the text beside it already says what it shows).
 */
import * as v from "valibot";
import { exactlyOneSourceMessage, httpUrlField, idField, shortTextField } from "./fields.ts";

const pictureFields = v.object({
  assetId: v.optional(v.pipe(idField("asset"), v.description("An image asset ID returned by upload_asset for this course."))),
  url: v.optional(httpUrlField),
  alt: v.optional(v.pipe(shortTextField(1_000), v.description("Describes the picture; omit when the text beside it says all it shows."))),
});
type PictureFields = v.InferOutput<typeof pictureFields>;

export const pictureSchema = v.pipe(
  pictureFields,
  v.forward(v.check<PictureFields, string>((picture) => (picture.assetId === undefined) !== (picture.url === undefined), exactlyOneSourceMessage), ["url"]),
);

export type Picture = v.InferOutput<typeof pictureSchema>;
