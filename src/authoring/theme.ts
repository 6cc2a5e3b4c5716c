/**
 * Turning `update_course { theme }` into the theme stored: `from` starts from another readable course's
 * theme (its logo and cover image stay with that course: they are its assets), the fields given change
 * it, the logo and cover image must be image assets of this course, and every colour pair text or
 * controls sit on must meet WCAG 2.2 AA. A refusal names the field, the measured ratio and a fix.
 */
import type { JsonObject } from "../store/types.ts";
import { openCourse } from "./access.ts";
import { usableAsset } from "./asset-access.ts";
import { CourseAuthoringError } from "../course-authoring-error.ts";
import type { CourseEdit } from "./course-edit.ts";
import { invalidArgument } from "./errors.ts";
import type { CourseTheme, ThemeInput } from "./schemas/theme.ts";
import { contrastFailures } from "./theme-contrast.ts";

export async function resolveTheme(edit: CourseEdit, input: ThemeInput | null): Promise<{ theme: JsonObject | null; note: string }> {
  if (input === null) return { theme: null, note: "" };
  const { from, ...given } = input;
  let base: CourseTheme = {};
  let note = "";
  if (from !== undefined) {
    const { course: source } = await openCourse(edit.session, from, "read").catch(() => {
      throw invalidArgument("theme.from", `no course ${from} that you can read; give the ID of a course you own or that was shared with you`);
    });
    const { logo, coverImage, ...copied } = (source.theme ?? {}) as CourseTheme;
    base = copied;
    if ((logo || coverImage) && source.id !== edit.course.id) note = " (the source's logo and cover image are its own assets: upload them to this course and set logo and coverImage)";
  }
  const theme: CourseTheme = { ...base, ...stripUndefined(given) };
  for (const field of ["logo", "coverImage"] as const) {
    const image = theme[field];
    if (!image) continue;
    const asset = await usableAsset(edit.session, edit.course, image.assetId, `theme.${field}.assetId`).catch((error: unknown) => {
      if (error instanceof CourseAuthoringError && error.code === "not_found") {
        throw invalidArgument(`theme.${field}.assetId`, `${image.assetId} is not an asset you can use; upload the image with upload_asset, or have the person add it in the files view (list_assets), and use the ID it returns`);
      }
      throw error;
    });
    if (!asset.mediaType.startsWith("image/")) {
      throw invalidArgument(`theme.${field}.assetId`, `${image.assetId} is ${asset.mediaType}, not an image; use a PNG, JPEG, GIF, WebP or SVG asset`);
    }
  }
  const [failure] = contrastFailures(theme);
  if (failure) {
    throw invalidArgument(
      `theme.${failure.field}`,
      `contrast ${failure.ratio}:1 against ${failure.against} is below the ${failure.minimum}:1 WCAG 2.2 AA needs for ${failure.use}; the nearest passing colour is ${failure.suggestion}`,
      { ratio: failure.ratio, minimum: failure.minimum, against: failure.against, suggestion: failure.suggestion },
    );
  }
  return { theme: JSON.parse(JSON.stringify(theme)) as JsonObject, note };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as Partial<T>;
}
