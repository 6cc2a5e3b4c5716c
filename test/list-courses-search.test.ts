/**
 * `list_courses` search matches its text literally, over HTTP with the SDK client against a real
 * SQLite file: a NUL matches only titles that contain a NUL (it used to end the LIKE pattern early
 * and match every course), and `%`, `_` and `\` are ordinary characters. ASCII letters match in any
 * case.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { TestService } from "./support/service.ts";
import { startTestIssuer, type TestIssuer } from "./support/test-issuer.ts";
import { startServiceFor } from "./auth-requests.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";

let idp: TestIssuer;
let service: TestService;
let agent: Agent;

const titles = ["Alpha safety", "Beta basics", "Nul\u0000byte course", "100% compliance", "snake_case naming", "Back\\slash", "ÉCOLE française"];

beforeAll(async () => {
  idp = await startTestIssuer();
  service = await startServiceFor(idp);
  agent = await connectAgent(service, await idp.sign({ sub: "searcher" }));
  for (const title of titles) await agent.call("create_course", { title });
});

afterAll(async () => {
  await agent?.close();
  await service?.dispose();
  await idp?.stop();
});

async function search(text: string): Promise<string[]> {
  const result = await agent.call("list_courses", { search: text, limit: 100 });
  return (result.courses as { title: string }[]).map((course) => course.title).sort();
}

describe("list_courses search", () => {
  test("a NUL matches only titles containing a NUL", async () => {
    expect(await search("\u0000")).toEqual(["Nul\u0000byte course"]);
    expect(await search("l\u0000b")).toEqual(["Nul\u0000byte course"]);
  });

  test("text after a NUL still has to match", async () => {
    expect(await search("Nul\u0000xyz")).toEqual([]);
    expect(await search("a\u0000")).toEqual([]);
  });

  test("% and _ and \\ are literal characters, not wildcards", async () => {
    expect(await search("%")).toEqual(["100% compliance"]);
    expect(await search("_")).toEqual(["snake_case naming"]);
    expect(await search("\\")).toEqual(["Back\\slash"]);
    expect(await search("a_e")).toEqual([]);
  });

  test("ASCII letters match in any case", async () => {
    expect(await search("ALPHA")).toEqual(["Alpha safety"]);
    expect(await search("basics")).toEqual(["Beta basics"]);
  });

  test("a title is found by its own text, non-ASCII letters included", async () => {
    for (const title of titles) expect(await search(title)).toEqual([title]);
  });
});
