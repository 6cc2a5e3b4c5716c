/**
 * Start-up checks that keep the OpenAPI document honest: it must validate against the official
 * OpenAPI 3.1 JSON schema, and it must describe exactly the routes the router serves — every routed
 * (path, method) documented and every documented operation routed. Both throw one Error listing
 * every problem, so a drift between code and description stops the service loudly.
 */
import type { OpenAPIV3_1 } from "@scalar/openapi-types";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import openApi31Schema from "@seriousme/openapi-schema-validator/schemas/v3.1/schema.json" with { type: "json" };
import type { Method, Route } from "../http/router.ts";

const documentedMethods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/**
 * The official OpenAPI 3.1 schema (as vendored by @seriousme/openapi-schema-validator), imported as a
 * module so that it is bundled into the compiled binary; the validator's own loader reads it from disk
 * at run time, which a single-file binary cannot do.
 */
function openApi31Validator(): ValidateFunction {
  // Compiled for one document at start-up and then dropped: ajv's optimiser triples the compile time
  // (~550 → ~200 ms) for code that runs once, and a kept validator is heap every collection marks.
  const ajv = new Ajv2020({ allErrors: true, strict: false, code: { optimize: false } });
  addFormats(ajv);
  ajv.addFormat("media-range", true);
  return ajv.compile(openApi31Schema);
}

/** Every local `$ref` ("#/…") must point at something in the document. */
function unresolvedRefs(document: unknown): string[] {
  const problems: string[] = [];
  const resolve = (pointer: string): unknown =>
    pointer
      .slice(2)
      .split("/")
      .map((part) => decodeURIComponent(part).replace(/~1/g, "/").replace(/~0/g, "~"))
      .reduce<unknown>((node, key) => (node !== null && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined), document);
  const walk = (node: unknown, path: string) => {
    if (Array.isArray(node)) node.forEach((item, index) => walk(item, `${path}/${index}`));
    else if (node !== null && typeof node === "object") {
      for (const [key, value] of Object.entries(node)) {
        if (key === "$ref" && typeof value === "string" && value.startsWith("#/") && resolve(value) === undefined) problems.push(`${path}/$ref ${value} does not resolve`);
        else walk(value, `${path}/${key}`);
      }
    }
  };
  walk(document, "");
  return problems;
}

export async function assertValidOpenApi(document: OpenAPIV3_1.Document): Promise<void> {
  const validate = openApi31Validator();
  const problems = validate(document)
    ? []
    : (validate.errors ?? []).map((error) => `${error.instancePath || "/"} ${error.message ?? "is invalid"} ${JSON.stringify(error.params)}`);
  problems.push(...unresolvedRefs(document));
  if (problems.length === 0) return;
  throw new Error(`The OpenAPI document is not valid OpenAPI 3.1:\n  ${problems.join("\n  ")}`);
}

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
