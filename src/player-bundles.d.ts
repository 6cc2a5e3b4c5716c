/** The player's built bundles (`src/build-player.ts`), imported `with { type: "text" }`: the import is the script's text. */
declare module "*.js.txt" {
  const source: string;
  export default source;
}

/** The page's style sheets, minified by the same build: the import is the style sheet's text. */
declare module "*.css.txt" {
  const source: string;
  export default source;
}
