/**
 * A course theme: the organisation's colours, font, logo, cover image and corners, carried into the
 * preview and every package. `update_course { theme }` replaces the theme as a whole; `from` starts
 * from another course's theme (one the caller can read), and the other fields given change it.
 */
import * as v from "valibot";
import { idField, shortTextField } from "./fields.ts";

export const themeFonts = ["system-sans", "system-serif", "atkinson-hyperlegible"] as const;
export type ThemeFont = (typeof themeFonts)[number];

const colorField = () => v.pipe(v.string(), v.regex(/^#[0-9a-fA-F]{6}$/, "must be a #rrggbb colour, e.g. #1d4ed8"), v.toLowerCase());

const themeImageSchema = v.object({
  assetId: idField("asset"),
  alt: v.pipe(shortTextField(300), v.minLength(1, "must describe the image (what a screen reader says instead)")),
});

export const themeColorEntries = {
  primaryColor: v.optional(colorField()),
  accentColor: v.optional(colorField()),
  backgroundColor: v.optional(colorField()),
  textColor: v.optional(colorField()),
};

export const themeSettingsEntries = {
  ...themeColorEntries,
  font: v.optional(v.picklist(themeFonts, `must be one of ${themeFonts.join(", ")}`)),
  logo: v.optional(themeImageSchema),
  coverImage: v.optional(themeImageSchema),
  corners: v.optional(v.picklist(["rounded", "square"], "must be rounded or square")),
};

export const themeInputSchema = v.pipe(
  v.object({
    from: v.optional(v.pipe(idField("course"), v.description("Copy that course's theme first."))),
    ...themeSettingsEntries,
  }),
  v.description("Replaces the theme (null: none). WCAG AA checked: text and primary 4.5:1 on background, white or near-black 4.5:1 on primary, accent 3:1. logo/coverImage: image assets of this course."),
);

export const themeSchema = v.object(themeSettingsEntries);
export type ThemeInput = v.InferOutput<typeof themeInputSchema>;
export type CourseTheme = v.InferOutput<typeof themeSchema>;

/** The look without a theme (today's default palette). */
export const defaultThemeColors = { primaryColor: "#1d4ed8", accentColor: "#1d4ed8", backgroundColor: "#ffffff", textColor: "#1a1f36" } as const;
