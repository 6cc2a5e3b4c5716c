/**
 * WCAG 2.2 contrast for a theme's colours: the relative luminance and ratio of the spec, the pairs that
 * text and controls sit on, and, for a failing pair, the nearest colour (same hue, darker or lighter)
 * that passes, so an author gets a fix rather than a guess.
 */
import { contrastRatio, rgbOf, textOn, type Rgb } from "../render/contrast.ts";
import { defaultThemeColors, type CourseTheme } from "./schemas/theme.ts";

export { contrastRatio };

function hexOf([r, g, b]: Rgb): string {
  return `#${[r, g, b].map((part) => Math.round(part).toString(16).padStart(2, "0")).join("")}`;
}

/** The passing colour closest to `color` on its way to black or white, against a fixed `other`. */
export function nearestPassing(color: string, other: string, minimum: number): string {
  const start = rgbOf(color);
  const candidates: string[] = [];
  for (const target of [[0, 0, 0], [255, 255, 255]] as Rgb[]) {
    for (let step = 1; step <= 100; step++) {
      const mixed = start.map((channel, index) => channel + ((target[index] ?? 0) - channel) * (step / 100)) as Rgb;
      const candidate = hexOf(mixed);
      if (contrastRatio(candidate, other) >= minimum) {
        candidates.push(candidate);
        break;
      }
    }
  }
  const distance = (hex: string) => rgbOf(hex).reduce((sum, channel, index) => sum + (channel - (start[index] ?? 0)) ** 2, 0);
  return candidates.sort((a, b) => distance(a) - distance(b))[0] ?? "#000000";
}

export interface ContrastFailure {
  /** The theme field to change. */
  readonly field: keyof typeof defaultThemeColors;
  readonly against: string;
  readonly ratio: number;
  readonly minimum: number;
  readonly suggestion: string;
  readonly use: string;
}

/** The pairs text and controls sit on, each with its WCAG 2.2 AA minimum (4.5:1 text, 3:1 controls). */
export function contrastFailures(theme: CourseTheme): ContrastFailure[] {
  const colors = { ...defaultThemeColors, ...theme };
  const pairs: { field: ContrastFailure["field"]; other: string; otherName: string; minimum: number; use: string }[] = [
    { field: "textColor", other: colors.backgroundColor, otherName: "backgroundColor", minimum: 4.5, use: "body text on the page background" },
    { field: "primaryColor", other: colors.backgroundColor, otherName: "backgroundColor", minimum: 4.5, use: "links on the page background" },
    { field: "primaryColor", other: textOn(colors.primaryColor), otherName: textOn(colors.primaryColor) === "#ffffff" ? "white" : "near-black", minimum: 4.5, use: "text on the header and main buttons (white, or near-black on a light primary)" },
    { field: "accentColor", other: colors.backgroundColor, otherName: "backgroundColor", minimum: 3, use: "focus rings and the progress bar on the page background" },
  ];
  const failures: ContrastFailure[] = [];
  for (const pair of pairs) {
    const ratio = contrastRatio(colors[pair.field], pair.other);
    if (ratio >= pair.minimum) continue;
    failures.push({ field: pair.field, against: pair.otherName, ratio: Math.floor(ratio * 100) / 100, minimum: pair.minimum, suggestion: nearestPassing(colors[pair.field], pair.other, pair.minimum), use: pair.use });
  }
  return failures;
}
