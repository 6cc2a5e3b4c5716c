/**
 * Every /mcp body is bounded before it is parsed (issue 39, item 3): one flat scan checks nesting
 * depth (64), members of one object or items of one array (10,000), members and items in all
 * (100,000) and member-name length (1,024 characters), and a body past any of them is HTTP 400 with
 * JSON-RPC -32600 naming the limit, in both protocol eras and wherever the members sit (`_meta`,
 * `params`, `arguments`). Parsing and the SDK's schemas cost microseconds per member, so before this
 * 200,000 keys held the event loop for seconds; here `/api/health` and another user's `get_course` are
 * probed every 100 ms throughout and must never wait more than 2 s. Strings are bounded by the body
 * cap alone (a 10 MB base64 upload is legitimate), and a 15 MB one is still answered without a stall.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestService, type TestService } from "./support/service.ts";
import { startTestIssuer, type TestIssuer } from "./support/test-issuer.ts";
import { waitForOAuthConfiguration } from "./support/rest-fixture.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { modernRequest } from "./support/modern-client.ts";
import { assertResponsive, watchResponsiveness } from "./support/responsiveness.ts";

let idp: TestIssuer;
let service: TestService;
let aliceToken: string;
let alice: Agent;
let bob: Agent;
let bobCourseId: string;

beforeAll(async () => {
  idp = await startTestIssuer();
  service = await startTestService({ AUTH_URL: idp.url, AUTH_AUDIENCE: idp.audience });
  await waitForOAuthConfiguration(service.url);
  aliceToken = await idp.sign({ sub: "alice" });
  alice = await connectAgent(service, aliceToken, "alice");
  bob = await connectAgent(service, await idp.sign({ sub: "bob" }), "bob");
  bobCourseId = String((await bob.call("create_course", { title: "Bob's course", modules: [{ title: "M", lessons: [{ title: "L" }] }] })).id);
}, 30_000);

afterAll(async () => {
  await alice?.close();
  await bob?.close();
  await service?.dispose();
  await idp?.stop();
});

type Era = "2025 session" | "2026-07-28";
type Place = "_meta" | "params" | "arguments";
const marker = '"__members__":0';

/** `"k0":0,"k1":0,…`: built as text, so the test's own process does not stringify a million keys. */
function members(count: number, width = 0): string {
  const parts = new Array<string>(count);
  for (let index = 0; index < count; index++) parts[index] = `"k${String(index).padStart(width, "0")}":0`;
  return parts.join(",");
}

/** A `tools/call` of `list_courses` whose `place` holds `inner` (JSON members text) in `era`, with its headers. */
function hostileCall(era: Era, place: Place, inner: string): { headers: Record<string, string>; body: string } {
  const params = {
    name: "list_courses",
    arguments: place === "arguments" ? { __members__: 0 } : {},
    ...(place === "params" ? { __members__: 0 } : {}),
    ...(place === "_meta" ? { _meta: { __members__: 0 } } : {}),
  };
  const session = alice.client.transport as unknown as { sessionId?: string };
  const { headers, body } =
    era === "2026-07-28"
      ? modernRequest("tools/call", params)
      : { headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "Mcp-Session-Id": session.sessionId ?? "", "MCP-Protocol-Version": "2025-11-25" }, body: { jsonrpc: "2.0", id: 7, method: "tools/call", params } };
  return { headers, body: JSON.stringify(body).replace(marker, inner) };
}

interface Answer {
  status: number;
  contentType: string | null;
  text: string;
}

async function post(request: { headers: Record<string, string>; body: string }): Promise<Answer> {
  const response = await fetch(service.mcpUrl, { method: "POST", headers: { ...request.headers, Authorization: `Bearer ${aliceToken}` }, body: request.body });
  return { status: response.status, contentType: response.headers.get("content-type"), text: await response.text() };
}

/** Posts while health and Bob's get_course are probed; asserts no probe waited over 2 s; returns the answer. */
async function postWatched(request: { headers: Record<string, string>; body: string }): Promise<Answer> {
  const seen = await watchResponsiveness(service, post(request), { secondUser: () => bob.call("get_course", { courseId: bobCourseId, includeBlocks: false }) });
  assertResponsive(seen, 2000);
  if (!seen.outcome.ok) throw seen.outcome.error;
  return seen.outcome.value;
}

