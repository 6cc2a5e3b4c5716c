/**
 * Validates real HTTP responses against the service's own OpenAPI document, as served at
 * `/openapi.json`: it picks the operation, the documented status (exact, `4XX` range or `default`)
 * and the media type of the response, resolves `$ref`s into the document's components, and checks
 * the body and every documented header with a JSON Schema 2020-12 validator (Ajv). A test asserts the
 * returned list of problems is empty, so a failure names each mismatch.
 */
import type { OpenAPIV3_1 } from "@scalar/openapi-types";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";

type Schema = OpenAPIV3_1.SchemaObject | OpenAPIV3_1.ReferenceObject;
type HttpMethod = "get" | "post" | "put" | "delete" | "patch" | "head" | "options";

// ajv-formats is CommonJS; its callable export sits on `default` under some loaders.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule);

export interface CapturedResponse {
  status: number;
  headers: Headers;
  /** The body as text ("" when empty). */
  body: string;
}

/** Reads the whole body once, so tests can assert on it and validate it. */
export async function capture(response: Response): Promise<CapturedResponse> {
  return { status: response.status, headers: response.headers, body: await response.text() };
}

export async function fetchOpenApiDocument(baseUrl: string): Promise<OpenAPIV3_1.Document> {
  const response = await fetch(`${baseUrl}/openapi.json`);
  if (response.status !== 200) throw new Error(`GET /openapi.json answered ${response.status}`);
  return (await response.json()) as OpenAPIV3_1.Document;
}

function isReference(value: unknown): value is OpenAPIV3_1.ReferenceObject {
  return typeof value === "object" && value !== null && "$ref" in value;
}

/** Rewrites `#/components/schemas/X` to `#/$defs/X`, so one schema carries every component it needs. */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      key === "$ref" && typeof inner === "string" ? inner.replace("#/components/schemas/", "#/$defs/") : rewriteRefs(inner),
    ]),
  );
}

export function createResponseValidator(document: OpenAPIV3_1.Document) {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
  addFormats(ajv);
  const defs = rewriteRefs(document.components?.schemas ?? {});
  const compiled = new Map<string, ValidateFunction>();

  function compile(key: string, schema: Schema): ValidateFunction {
    const cached = compiled.get(key);
    if (cached) return cached;
    const rewritten = rewriteRefs(schema);
    const root = typeof rewritten === "object" && rewritten !== null ? rewritten : {};
    const validate = ajv.compile({ ...root, $defs: defs });
    compiled.set(key, validate);
    return validate;
  }

  function component<T>(kind: "responses" | "headers", value: T | OpenAPIV3_1.ReferenceObject): T | undefined {
    if (!isReference(value)) return value;
    const name = value.$ref.replace(`#/components/${kind}/`, "");
    return (document.components?.[kind] as Record<string, T> | undefined)?.[name];
  }

  function schemaProblems(key: string, schema: Schema, value: unknown, what: string): string[] {
    const validate = compile(key, schema);
    if (validate(value)) return [];
    return (validate.errors ?? []).map((error) => `${what}${error.instancePath} ${error.message ?? "is invalid"} ${JSON.stringify(error.params)}`);
  }

  function documentedResponse(path: string, method: HttpMethod, status: number) {
    const operation = document.paths?.[path]?.[method];
    if (!operation) return { problem: `${method.toUpperCase()} ${path} is not documented` };
    const responses = operation.responses ?? {};
    const key = [String(status), `${String(status)[0]}XX`, "default"].find((candidate) => candidate in responses);
    const raw = key === undefined ? undefined : responses[key];
    const response = raw === undefined ? undefined : component<OpenAPIV3_1.ResponseObject>("responses", raw);
    if (!response || key === undefined) return { problem: `${method.toUpperCase()} ${path} documents no ${status} response` };
    return { response, key };
  }

  return {
    document,

    /** Every way `response` departs from what the document says `method path` answers. */
    check(path: string, method: HttpMethod, response: CapturedResponse): string[] {
      const found = documentedResponse(path, method, response.status);
      if ("problem" in found) return [found.problem ?? "undocumented"];
      const { response: documented, key } = found;
      const where = `${method.toUpperCase()} ${path} ${key}`;
      const problems: string[] = [];

      for (const [name, rawHeader] of Object.entries(documented.headers ?? {})) {
        const header = component<OpenAPIV3_1.HeaderObject>("headers", rawHeader);
        const value = response.headers.get(name);
        if (value === null || !header?.schema) continue;
        problems.push(...schemaProblems(`${where} header ${name}`, header.schema, value, `header ${name}`));
      }

      const contentType = response.headers.get("content-type");
      const content = documented.content ?? {};
      if (contentType === null) {
        if (response.body !== "") problems.push(`${where}: a body without Content-Type`);
        return problems;
      }
      const mediaType = contentType.split(";")[0]!.trim().toLowerCase();
      const media = content[mediaType];
      if (!media) return [...problems, `${where}: Content-Type ${mediaType} is not documented (${Object.keys(content).join(", ") || "no content"})`];
      if (!media.schema) return problems;
      const isJson = mediaType === "application/json" || mediaType.endsWith("+json");
      let value: unknown = response.body;
      if (isJson) {
        try {
          value = JSON.parse(response.body);
        } catch {
          return [...problems, `${where}: the ${mediaType} body is not JSON`];
        }
      }
      problems.push(...schemaProblems(`${where} ${mediaType}`, media.schema, value, "body"));
      return problems;
    },

    /** Problems of `value` against one component schema, e.g. `ProblemDetails`. */
    checkComponent(name: string, value: unknown): string[] {
      return schemaProblems(`component ${name}`, { $ref: `#/components/schemas/${name}` }, value, name);
    },
  };
}

export type ResponseValidator = ReturnType<typeof createResponseValidator>;
