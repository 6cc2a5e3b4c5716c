/**
 * Small holes of the /mcp HTTP edge, over real HTTP with real tokens: a body declared in a charset
 * other than UTF-8 is 415 with a JSON-RPC error (the body is read as UTF-8, so anything else would be
 * misread), and a client that drops its connection mid-body is an `info` line in the log, not an
 * `error`: the server did nothing wrong.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect } from "node:net";
import { createLogger } from "../src/log.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { startTestIssuer, type TestIssuer } from "./support/test-issuer.ts";
import { capture, createResponseValidator, fetchOpenApiDocument, type ResponseValidator } from "./support/openapi-responses.ts";
import { initializeBody } from "./auth-requests.ts";
import { waitForOAuthConfiguration } from "./support/rest-fixture.ts";

interface LogLine {
  level: string;
  msg: string;
  [field: string]: unknown;
}

let idp: TestIssuer;
let service: TestService;
let validator: ResponseValidator;
let token: string;
const logLines: LogLine[] = [];
const logWaiters: { match: (line: LogLine) => boolean; resolve: () => void }[] = [];

beforeAll(async () => {
  idp = await startTestIssuer();
  const logger = createLogger("info", (text) => {
    for (const raw of text.split("\n").filter(Boolean)) {
      const line = JSON.parse(raw) as LogLine;
      logLines.push(line);
      for (const waiter of logWaiters.filter((w) => w.match(line))) waiter.resolve();
    }
  });
  service = await startTestService({ AUTH_URL: idp.url, AUTH_AUDIENCE: idp.audience, LOG_LEVEL: "info" }, undefined, logger);
  await waitForOAuthConfiguration(service.url);
  validator = createResponseValidator(await fetchOpenApiDocument(service.url));
  token = await idp.sign();
});

afterAll(async () => {
  await service?.dispose();
  await idp?.stop();
});

/** Resolves when a matching line is logged; rejects, naming what it waited for, after a generous time-out. */
function logged(what: string, match: (line: LogLine) => boolean, timeoutMs = 20_000): Promise<void> {
  if (logLines.some(match)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no log line ${what} within ${timeoutMs} ms`)), timeoutMs);
    logWaiters.push({ match, resolve: () => (clearTimeout(timer), resolve()) });
  });
}

const postInitialize = (contentType: string) =>
  fetch(service.mcpUrl, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, Accept: "application/json, text/event-stream", "Content-Type": contentType },
    body: initializeBody,
  }).then(capture);

describe("Content-Type charset on POST /mcp", () => {
  for (const contentType of ["application/json", "application/json; charset=utf-8", "Application/JSON;charset=UTF-8", 'application/json; charset="utf-8"']) {
    test(`${contentType} is served`, async () => {
      const response = await postInitialize(contentType);
      expect(response.status).toBe(200);
    });
  }

  for (const contentType of ["application/json; charset=iso-8859-1", "application/json; charset=utf-16", "application/json;charset=windows-1252", "application/json; charset=utf8"]) {
    test(`${contentType} is 415 with a JSON-RPC error naming the charset, as documented`, async () => {
      const response = await postInitialize(contentType);
      expect(response.status).toBe(415);
      expect(response.headers.get("content-type")).toBe("application/json");
      const body = JSON.parse(response.body) as { jsonrpc: string; error: { code: number; message: string } };
      expect(body.jsonrpc).toBe("2.0");
      expect(body.error.message).toContain("charset");
      expect(body.error.message).toContain("UTF-8");
      expect(validator.check("/mcp", "post", response)).toEqual([]);
    });
  }

  test("a media type that merely starts with application/json is 415", async () => {
    const response = await postInitialize("application/jsonp");
    expect(response.status).toBe(415);
  });
});

describe("a client that drops the connection mid-body", () => {
  test("is logged at info, never as an error", async () => {
    const url = new URL(service.mcpUrl);
    const socket = connect(Number(url.port), url.hostname);
    await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
    const partial = '{"jsonrpc":"2.0","id":1,"method":"initialize"';
    const headers = [
      "POST /mcp HTTP/1.1",
      `Host: ${url.host}`,
      `Authorization: Bearer ${token}`,
      "Content-Type: application/json",
      "Accept: application/json, text/event-stream",
      "Content-Length: 100000",
    ];
    const bodyNoticed = logged("noting the missing body", (line) => line.msg === "request body not received");
    socket.write(`${headers.join("\r\n")}\r\n\r\n${partial}`, () => socket.destroy());
    await bodyNoticed;
    await logged("for the aborted request", (line) => line.msg === "request" && line.path === "/mcp" && line.method === "POST");
    expect(logLines.find((line) => line.msg === "request body not received")?.level).toBe("info");
    expect(logLines.filter((line) => line.level === "error")).toEqual([]);
  }, 60_000);
});
