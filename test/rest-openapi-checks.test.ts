/**
 * The start-up checks refuse a document that is not OpenAPI 3.1 or that disagrees with the router, so
 * a drift between code and description stops the service instead of being published.
 */
import { describe, expect, test } from "bun:test";
import { assertValidOpenApi } from "../src/discovery/openapi-check.ts";
import { assertRoutesMatchDocument } from "../src/discovery/openapi-routes-check.ts";
import { buildOpenApiDocument } from "../src/discovery/openapi-document.ts";
import { checkOpenApiInThread } from "../src/discovery/openapi-check-thread.ts";
import type { Route } from "../src/http/router.ts";

const document = () => buildOpenApiDocument({ baseUrl: "http://api.test", authUrl: "http://auth.test" });

describe("validation against the OpenAPI 3.1 schema", () => {
  test("the service's own document is valid", async () => {
    await assertValidOpenApi(document());
  });

  test("a document without info is refused, naming the problem", async () => {
    const broken = { ...document(), info: undefined } as unknown as ReturnType<typeof document>;
    expect(assertValidOpenApi(broken)).rejects.toThrow(/not valid OpenAPI 3.1[\s\S]*info/);
  });

  test("a $ref that points nowhere is refused", async () => {
    const broken = document();
    const health = broken.paths!["/api/health"]!.get!;
    health.responses!["200"] = { $ref: "#/components/responses/Missing" };
    expect(assertValidOpenApi(broken)).rejects.toThrow(/#\/components\/responses\/Missing does not resolve/);
  });
});

describe("the check in its own thread, as the service runs it", () => {
  const entry = new URL("../src/discovery/openapi-check-worker.ts", import.meta.url);

  test("passes the service's own document and refuses a broken one with the same problems", async () => {
    await checkOpenApiInThread(document(), entry);
    const broken = { ...document(), info: undefined } as unknown as ReturnType<typeof document>;
    expect(checkOpenApiInThread(broken, entry)).rejects.toThrow(/not valid OpenAPI 3.1[\s\S]*info/);
  });

  test("a thread that cannot start fails start-up, saying the check could not run", async () => {
    const missing = new URL("../src/discovery/no-such-worker.ts", import.meta.url);
    expect(checkOpenApiInThread(document(), missing)).rejects.toThrow(/OpenAPI check could not run/);
  });
});

describe("agreement with the router", () => {
  const noop = () => new Response();
  const routedPaths = (doc: ReturnType<typeof document>): Route[] =>
    Object.entries(doc.paths ?? {}).map(([path, item]) => ({
      path,
      methods: Object.fromEntries(["get", "post", "delete"].filter((m) => item && m in item).map((m) => [m.toUpperCase(), noop])),
    }));

  test("a router that serves exactly the documented operations passes", () => {
    const doc = document();
    expect(() => assertRoutesMatchDocument(doc, routedPaths(doc))).not.toThrow();
  });

  test("a routed operation that is not documented stops start-up", () => {
    const doc = document();
    const routes = [...routedPaths(doc), { path: "/api/secret", methods: { GET: noop } }];
    expect(() => assertRoutesMatchDocument(doc, routes)).toThrow("routed but not documented: GET /api/secret");
  });

  test("a documented operation that is not routed stops start-up", () => {
    const doc = document();
    const routes = routedPaths(doc).filter((route) => route.path !== "/api/health");
    expect(() => assertRoutesMatchDocument(doc, routes)).toThrow("documented but not routed: GET /api/health");
  });
});
