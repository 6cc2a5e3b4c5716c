/**
 * The page's custom properties under short names in what ships: the style sheets keep readable names
 * (`--accent-strong`) and the build writes the short ones (`--a2`), as the theme's per-course rules do,
 * so both agree. A name not in the table (a browser's or the minifier's own) is left as it is.
 */
const shortNames: Readonly<Record<string, string>> = {
  "--text": "--t",
  "--muted": "--m",
  "--background": "--b",
  "--surface": "--s",
  "--border": "--r",
  "--hairline": "--h",
  "--accent": "--a",
  "--accent-strong": "--a2",
  "--on-accent": "--oa",
  "--visited": "--v",
  "--correct": "--c",
  "--incorrect": "--i",
  "--focus": "--f",
  "--radius": "--rd",
  "--state-icon": "--si",
  "--state-colour": "--sc",
  "--callout-tint": "--ct",
  "--callout-border": "--cb",
  "--callout-title": "--cl",
  "--result-colour": "--rc",
  "--result-mark": "--rm",
  "--outcome-colour": "--oc",
};

/** The CSS with every page custom property (whole names only) under its short name. */
export function shortenStyleVariables(css: string): string {
  return css.replace(/--[a-z][a-z0-9-]*/g, (name) => shortNames[name] ?? name);
}
