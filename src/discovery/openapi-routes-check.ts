/**
 * The start-up check that the OpenAPI document describes exactly the routes the router serves: every
 * routed (path, method) documented and every documented operation routed. It throws one Error listing
 * every mismatch, so a drift between code and description stops the service loudly.
 */
import type { OpenAPIV3_1 } from "@scalar/openapi-types";
import type { Method, Route } from "../http/router.ts";

const documentedMethods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/**
 * Every routed "METHOD /path", HEAD included wherever GET is routed (the router serves it). A prefix
 * route beside an exact route of the same path only answers the suffixes below it (e.g. the metadata
 * endpoint's plain-text 404), which the exact operation documents; it adds no operation of its own.
 */
function routedOperations(routes: Route[]): Set<string> {
  const exactPaths = new Set(routes.filter((route) => !route.prefix).map((route) => route.path));
  const operations = new Set<string>();
  for (const route of routes) {
    if (route.prefix && exactPaths.has(route.path)) continue;
    for (const method of Object.keys(route.methods) as Method[]) operations.add(`${method} ${route.path}`);
    if (route.methods.GET) operations.add(`HEAD ${route.path}`);
  }
  return operations;
}

function documentedOperations(document: OpenAPIV3_1.Document): Set<string> {
  const operations = new Set<string>();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (!item) continue;
    for (const method of documentedMethods) {
      if (item[method]) operations.add(`${method.toUpperCase()} ${path}`);
    }
  }
  return operations;
}

/** HEAD is implied by GET and OPTIONS answers CORS preflight: neither needs its own description. */
const needsDocumentation = (operation: string) => !operation.startsWith("HEAD ") && !operation.startsWith("OPTIONS ");

export function assertRoutesMatchDocument(document: OpenAPIV3_1.Document, routes: Route[]): void {
  const routed = routedOperations(routes);
  const documented = documentedOperations(document);
  const mismatches = [
    ...[...routed]
      .filter((operation) => needsDocumentation(operation) && !documented.has(operation))
      .map((operation) => `routed but not documented: ${operation}`),
    ...[...documented]
      .filter((operation) => !routed.has(operation))
      .map((operation) => `documented but not routed: ${operation}`),
  ];
  if (mismatches.length > 0) {
    throw new Error(`The router and the OpenAPI document disagree:\n  ${mismatches.join("\n  ")}`);
  }
}
