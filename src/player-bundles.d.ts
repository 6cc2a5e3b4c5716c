/** The player's built bundles (`src/build-player.ts`), imported `with { type: "text" }`: the import is the script's text. */
declare module "*.js.txt" {
  const source: string;
  export default source;
}
