/**
 * The start-up check that the OpenAPI document is valid OpenAPI 3.1: against the official JSON schema,
 * with every local `$ref` resolving. The service runs it in a thread of its own
 * (`openapi-check-thread.ts`), so ajv and the schema never join the service's heap; the routes check
 * is `openapi-routes-check.ts`.
 */
import type { OpenAPIV3_1 } from "@scalar/openapi-types";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { invalidOpenApiError } from "./openapi-check-errors.ts";
import openApi31Schema from "@seriousme/openapi-schema-validator/schemas/v3.1/schema.json" with { type: "json" };

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

/** Every way the document fails OpenAPI 3.1 (empty when it is valid). */
export function openApiProblems(document: unknown): string[] {
  const validate = openApi31Validator();
  const problems = validate(document)
    ? []
    : (validate.errors ?? []).map((error) => `${error.instancePath || "/"} ${error.message ?? "is invalid"} ${JSON.stringify(error.params)}`);
  problems.push(...unresolvedRefs(document));
  return problems;
}

export async function assertValidOpenApi(document: OpenAPIV3_1.Document): Promise<void> {
  const problems = openApiProblems(document);
  if (problems.length > 0) throw invalidOpenApiError(problems);
}
