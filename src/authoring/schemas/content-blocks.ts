/**
 * Presentation blocks: text, heading, image, video, audio, callout, quote, code, divider, accordion,
 * tabs and flashcards. Each is one valibot object with `type` as its discriminator; cross-field rules
 * (alt text unless decorative, captions or transcript for media) are checks forwarded to the field an
 * agent must fix.
 */
import * as v from "valibot";
import { exactlyOneSourceMessage, httpUrlField, idField, languageTagPattern, limits, markdownField, requiredTextField, shortTextField, titleField } from "./fields.ts";

const assetIdField = v.pipe(idField("asset"), v.description("An asset ID returned by upload_asset for this course."));

/** Either an uploaded asset or an external URL, never both. */
const mediaSourceEntries = {
  assetId: v.optional(assetIdField),
  url: v.optional(httpUrlField),
};

function hasExactlyOneSource(source: { assetId?: string | undefined; url?: string | undefined }): boolean {
  return (source.assetId === undefined) !== (source.url === undefined);
}


export const textBlock = v.object({
  type: v.literal("text"),
  markdown: markdownField(limits.blockTextBytes),
  lang: v.optional(
    v.pipe(v.string(), v.regex(languageTagPattern, "must be a BCP 47 language tag"), v.description("BCP 47: the language of this text when it is not the course's (marked for screen readers).")),
  ),
});

export const headingLevels = [2, 3, 4] as const;
export const headingBlock = v.object({
  type: v.literal("heading"),
  text: titleField(),
  level: v.optional(v.picklist(headingLevels, "must be 2, 3 or 4 (the lesson title is level 1)"), 2),
});

const imageFields = v.object({
  type: v.literal("image"),
  ...mediaSourceEntries,
  alt: v.optional(v.pipe(shortTextField(1_000), v.description("Describes the image for screen readers; required unless decorative."))),
  decorative: v.optional(v.boolean(), false),
  caption: v.optional(shortTextField()),
});
type ImageFields = v.InferOutput<typeof imageFields>;

export const imageBlock = v.pipe(
  imageFields,
  v.forward(v.check<ImageFields, string>(hasExactlyOneSource, exactlyOneSourceMessage), ["url"]),
  v.forward(
    v.check<ImageFields, string>((image) => image.decorative || (image.alt ?? "").length > 0, "is required and must not be empty unless decorative is true"),
    ["alt"],
  ),
);

/**
 * A lesson's optional banner: a picture across the top of its page, from an uploaded image or a URL,
 * with alt text unless decorative (the same rules as an image block, without a caption).
 */
const lessonBannerFields = v.object({
  ...mediaSourceEntries,
  alt: v.optional(v.pipe(shortTextField(1_000), v.description("Required unless decorative."))),
  decorative: v.optional(v.boolean(), false),
});
export type LessonBanner = v.InferOutput<typeof lessonBannerFields>;

export const lessonBannerSchema = v.pipe(
  lessonBannerFields,
  v.forward(v.check<LessonBanner, string>(hasExactlyOneSource, exactlyOneSourceMessage), ["url"]),
  v.forward(v.check<LessonBanner, string>((image) => image.decorative || (image.alt ?? "").length > 0, "is required and must not be empty unless decorative is true"), ["alt"]),
);

const captionsFields = v.object({
  ...mediaSourceEntries,
  language: v.optional(v.pipe(v.string(), v.regex(languageTagPattern, "must be a BCP 47 language tag"))),
});
const captionsSchema = v.pipe(
  captionsFields,
  v.forward(v.check<v.InferOutput<typeof captionsFields>, string>(hasExactlyOneSource, exactlyOneSourceMessage + " for the WebVTT captions"), ["url"]),
);

/** Further WebVTT tracks, one per language: the learner gets the page language's track by default and may choose another. */
const trackFields = v.object({
  ...mediaSourceEntries,
  language: v.pipe(v.string(), v.regex(languageTagPattern, "must be a BCP 47 language tag")),
});
const captionTracksField = v.optional(
  v.pipe(
    v.array(v.pipe(trackFields, v.forward(v.check<v.InferOutput<typeof trackFields>, string>(hasExactlyOneSource, exactlyOneSourceMessage + " for the WebVTT track"), ["url"]))),
    v.maxLength(20, "must have at most 20 tracks"),
    v.check((tracks) => new Set(tracks.map((track) => track.language.toLowerCase())).size === tracks.length, "must have one track per language"),
    v.description("More WebVTT captions, one per language (language required)."),
  ),
);

