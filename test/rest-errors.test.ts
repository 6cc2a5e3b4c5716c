/**
 * Spec 2.1, 7 and 9.5 over real HTTP: REST errors are closed ProblemDetails objects whose `status`
 * equals the HTTP status — 404 for any URL that is not an API resource (no `/v2` exists), 405 with
 * `Allow` for a known path and an unsupported method. Bodies are validated against the document's
 * own ProblemDetails schema.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { problemTypes } from "../src/http/problem.ts";
import { capture, type CapturedResponse } from "./support/openapi-responses.ts";
import { startRestFixture, type RestFixture } from "./support/rest-fixture.ts";

let fixture: RestFixture;

beforeAll(async () => {
  fixture = await startRestFixture();
});

afterAll(async () => {
  await fixture?.dispose();
});

const problemFields = ["type", "title", "status", "detail", "code", "instance"];

function expectProblem(response: CapturedResponse): Record<string, unknown> {
  expect(response.headers.get("content-type")).toStartWith("application/problem+json");
  const problem = JSON.parse(response.body) as Record<string, unknown>;
  expect(fixture.validator.checkComponent("ProblemDetails", problem)).toEqual([]);
  for (const key of Object.keys(problem)) expect(problemFields).toContain(key);
  expect(problem.status).toBe(response.status);
  return problem;
}

test("an unknown path answers 404 problem+json: not-found, Not Found, not_found, instance = the path", async () => {
  const response = await capture(await fetch(`${fixture.base}/no/such/resource?page=2`));
  expect(response.status).toBe(404);
  const problem = expectProblem(response);
  expect(problem).toEqual({
    type: `${fixture.base}/docs/api#not-found`,
    title: "Not Found",
    status: 404,
    detail: expect.any(String),
    code: "not_found",
    instance: "/no/such/resource",
  });
});

test("no /v2 URL exists: /v2/api/health is not found", async () => {
  const response = await capture(await fetch(`${fixture.base}/v2/api/health`));
  expect(response.status).toBe(404);
  expect(expectProblem(response).code).toBe("not_found");
});

test("a known path with an unsupported method answers 405 problem+json with Allow", async () => {
  for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
    const response = await capture(await fetch(`${fixture.base}/api/health`, { method }));
    expect(response.status).toBe(405);
    const problem = expectProblem(response);
    expect(problem).toMatchObject({
      type: `${fixture.base}/docs/api#method-not-allowed`,
      title: problemTypes.methodNotAllowed.title,
      code: problemTypes.methodNotAllowed.code,
      instance: "/api/health",
    });
    const allow = (response.headers.get("allow") ?? "").split(",").map((m) => m.trim());
    expect(allow).toContain("GET");
    expect(allow).toContain("HEAD");
    expect(allow).not.toContain(method);
  }
});

test("every ProblemDetails carries type, title, status, detail, code, and status equals the HTTP status", async () => {
  const cases: [string, RequestInit, number][] = [
    ["/nope", {}, 404],
    ["/openapi.json", { method: "DELETE" }, 405],
    ["/docs/api", { method: "POST" }, 405],
    ["/.well-known/mcp.json", { headers: { "Service-Api-Version": "7" } }, 400],
    // Sent as an empty value (not dropped), so it is neither absent nor `1`: refused like any other.
    ["/api/health", { headers: { "Service-Api-Version": "" } }, 400],
  ];
  for (const [path, init, status] of cases) {
    const response = await capture(await fetch(`${fixture.base}${path}`, init));
    expect({ path, status: response.status }).toEqual({ path, status });
    const problem = expectProblem(response);
    for (const field of ["type", "title", "status", "detail", "code"]) expect(problem).toHaveProperty(field);
    const known = Object.values(problemTypes).find((type) => `${fixture.base}/docs/api#${type.slug}` === problem.type);
    expect(known).toBeDefined();
    expect(problem).toMatchObject({ title: known?.title, code: known?.code, status: known?.status });
  }
});

test("every problem type URI resolves to an anchor of the documentation page", async () => {
  const html = await (await fetch(`${fixture.base}/docs/api`)).text();
  for (const type of Object.values(problemTypes)) expect(html).toContain(`id="${type.slug}"`);
});
