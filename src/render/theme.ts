/**
 * A course theme as CSS and markup: its colours override the stylesheet's custom properties (surfaces,
 * hairlines and borders are mixed from them, so tinted panels follow a dark or light page), its font
 * comes from the system or is embedded, its corners are rounded or square, and its logo and cover
 * image are the course's own image assets. Contrast was checked when the theme was written.
 */
import type { CourseTheme } from "../authoring/schemas/theme.ts";
import { textOn } from "./contrast.ts";
import { atkinsonHyperlegibleFaces } from "./fonts.ts";
import { html, type SafeHtml } from "./html.ts";
import type { RenderableCourse, RenderOptions } from "./types.ts";
import { shortenStyleVariables } from "./style-variables.ts";
import { ClassName } from "../page-contract/markup-names.ts";

const fontStacks = {
  "system-sans": `system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif`,
  "system-serif": `ui-serif, Georgia, Cambria, "Times New Roman", Times, serif`,
  "atkinson-hyperlegible": `"Atkinson Hyperlegible", system-ui, -apple-system, "Segoe UI", Roboto, sans-serif`,
} as const;

const hex = /^#[0-9a-f]{6}$/i;
/** Only well-formed colours reach the stylesheet, whatever a stored row says. */
const color = (value: string | undefined): string | null => (value && hex.test(value) ? value.toLowerCase() : null);

export function themeOf(course: RenderableCourse): CourseTheme | null {
  return course.theme ?? null;
}

/** CSS appended after the base stylesheet; empty without a theme. */
export function themeStyles(theme: CourseTheme | null): string {
  if (!theme) return "";
  const rules: string[] = [];
  const primary = color(theme.primaryColor);
  const accent = color(theme.accentColor);
  const background = color(theme.backgroundColor);
  const text = color(theme.textColor);
  const properties: string[] = [];
  if (text) properties.push(`--text: ${text}; --muted: ${text};`);
  if (background) properties.push(`--background: ${background};`);
  // The right/wrong colours are dark for a light page; a dark page gets light ones that keep 4.5:1.
  if (background && textOn(background) === "#ffffff") properties.push("--correct: #34d399; --incorrect: #f87171;");
  if (primary) properties.push(`--accent: ${primary}; --accent-strong: ${primary}; --visited: ${primary}; --on-accent: ${textOn(primary)};`);
  if (accent) properties.push(`--focus: ${accent};`);
  if (text || background) {
    properties.push(
      "--surface: color-mix(in srgb, var(--text) 6%, var(--background)); --hairline: color-mix(in srgb, var(--text) 25%, var(--background)); --border: color-mix(in srgb, var(--text) 65%, var(--background));",
    );
    // Tinted panels follow the page, so text keeps the contrast checked against the background.
    rules.push(
      `.${ClassName.callout}, .${ClassName.calloutInfo}, .${ClassName.calloutTip}, .${ClassName.calloutSuccess}, .${ClassName.calloutNote}, .${ClassName.calloutWarning}, .${ClassName.calloutDanger}, .${ClassName.quizPanel}, .${ClassName.flashcard}.${ClassName.isFlipped} { background: var(--surface); }`,
      `.${ClassName.callout} .${ClassName.calloutTitle} { color: var(--text); }`,
      `.${ClassName.contents} a[aria-current=\"page\"], .${ClassName.button}:hover, .${ClassName.iconButton}:hover { background: var(--surface); }`,
      `.${ClassName.contents} a[aria-current=\"page\"] { color: var(--text); }`,
    );
  }
  if (theme.corners === "square") properties.push("--radius: 0;");
  if (properties.length > 0) rules.unshift(`:root { ${properties.join(" ")} }`);
  if (primary) {
    const onPrimary = textOn(primary);
    rules.push(`.${ClassName.siteHeader} { background: ${primary}; color: ${onPrimary}; }`, `.${ClassName.previewBadge} { border-color: ${onPrimary}; }`);
    if (onPrimary !== "#ffffff") rules.push(`.${ClassName.siteHeader} :focus-visible { outline-color: ${onPrimary}; } .${ClassName.progressMeter} progress { accent-color: ${onPrimary}; }`);
  }
  if (accent) rules.push(`.${ClassName.contents} a[aria-current="page"] { border-left-color: ${accent}; }`);
  if (theme.corners === "square") rules.push(`.${ClassName.contents} a, .${ClassName.previewBadge}, .${ClassName.kindBadge}, select, input.${ClassName.blank}, .${ClassName.iconButton}, :focus-visible { border-radius: 0; }`);
  if (theme.font) {
    if (theme.font === "atkinson-hyperlegible") rules.unshift(atkinsonHyperlegibleFaces());
    rules.push(`body, .${ClassName.button}, .${ClassName.tab}, select, input.${ClassName.blank} { font-family: ${fontStacks[theme.font]}; }`);
  }
  rules.push(".course-logo { display: block; max-height: 2.5rem; width: auto; }", ".cover-image { display: block; width: 100%; max-height: 22rem; object-fit: cover; border-radius: var(--radius); margin: 0 0 1.5rem; }");
  return shortenStyleVariables(`\n${rules.join("\n")}\n`);
}

export function themeLogo(theme: CourseTheme | null, options: RenderOptions): SafeHtml | "" {
  return theme?.logo ? html`<img class="course-logo" src="${options.assetUrl(theme.logo.assetId)}" alt="${theme.logo.alt}">` : "";
}

export function themeCover(theme: CourseTheme | null, options: RenderOptions): SafeHtml | "" {
  return theme?.coverImage ? html`<img class="cover-image" src="${options.assetUrl(theme.coverImage.assetId)}" alt="${theme.coverImage.alt}">` : "";
}

/** The assets a theme shows (logo, cover image), for the preview to inline and packages to carry. */
export function themeAssetIds(theme: CourseTheme | null | undefined): string[] {
  return [theme?.logo?.assetId, theme?.coverImage?.assetId].filter((id): id is string => typeof id === "string");
}
