/**
 * The session path's own era check (`plainLegacyRequest`, sessions.ts) may call a request 2025-era only
 * where the SDK's `isLegacyRequest` does too: every modern request, and every malformed one the modern
 * path answers, must still reach the SDK's classification. Checked against the SDK itself on ordinary
 * session traffic and on near-misses of each rule.
 */
import { describe, expect, test } from "bun:test";
import { isLegacyRequest } from "@modelcontextprotocol/server";
import { claimsModernRevision, plainLegacyRequest } from "../src/mcp/endpoint.ts";

const envelope = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};
const call = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "get_course", arguments: { courseId: "c1" } } };

type Case = [name: string, body: unknown, headers?: Record<string, string>];
const cases: Case[] = [
  ["a session tools/call", call, { "mcp-protocol-version": "2025-06-18" }],
  ["a session tools/call with no version header", call],
  ["a string id", { ...call, id: "a" }, { "mcp-protocol-version": "2025-11-25" }],
  ["no params", { jsonrpc: "2.0", id: 1, method: "tools/list" }, { "mcp-protocol-version": "2025-11-25" }],
  ["a modern envelope", { ...call, params: { ...call.params, _meta: envelope } }, { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "get_course" }],
  ["a modern envelope under a 2025 header", { ...call, params: { ...call.params, _meta: envelope } }, { "mcp-protocol-version": "2025-11-25" }],
  ["a bare claim", { ...call, params: { ...call.params, _meta: { "io.modelcontextprotocol/protocolVersion": 5 } } }],
  ["a progress token only", { ...call, params: { ...call.params, _meta: { progressToken: 1 } } }],
  ["a modern header without the envelope", call, { "mcp-protocol-version": "2026-07-28" }],
  ["a later revision in the header", call, { "mcp-protocol-version": "2027-01-01" }],
  ["a padded modern header", call, { "mcp-protocol-version": " 2026-07-28 " }],
  ["initialize", { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } }],
  ["a wrong jsonrpc", { ...call, jsonrpc: "1.0" }],
  ["a fractional id", { ...call, id: 1.5 }],
  ["an unsafe integer id", { ...call, id: 2 ** 60 }],
  ["a null id", { ...call, id: null }],
  ["an array of params", { ...call, params: [1] }],
  ["an extra member", { ...call, extra: true }],
  ["a response", { jsonrpc: "2.0", id: 1, result: {} }],
  ["a notification", { jsonrpc: "2.0", method: "notifications/initialized" }],
  ["a batch", [call]],
  ["a string", "tools/call"],
  ["null", null],
];

function post(body: unknown, headers: Record<string, string> = {}): Request {
  return new Request("http://127.0.0.1/mcp", { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
}

describe("the session path's era check", () => {
  test.each(cases)("%s: legacy here only where the SDK says legacy", async (_name, body, headers) => {
    const fast = plainLegacyRequest(post(body, headers), body);
    const sdk = await isLegacyRequest(post(body, headers), body);
    if (fast) expect(sdk).toBe(true);
  });

  test("ordinary session traffic takes the short path", () => {
    for (const [, body, headers] of cases.slice(0, 4)) expect(plainLegacyRequest(post(body, headers), body)).toBe(true);
  });

  test("modern, malformed and unusual requests are left to the SDK", () => {
    for (const [name, body, headers] of cases.slice(4)) expect({ name, fast: plainLegacyRequest(post(body, headers), body) }).toEqual({ name, fast: false });
  });
});

const modernCases: Case[] = [
  ["a notification with the envelope", { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, _meta: envelope } }, { "mcp-protocol-version": "2026-07-28" }],
  ["an envelope naming a revision not served", { ...call, params: { ...call.params, _meta: { ...envelope, "io.modelcontextprotocol/protocolVersion": "2031-01-01" } } }, { "mcp-protocol-version": "2031-01-01" }],
  ["an envelope with a 2025 header", { ...call, params: { ...call.params, _meta: envelope } }, { "mcp-protocol-version": "2025-06-18" }],
  ["an envelope and no header", { ...call, params: { ...call.params, _meta: envelope } }],
  ["an envelope and a malformed id", { ...call, id: null, params: { ...call.params, _meta: envelope } }],
  ["an envelope in an array _meta", { ...call, params: { ...call.params, _meta: [envelope] } }],
  ["an envelope at the top", { ...call, _meta: envelope }],
  ["an envelope in a batch", [{ ...call, params: { ...call.params, _meta: envelope } }]],
];

describe("the modern path's claim check", () => {
  test.each([...cases, ...modernCases])("%s: modern here only where the SDK says modern", async (_name, body, headers) => {
    const fast = claimsModernRevision(body);
    const sdk = await isLegacyRequest(post(body, headers), body);
    if (fast) expect(sdk).toBe(false);
  });

  test("requests that carry the envelope take the short path; the rest are left to the SDK", () => {
    for (const [name, body] of [...cases.slice(4, 7), ...modernCases.slice(0, 5)]) expect({ name, fast: claimsModernRevision(body) }).toEqual({ name, fast: true });
    for (const [name, body] of [...cases.slice(0, 4), ...cases.slice(7), ...modernCases.slice(5)]) expect({ name, fast: claimsModernRevision(body) }).toEqual({ name, fast: false });
  });
});
