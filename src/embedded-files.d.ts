/**
 * Files imported `with { type: "file" }` (embedded by `bun build --compile`): the import is a readable
 * path, on disk under `bun run` and inside the binary once compiled.
 */
declare module "*.woff2" {
  const path: string;
  export default path;
}
declare module "*.xsd" {
  const path: string;
  export default path;
}
declare module "*.dtd" {
  const path: string;
  export default path;
}

/** axe-core's built script, imported `with { type: "text" }` so the binary carries it: evaluated inside the audit's DOM window. */
declare module "axe-core/axe.min.js" {
  const source: string;
  export default source;
}

declare module "*.woff" {
  const path: string;
  export default path;
}