const durationField = v.optional(
  v.pipe(v.number(), v.minValue(0, "must be 0 or more"), v.maxValue(86_400, "must be at most 86400 seconds"), v.description("Length in seconds; used to estimate lesson time.")),
);

const accessibleMediaEntries = {
  ...mediaSourceEntries,
  title: v.optional(shortTextField(limits.titleCharacters)),
  captions: v.optional(captionsSchema),
  captionTracks: captionTracksField,
  transcript: v.optional(markdownField(limits.blockTextBytes)),
  durationSeconds: durationField,
};

function hasCaptionsOrTranscript(media: { captions?: object | undefined; captionTracks?: readonly object[] | undefined; transcript?: string | undefined }): boolean {
  return media.captions !== undefined || (media.captionTracks?.length ?? 0) > 0 || (media.transcript ?? "").length > 0;
}

const videoFields = v.object({ type: v.literal("video"), ...accessibleMediaEntries, poster: v.optional(v.object(mediaSourceEntries)) });
type VideoFields = v.InferOutput<typeof videoFields>;

export const videoBlock = v.pipe(
  videoFields,
  v.forward(v.check<VideoFields, string>(hasExactlyOneSource, exactlyOneSourceMessage), ["url"]),
  v.forward(v.check<VideoFields, string>(hasCaptionsOrTranscript, "a video needs captions or a transcript (give captions or transcript)"), ["captions"]),
);

const audioFields = v.object({ type: v.literal("audio"), ...accessibleMediaEntries });
type AudioFields = v.InferOutput<typeof audioFields>;

export const audioBlock = v.pipe(
  audioFields,
  v.forward(v.check<AudioFields, string>(hasExactlyOneSource, exactlyOneSourceMessage), ["url"]),
  v.forward(v.check<AudioFields, string>(hasCaptionsOrTranscript, "audio needs a transcript or captions (give transcript or captions)"), ["transcript"]),
);

export const calloutVariants = ["info", "tip", "note", "warning", "danger", "success"] as const;
export const calloutBlock = v.object({
  type: v.literal("callout"),
  variant: v.optional(v.picklist(calloutVariants, `must be one of ${calloutVariants.join(", ")}`), "info"),
  title: v.optional(shortTextField(limits.titleCharacters)),
  markdown: markdownField(),
});

export const quoteBlock = v.object({
  type: v.literal("quote"),
  text: markdownField(),
  attribution: v.optional(shortTextField(limits.titleCharacters)),
});

export const codeBlock = v.object({
  type: v.literal("code"),
  language: v.pipe(
    v.string(),
    v.regex(/^[A-Za-z0-9][A-Za-z0-9+#._-]{0,39}$/, "must be a language name such as typescript, python, bash or plaintext"),
  ),
  code: markdownField(limits.blockTextBytes),
  caption: v.optional(shortTextField()),
});

export const dividerBlock = v.object({ type: v.literal("divider") });

const titledBody = v.object({ title: titleField(), markdown: markdownField() });

export const accordionBlock = v.object({
  type: v.literal("accordion"),
  items: v.pipe(v.array(titledBody), v.minLength(1, "must have at least 1 item"), v.maxLength(50, "must have at most 50 items")),
});

export const tabsBlock = v.object({
  type: v.literal("tabs"),
  tabs: v.pipe(v.array(titledBody), v.minLength(2, "must have at least 2 tabs"), v.maxLength(12, "must have at most 12 tabs")),
});

export const flashcardsBlock = v.object({
  type: v.literal("flashcards"),
  cards: v.pipe(
    v.array(v.object({ front: requiredTextField(), back: markdownField() })),
    v.minLength(1, "must have at least 1 card"),
    v.maxLength(200, "must have at most 200 cards"),
  ),
});
