/**
 * The app's own answers (rate limited, unsupported version, method not allowed, forbidden origin,
 * unavailable, internal error) in each route's error style: problem+json on the REST surface,
 * OAuth-style JSON on the protected-resource metadata (spec 4.2), JSON-RPC on /mcp (spec 7 rule 2).
 */
import { apiVersion } from "./api-version.ts";
import { jsonResponse } from "../json-response.ts";
import { jsonRpcErrorResponse } from "./jsonrpc-error.ts";
import { problemResponse, problemTypes } from "./problem.ts";
import type { ErrorStyle } from "./router.ts";
import { temporarilyUnavailableResponse } from "../auth/challenge.ts";
import { outageDetail } from "../store/unavailable.ts";

export interface ErrorAnswers {
  rateLimited(path: string, retryAfterSeconds: number): Response;
  unsupportedVersion(path: string, version: string): Response;
  methodNotAllowed(path: string, method: string, allow: string): Response;
  forbiddenOrigin(origin: string): Response;
  unavailable(path: string): Response;
  internalError(path: string): Response;
}

const unavailableDetail = outageDetail;
const rateDetail = (seconds: number) => `Too many requests from this address; retry after ${seconds} seconds.`;
const versionDetail = (version: string) => `Service-Api-Version "${version.slice(0, 20)}" is not supported; the only version is ${apiVersion}`;
const originDetail = (origin: string) => `Forbidden: origin ${origin.slice(0, 100)} is not allowed to call this server`;

function oauthError(status: number, error: string, description: string, headers: Record<string, string> = {}): Response {
  return jsonResponse({ error, error_description: description }, { status, headers: { "Cache-Control": "no-store", ...headers } });
}

export function errorAnswers(baseUrl: string): Record<ErrorStyle, ErrorAnswers> {
  const problem: ErrorAnswers = {
    rateLimited: (path, seconds) => problemResponse(baseUrl, problemTypes.rateLimited, rateDetail(seconds), { instance: path, headers: { "Retry-After": String(seconds) } }),
    unsupportedVersion: (path, version) => problemResponse(baseUrl, problemTypes.unsupportedApiVersion, `${versionDetail(version)}.`, { instance: path }),
    methodNotAllowed: (path, method, allow) =>
      problemResponse(baseUrl, problemTypes.methodNotAllowed, `${method} is not supported on ${path}; allowed: ${allow}.`, { instance: path, headers: { Allow: allow } }),
    forbiddenOrigin: (origin) => problemResponse(baseUrl, problemTypes.forbidden, `${originDetail(origin)}.`),
    unavailable: (path) => problemResponse(baseUrl, problemTypes.serviceUnavailable, unavailableDetail, { instance: path, headers: { "Retry-After": "5" } }),
    internalError: (path) => problemResponse(baseUrl, problemTypes.internalError, "An unexpected error occurred; it has been logged.", { instance: path }),
  };
  const oauth: ErrorAnswers = {
    // The spec's TemporarilyUnavailableError shape, with the 429 status.
    rateLimited: (_path, seconds) => oauthError(429, "temporarily_unavailable", rateDetail(seconds), { "Retry-After": String(seconds) }),
    unsupportedVersion: (_path, version) => oauthError(400, "invalid_request", versionDetail(version)),
    methodNotAllowed: (_path, method, allow) => oauthError(405, "invalid_request", `${method} is not supported; use ${allow}`, { Allow: allow }),
    forbiddenOrigin: (origin) => oauthError(403, "invalid_request", originDetail(origin)),
    unavailable: () => temporarilyUnavailableResponse(unavailableDetail),
    internalError: () => oauthError(500, "server_error", "An unexpected error occurred; it has been logged."),
  };
  const jsonrpc: ErrorAnswers = {
    rateLimited: (_path, seconds) => jsonRpcErrorResponse(429, -32000, `Too Many Requests: retry after ${seconds} seconds`, { "Retry-After": String(seconds) }),
    unsupportedVersion: (_path, version) =>
      jsonRpcErrorResponse(400, -32600, `Unsupported Service-Api-Version "${version.slice(0, 20)}": only version ${apiVersion} is served`),
    methodNotAllowed: (path, method, allow) => jsonRpcErrorResponse(405, -32000, `Method ${method} is not allowed on ${path}; use ${allow}`, { Allow: allow }),
    forbiddenOrigin: (origin) => jsonRpcErrorResponse(403, -32000, originDetail(origin)),
    unavailable: () => temporarilyUnavailableResponse(unavailableDetail),
    internalError: () => jsonRpcErrorResponse(500, -32603, "Internal error"),
  };
  return { problem, oauth, jsonrpc };
}