function expectRefused(answer: Answer, limit: string): void {
  expect(answer.status).toBe(400);
  expect(answer.contentType).toBe("application/json");
  const body = JSON.parse(answer.text) as { jsonrpc: string; id: unknown; error: { code: number; message: string } };
  expect(body.jsonrpc).toBe("2.0");
  expect(body.id).toBeNull();
  expect(body.error.code).toBe(-32600);
  expect(body.error.message).toStartWith("Invalid Request: the request body ");
  expect(body.error.message).toContain(`(${limit})`);
}

const eras: Era[] = ["2025 session", "2026-07-28"];
const places: Place[] = ["_meta", "params", "arguments"];

describe("many members in one object are refused before parsing, as 400/-32600 naming maxMembers (10,000)", () => {
  for (const era of eras) {
    for (const place of places) {
      for (const [label, count] of [["200,000", 200_000], ["1,000,000", 1_000_000]] as const) {
        test(`${label} keys in ${place} (${era}): 400/-32600 maxMembers; health and another user's get_course never wait over 2 s`, async () => {
          const request = hostileCall(era, place, members(count));
          expectRefused(await postWatched(request), "maxMembers");
        }, 60_000);
      }
    }
  }
});

describe("members spread over many objects are bounded in all: 100,000 (maxMembersInAll)", () => {
  for (const era of eras) {
    test(`40 objects of 9,000 keys in _meta (${era}): 400/-32600 maxMembersInAll; probes never wait over 2 s`, async () => {
      const objects = Array.from({ length: 40 }, (_, index) => `"o${index}":{${members(9_000)}}`).join(",");
      expectRefused(await postWatched(hostileCall(era, "_meta", objects)), "maxMembersInAll");
    }, 60_000);

    test(`an array of 2,000,000 items in arguments (${era}): 400/-32600 maxMembers; probes never wait over 2 s`, async () => {
      const items = `"operations":[${"0,".repeat(1_999_999)}0]`;
      expectRefused(await postWatched(hostileCall(era, "arguments", items)), "maxMembers");
    }, 60_000);
  }
});

describe("nesting, member names and strings", () => {
  for (const era of eras) {
    test(`arrays nested 1,000,000 deep in arguments (${era}): 400/-32600 maxDepth (64); probes never wait over 2 s`, async () => {
      const deep = `"deep":${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}`;
      expectRefused(await postWatched(hostileCall(era, "arguments", deep)), "maxDepth");
    }, 60_000);

    test(`nesting 64 deep in _meta is served, 65 is 400/-32600 maxDepth (${era})`, async () => {
      // The body's own envelope opens 3 containers around _meta (message, params, _meta).
      const nested = (depth: number) => `"deep":${"[".repeat(depth)}${"]".repeat(depth)}`;
      const served = await post(hostileCall(era, "_meta", nested(61)));
      expect(served.status).toBe(200);
      expect(served.text).toContain("course(s)");
      expectRefused(await post(hostileCall(era, "_meta", nested(62))), "maxDepth");
    }, 60_000);

    test(`a member name of 2,000,000 characters in params (${era}): 400/-32600 maxKeyLength (1,024); probes never wait over 2 s`, async () => {
      expectRefused(await postWatched(hostileCall(era, "params", `"${"k".repeat(2_000_000)}":0`)), "maxKeyLength");
    }, 60_000);

    test(`a string of 15,000,000 characters in arguments is bounded by the body cap only and answered as a tool error (${era}); probes never wait over 2 s`, async () => {
      const answer = await postWatched(hostileCall(era, "arguments", `"search":"${"x".repeat(15_000_000)}"`));
      expect(answer.status).toBe(200);
      expect(answer.text).toContain("search: must be at most 200 characters");
    }, 60_000);

    test(`9,000 unknown argument names are under every bound: the tool answers invalid_arguments naming the first 20 (${era})`, async () => {
      const answer = await post(hostileCall(era, "arguments", members(9_000, 4)));
      expect(answer.status).toBe(200);
      expect(answer.text).toContain("k0000: unknown argument");
      expect(answer.text).toContain("k0019: unknown argument");
      expect(answer.text).not.toContain("k0020: unknown argument");
      expect(answer.text).toContain("only the first 20 unknown names are listed");
    }, 60_000);
  }
});
