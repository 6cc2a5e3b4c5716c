/**
 * WCAG 2.2 relative luminance and contrast ratio of #rrggbb colours, and the text colour that reads on a
 * filled surface: the page's theme picks it for the header and main buttons, the theme check holds it
 * to 4.5:1, so a dark page with a light primary colour works as well as a light page with a dark one.
 */
export type Rgb = [number, number, number];

export function rgbOf(hex: string): Rgb {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

function luminance(hex: string): number {
  const [r, g, b] = rgbOf(hex).map((channel) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

const lightText = "#ffffff";
const darkText = "#111827";

/** White, or near-black when that reads better, on a surface filled with `fill`. */
export function textOn(fill: string): string {
  return contrastRatio(lightText, fill) >= contrastRatio(darkText, fill) ? lightText : darkText;
}
