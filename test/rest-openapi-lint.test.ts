/**
 * The published OpenAPI document passes the two linters API teams run in CI, offline through their
 * libraries: Redocly's `recommended` ruleset and Spectral's `oas` ruleset. Any error or warning of those
 * rules fails, each named with its rule and location, so a reader of the document (or a portal that
 * imports it) meets no problem the linters know of.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { Document, Spectral, type RulesetDefinition } from "@stoplight/spectral-core";
import { Json } from "@stoplight/spectral-parsers";
import { oas } from "@stoplight/spectral-rulesets";
import { startTestService, type TestService } from "./support/service.ts";

let service: TestService;
let published = "";

beforeAll(async () => {
  service = await startTestService();
  const response = await fetch(`${service.url}/openapi.json`);
  expect(response.status).toBe(200);
  published = await response.text();
});

afterAll(async () => {
  await service?.dispose();
});

describe("what the linters asked for", () => {
  test("public operations declare `security: []`; /mcp requires the openid scope it checks; license and contact are given", () => {
    const document = JSON.parse(published) as { info: Record<string, unknown>; paths: Record<string, Record<string, { security?: unknown; requestBody?: { content: Record<string, { schema: unknown }> } }>>; components: { schemas: Record<string, unknown> } };
    for (const path of ["/api/health", "/openapi.json", "/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource", "/.well-known/mcp.json", "/docs/api"]) {
      expect({ path, security: document.paths[path]?.get?.security }).toEqual({ path, security: [] });
    }
    for (const method of ["post", "get", "delete"]) expect(document.paths["/mcp"]?.[method]?.security).toEqual([{ oauth2: ["openid"] }]);
    expect(document.paths["/mcp"]?.post?.requestBody?.content["application/json"]?.schema).toEqual({ $ref: "#/components/schemas/McpMessages" });
    expect(document.components.schemas.McpMessages).toMatchObject({ oneOf: [{ $ref: "#/components/schemas/McpMessage" }, { type: "array", items: { $ref: "#/components/schemas/McpMessage" } }] });
    expect(document.info).toMatchObject({ license: { name: expect.any(String) }, contact: { url: `${service.url}/docs/api` } });
  });
});

describe("the served /openapi.json passes the linters", () => {
  test("Redocly recommended: no error and no warning", async () => {
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lintFromString({ source: published, absoluteRef: `${service.url}/openapi.json`, config });
    const found = problems.filter((problem) => problem.severity === "error" || problem.severity === "warn").map((problem) => `${problem.severity} ${problem.ruleId}: ${problem.message} at ${problem.location.map((where) => where.pointer).join(", ")}`);
    expect(found).toEqual([]);
  });

  test("Spectral oas: no error and no warning", async () => {
    const spectral = new Spectral();
    // What `extends: spectral:oas` means in a .spectral.yaml: the oas rules at their recommended severities.
    spectral.setRuleset({ extends: [[oas as RulesetDefinition, "recommended"]] });
    const results = await spectral.run(new Document(published, Json, "openapi.json"));
    // Spectral's severities: 0 error, 1 warning, 2 information, 3 hint.
    const found = results.filter((result) => result.severity <= 1).map((result) => `${result.severity === 0 ? "error" : "warn"} ${String(result.code)}: ${result.message} at /${result.path.join("/")}`);
    expect(found).toEqual([]);
  });
});
