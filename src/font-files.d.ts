/** Font files imported `with { type: "file" }` (bundled by `bun build --compile`): the import is a readable path. */
declare module "*.woff2" {
  const path: string;
  export default path;
}
