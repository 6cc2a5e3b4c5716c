/**
 * Spec 1, 5 and 9.3 over real HTTP: `/openapi.json` is a valid OpenAPI 3.1 document, version 1.0.0,
 * describing exactly the served operations with the OAuth 2.0 authorization code scheme on /mcp and
 * no security on the discovery operations; every schema in it is valid JSON Schema 2020-12.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { OpenAPIV3_1 } from "@scalar/openapi-types";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { assertValidOpenApi } from "../src/discovery/openapi-check.ts";
import { capture } from "./support/openapi-responses.ts";
import { startRestFixture, type RestFixture } from "./support/rest-fixture.ts";

const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

let fixture: RestFixture;
let document: OpenAPIV3_1.Document;

beforeAll(async () => {
  fixture = await startRestFixture();
  document = fixture.validator.document;
});

afterAll(async () => {
  await fixture?.dispose();
});

test("GET /openapi.json answers 200 application/json, as documented", async () => {
  const response = await capture(await fetch(`${fixture.base}/openapi.json`));
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toStartWith("application/json");
  expect(response.headers.get("service-api-version")).toBe("1");
  expect(fixture.validator.check("/openapi.json", "get", response)).toEqual([]);
});

test("the served document is valid OpenAPI 3.1 with info.version 1.0.0", async () => {
  await assertValidOpenApi(document);
  expect(document.openapi).toStartWith("3.1.");
  expect(document.info?.version).toBe("1.0.0");
  expect(document.servers?.[0]?.url).toBe(fixture.base);
});

test("it documents exactly the spec's operations and the design's additions", () => {
  const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    (["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const)
      .filter((method) => item?.[method])
      .map((method) => `${method.toUpperCase()} ${path}`),
  );
  expect(operations.sort()).toEqual(
    [
      "GET /api/health",
      "GET /openapi.json",
      "GET /.well-known/oauth-protected-resource/mcp",
      "POST /mcp",
      "GET /mcp",
      "DELETE /mcp",
      "GET /.well-known/oauth-protected-resource",
      "GET /.well-known/mcp.json",
      "GET /docs/api",
    ].sort(),
  );
});

test("POST /mcp requires the OAuth 2.0 authorization code scheme with the spec's endpoints and scopes, naming the openid scope every token needs", () => {
  const scheme = document.components?.securitySchemes?.oauth2 as OpenAPIV3_1.OAuth2SecurityScheme | undefined;
  expect(scheme?.type).toBe("oauth2");
  const flow = scheme?.flows?.authorizationCode;
  expect(flow?.authorizationUrl).toBe(`${fixture.service.authUrl}/oauth2/authorize`);
  expect(flow?.tokenUrl).toBe(`${fixture.service.authUrl}/oauth2/token`);
  expect(flow?.scopes).toEqual({
    openid: "Authenticate the authorized user",
    profile: "Access the user's profile",
    email: "Access the user's e-mail address",
    offline_access: "Refresh access when the user permits",
  });
  const mcp = document.paths?.["/mcp"];
  for (const operation of [mcp?.post, mcp?.get, mcp?.delete]) expect(operation?.security).toEqual([{ oauth2: ["openid"] }]);
});

test("health, the OpenAPI document and the metadata endpoint declare no authentication requirement", () => {
  expect(document.security ?? []).toEqual([]);
  for (const path of ["/api/health", "/openapi.json", "/.well-known/oauth-protected-resource/mcp"]) {
    expect(document.paths?.[path]?.get?.security ?? []).toEqual([]);
  }
});

test("the spec's shapes and headers are components with their exact constraints", () => {
  const schemas = document.components?.schemas ?? {};
  expect(schemas.ProblemDetails).toMatchObject({
    additionalProperties: false,
    required: ["type", "title", "status", "detail", "code"],
    properties: { status: { type: "integer" }, type: { format: "uri" } },
  });
  expect(schemas.OAuthError).toMatchObject({
    additionalProperties: false,
    required: ["error"],
    properties: { error: { enum: ["invalid_token", "insufficient_scope"] } },
  });
  expect(schemas.TemporarilyUnavailableError).toMatchObject({
    additionalProperties: false,
    properties: { error: { enum: ["temporarily_unavailable"] } },
  });
  const headers = document.components?.headers ?? {};
  expect(headers["Service-Api-Version"]).toMatchObject({ schema: { enum: ["1"] } });
  expect(headers.Deprecation).toMatchObject({ schema: { pattern: "^@[0-9]+$" } });
  for (const name of ["Sunset", "WWW-Authenticate", "Retry-After"]) expect(headers).toHaveProperty(name);
  expect(document.components?.parameters?.["Service-Api-Version"]).toMatchObject({ in: "header", required: false, schema: { enum: ["1"] } });
});

test("health documents 400, 401, 403, 404, 429, 500 and 503 as problem+json ProblemDetails", () => {
  const responses = document.paths?.["/api/health"]?.get?.responses ?? {};
  for (const status of ["400", "401", "403", "404", "429", "500", "503"]) {
    const reference = responses[status] as OpenAPIV3_1.ReferenceObject;
    const name = reference.$ref.replace("#/components/responses/", "");
    const response = document.components?.responses?.[name] as OpenAPIV3_1.ResponseObject;
    expect(response.content?.["application/problem+json"]?.schema).toEqual({ $ref: "#/components/schemas/ProblemDetails" });
  }
});

test("errors of /mcp and of the metadata endpoint are never documented as problem+json", () => {
  const operations = [
    document.paths?.["/mcp"]?.post,
    document.paths?.["/mcp"]?.get,
    document.paths?.["/mcp"]?.delete,
    document.paths?.["/.well-known/oauth-protected-resource/mcp"]?.get,
  ];
  for (const operation of operations) {
    expect(Object.keys(operation?.responses ?? {}).length).toBeGreaterThan(0);
    for (const response of Object.values(operation?.responses ?? {})) {
      expect(JSON.stringify(response)).not.toContain("problem+json");
      expect(JSON.stringify(response)).not.toContain("#/components/responses/");
    }
  }
});

test("every schema in the document is valid JSON Schema 2020-12", () => {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
  addFormats(ajv);
  const found: unknown[] = [];
  const walk = (value: unknown, key?: string) => {
    if (typeof value !== "object" || value === null) return;
    if (key === "schema") found.push(value);
    for (const [inner, child] of Object.entries(value)) walk(child, inner);
  };
  walk(document.paths);
  walk(document.components?.headers);
  walk(document.components?.parameters);
  walk(document.components?.responses);
  const defs = JSON.parse(JSON.stringify(document.components?.schemas ?? {}).replaceAll("#/components/schemas/", "#/$defs/"));
  for (const schema of [...found, ...Object.values(defs)]) {
    const rewritten = JSON.parse(JSON.stringify(schema).replaceAll("#/components/schemas/", "#/$defs/"));
    expect(() => ajv.compile({ ...rewritten, $defs: defs })).not.toThrow();
  }
  expect(found.length).toBeGreaterThan(10);
});
