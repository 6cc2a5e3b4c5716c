/**
 * The OpenAPI 3.1 description of the REST surface, served at `/openapi.json`. It is a typed constant
 * built from the base and auth URLs, checked at start-up against the OpenAPI 3.1 schema and against
 * the router (openapi-check.ts), and the REST tests validate real responses against its own response
 * schemas — so it states only what the service really does. Errors of the MCP transport and of the
 * metadata endpoint are JSON, never problem+json (spec section 7). It passes Redocly's `recommended` and
 * Spectral's `oas` rulesets (test/rest-openapi-lint.test.ts): public operations say `security: []`.
 */
import type { OpenAPIV3_1 } from "@scalar/openapi-types";
import { problemTypes } from "../http/problem.ts";
import { protectedResourceMetadataSchema, scopeDescriptions, supportedScopes } from "./protected-resource.ts";
import { serverCardSchema } from "./server-card.ts";
import * as v from "valibot";
import { toJsonSchema } from "@valibot/to-json-schema";

type Responses = OpenAPIV3_1.ResponsesObject;

const ref = (kind: "schemas" | "responses" | "headers" | "parameters", name: string): OpenAPIV3_1.ReferenceObject => ({
  $ref: `#/components/${kind}/${name}`,
});

const successHeaders = {
  "Service-Api-Version": ref("headers", "Service-Api-Version"),
  Deprecation: ref("headers", "Deprecation"),
  Sunset: ref("headers", "Sunset"),
};

const json = (schema: OpenAPIV3_1.ReferenceObject | OpenAPIV3_1.SchemaObject) => ({ "application/json": { schema } });

/** The REST error statuses of spec 4.1, each as its own reusable problem+json response. */
const problemResponses = {
  BadRequest: [400, "The request was not valid, e.g. a Service-Api-Version other than 1 (`unsupported-api-version`)."],
  Unauthorized: [401, "Authentication is required or the credential is invalid."],
  Forbidden: [403, "The credential is not allowed to call this resource."],
  NotFound: [404, "The resource does not exist."],
  TooManyRequests: [429, "The client has been rate limited (per client address, `RATE_LIMIT_REST_*`); retry after `Retry-After` seconds."],
  InternalServerError: [500, "An unexpected server error occurred."],
  ServiceUnavailable: [503, "The service is temporarily unavailable."],
} as const satisfies Record<string, readonly [number, string]>;

const restErrors: Responses = Object.fromEntries(
  Object.entries(problemResponses).map(([name, [status]]) => [String(status), ref("responses", name)]),
);

const problemDefault: Responses = {
  "400": ref("responses", "BadRequest"),
  "429": ref("responses", "TooManyRequests"),
  default: ref("responses", "Problem"),
};

/** /mcp's 429: the per-user rate limit (`RATE_LIMIT_MCP_*`), as a JSON-RPC error. */
const mcpRateLimited: OpenAPIV3_1.ResponseObject = {
  description: "The user's rate limit is reached (exports, imports and uploads cost more than other calls); retry after `Retry-After` seconds.",
  headers: { "Retry-After": ref("headers", "Retry-After") },
  content: json(ref("schemas", "JsonRpcErrorResponse")),
};

/** JSON-RPC error bodies written by the MCP SDK's streamable HTTP transport. */
const mcpJsonRpcError = (description: string): OpenAPIV3_1.ResponseObject => ({
  description,
  content: json(ref("schemas", "JsonRpcErrorResponse")),
});

/** The auth layer's answers in front of the MCP transport (spec 4.4 and 5). */
const mcpAuthResponses: Responses = {
  "401": {
    description:
      "`Authorization` header missing: empty body, no `Content-Type`, `Cache-Control: no-store`, and a `WWW-Authenticate` Bearer challenge with `resource_metadata` and no `error=`. " +
      'Bearer token malformed or invalid: `application/json` OAuthError with `error` = `invalid_token` and a challenge including `error="invalid_token"`.',
    headers: { "WWW-Authenticate": ref("headers", "WWW-Authenticate"), "Cache-Control": ref("headers", "Cache-Control") },
    content: json(ref("schemas", "OAuthError")),
  },
  "403": {
    description:
      "The bearer token is valid but lacks a required scope (OAuthError `insufficient_scope`, with a `WWW-Authenticate` challenge naming the scope), " +
      "or the browser `Origin` is not allowed (a JSON-RPC error).",
    headers: { "WWW-Authenticate": ref("headers", "WWW-Authenticate") },
    content: json({ oneOf: [ref("schemas", "OAuthError"), ref("schemas", "JsonRpcErrorResponse")] }),
  },
  "503": {
    description: "Token verification is temporarily unavailable; retry after `Retry-After` seconds (5).",
    headers: { "Retry-After": ref("headers", "Retry-After") },
    content: json(ref("schemas", "TemporarilyUnavailableError")),
  },
};

/** In stateless mode (`MCP_STATELESS`) there are no sessions: only POST is served. */
const mcpStatelessRefusal: OpenAPIV3_1.ResponseObject = {
  description: "The server runs stateless (no sessions): only `POST` is supported.",
  headers: { Allow: ref("headers", "Allow") },
  content: json(ref("schemas", "JsonRpcErrorResponse")),
};

const mcpVersionError = "the `Service-Api-Version` header names a version other than 1, ";

const protectedResourceMetadataOperation = (operationId: string, summary: string): OpenAPIV3_1.OperationObject => ({
  operationId,
  summary,
  tags: ["Discovery"],
  description: "RFC 9728 metadata. Errors of this endpoint are JSON, never problem+json.",
  security: [],
  responses: {
    "200": {
      description: "OAuth Protected Resource metadata for the MCP endpoint.",
      headers: successHeaders,
      content: json(ref("schemas", "ProtectedResourceMetadata")),
    },
    "400": {
      description: "The `Service-Api-Version` header names a version other than 1.",
      content: json(ref("schemas", "OAuthRequestError")),
    },
    "404": {
      description: "Any unknown suffix after this path: the text `Not found`.",
      content: { "text/plain": { schema: { type: "string", const: "Not found" } } },
    },
    "429": {
      description: "Too many requests from this address (`RATE_LIMIT_REST_*`): the OAuth-style JSON error `temporarily_unavailable`.",
      headers: { "Retry-After": ref("headers", "Retry-After") },
      content: json(ref("schemas", "TemporarilyUnavailableError")),
    },
    "503": {
      description: "The OAuth configuration (the authorization server's metadata) is not available yet.",
      headers: { "Retry-After": ref("headers", "Retry-After") },
      content: json(ref("schemas", "TemporarilyUnavailableError")),
    },
  },
});

/** A response shape defined once in valibot (the TS type is inferred from it) as an OpenAPI schema. */
function openApiSchemaOf(schema: v.GenericSchema): OpenAPIV3_1.SchemaObject {
  const { $schema: _dialect, ...json } = toJsonSchema(schema, { errorMode: "throw" }) as Record<string, unknown>;
  return json as OpenAPIV3_1.SchemaObject;
}

const schemas: Record<string, OpenAPIV3_1.SchemaObject> = {
  ProblemDetails: {
    type: "object",
    description: "RFC 9457 problem details. `type` is `{base_url}/docs/api#<problem-slug>`.",
    additionalProperties: false,
    required: ["type", "title", "status", "detail", "code"],
    properties: {
      type: { type: "string", format: "uri" },
      title: { type: "string", description: "Short, stable summary of the problem type." },
      status: { type: "integer", minimum: 100, maximum: 599, description: "The HTTP status of the response." },
      detail: { type: "string", description: "Human-readable explanation of this occurrence." },
      code: {
        type: "string",
        description: "Machine-readable service error code.",
        examples: Object.values(problemTypes).map((problem) => problem.code),
      },
      instance: { type: "string", format: "uri-reference" },
    },
  },
  OAuthError: {
    type: "object",
    description: "OAuth 2.0 Bearer error (RFC 6750); only when a bearer token was sent and rejected.",
    additionalProperties: false,
    required: ["error"],
    properties: {
      error: { type: "string", enum: ["invalid_token", "insufficient_scope"] },
      error_description: { type: "string" },
    },
  },
  TemporarilyUnavailableError: {
    type: "object",
    additionalProperties: false,
    required: ["error"],
    properties: {
      error: { type: "string", enum: ["temporarily_unavailable"] },
      error_description: { type: "string" },
    },
  },
  OAuthRequestError: {
    type: "object",
    description: "OAuth-style error of the metadata endpoint for a request it cannot serve.",
    additionalProperties: false,
    required: ["error"],
    properties: {
      error: { type: "string", enum: ["invalid_request"] },
      error_description: { type: "string" },
    },
  },
  HealthStatus: {
    type: "object",
    required: ["status"],
    properties: { status: { type: "string", enum: ["ok"] } },
  },
  ProtectedResourceMetadata: openApiSchemaOf(protectedResourceMetadataSchema),
  ServerCard: openApiSchemaOf(serverCardSchema),
  McpMessage: {
    type: "object",
    description: "A JSON-RPC message of the MCP protocol (any properties).",
  },
  McpMessages: {
    description: "One JSON-RPC message, or (protocol revision 2025-03-26) a batch of them as an array.",
    oneOf: [ref("schemas", "McpMessage"), { type: "array", minItems: 1, items: ref("schemas", "McpMessage") }],
  },
  JsonRpcErrorResponse: {
    type: "object",
    required: ["jsonrpc", "error"],
    properties: {
      jsonrpc: { type: "string", const: "2.0" },
      error: {
        type: "object",
        required: ["code", "message"],
        properties: { code: { type: "integer" }, message: { type: "string" }, data: {} },
      },
      id: { type: ["string", "integer", "null"] },
    },
  },
};

const components: OpenAPIV3_1.ComponentsObject = {
  schemas,
  responses: {
    ...Object.fromEntries(
      Object.entries(problemResponses).map(([name, [status, description]]) => [
        name,
        {
          description,
          ...(status === 429 ? { headers: { "Retry-After": ref("headers", "Retry-After") } } : {}),
          content: { "application/problem+json": { schema: ref("schemas", "ProblemDetails") } },
        },
      ]),
    ),
    Problem: {
      description: "An error, as problem details.",
      content: { "application/problem+json": { schema: ref("schemas", "ProblemDetails") } },
    },
  },
  headers: {
    "Service-Api-Version": {
      description: "The API version that served the response.",
      schema: { type: "string", enum: ["1"] },
    },
    Deprecation: {
      description: "RFC 9745 Date of the deprecation: `@` and Unix seconds. Not sent today: nothing is deprecated.",
      schema: { type: "string", pattern: "^@[0-9]+$" },
    },
    Sunset: {
      description: "RFC 8594 HTTP-date after which a deprecated operation or representation may be removed.",
      schema: { type: "string" },
    },
    "WWW-Authenticate": {
      description:
        "RFC 6750 Bearer challenge. Always carries `resource_metadata`; `error` and `error_description` only when a bearer token was sent.",
      schema: { type: "string" },
    },
    "Retry-After": { description: "Seconds to wait before retrying.", schema: { type: "string", pattern: "^[0-9]+$" } },
    "Cache-Control": { schema: { type: "string" } },
    "Mcp-Session-Id": { description: "The MCP session created by `initialize` (not sent in stateless mode).", schema: { type: "string" } },
    Allow: { description: "The methods `/mcp` supports in this mode.", schema: { type: "string" } },
  },
  parameters: {
    "Service-Api-Version": {
      name: "Service-Api-Version",
      in: "header",
      required: false,
      description: "API version. The only allowed value is `1`, the default.",
      schema: { type: "string", enum: ["1"], default: "1" },
    },
    "Mcp-Session-Id": {
      name: "Mcp-Session-Id",
      in: "header",
      required: false,
      description: "The session returned by `initialize`; required on every later request of a session.",
      schema: { type: "string" },
    },
    "MCP-Protocol-Version": {
      name: "MCP-Protocol-Version",
      in: "header",
      required: false,
      description: "The negotiated MCP protocol version (see `/.well-known/mcp.json`).",
      schema: { type: "string" },
    },
  },
  securitySchemes: {},
};

export interface OpenApiDocumentOptions {
  baseUrl: string;
  authUrl: string;
  /** The scopes every `/mcp` token needs (`AUTH_REQUIRED_SCOPES`); default `openid`. */
  requiredScopes?: readonly string[];
}

/** No authentication: said explicitly, so linters and generated clients do not guess. */
const publicAccess: OpenAPIV3_1.SecurityRequirementObject[] = [];

export function buildOpenApiDocument({ baseUrl, authUrl, requiredScopes = ["openid"] }: OpenApiDocumentOptions): OpenAPIV3_1.Document {
  const versionParameter = [ref("parameters", "Service-Api-Version")];
  const mcpParameters = [...versionParameter, ref("parameters", "Mcp-Session-Id"), ref("parameters", "MCP-Protocol-Version")];
  const mcpSecurity = [{ oauth2: [...requiredScopes] }];
  const scopes: Record<string, string> = Object.fromEntries(supportedScopes.map((scope) => [scope, scopeDescriptions[scope]]));
  for (const scope of requiredScopes) scopes[scope] ??= "Required of every /mcp token by this deployment (AUTH_REQUIRED_SCOPES).";
  return {
    openapi: "3.1.0",
    info: {
      title: "Course Authoring Service",
      version: "1.0.0",
      summary: "Discovery, health and the authenticated MCP transport of the e-learning course authoring service.",
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
      contact: { name: "Course Authoring Service API documentation", url: `${baseUrl}/docs/api` },
      description:
        "Course authoring happens through MCP tools at `POST /mcp`; the REST surface is discovery and health. " +
        "REST errors are `application/problem+json` (a known path with an unsupported method answers 405 with `Allow`); " +
        "errors of `/mcp` and of the protected-resource metadata are JSON, never problem+json. " +
        `Problem types are documented at ${baseUrl}/docs/api.`,
    },
    servers: [{ url: baseUrl }],
    externalDocs: { description: "API documentation and problem types", url: `${baseUrl}/docs/api` },
    tags: [
      { name: "Health", description: "Whether the service is reachable." },
      { name: "Discovery", description: "Documents that describe the service: OpenAPI, OAuth protected-resource metadata, the MCP server card, the API documentation." },
      { name: "MCP", description: "Streamable HTTP transport of the Model Context Protocol." },
    ],
    paths: {
      "/api/health": {
        parameters: versionParameter,
        get: {
          operationId: "getHealth",
          summary: "Service reachability",
          description: "Answers 200 while the service can serve requests; no authentication.",
          tags: ["Health"],
          security: publicAccess,
          responses: {
            "200": { description: "The service is reachable.", headers: successHeaders, content: json(ref("schemas", "HealthStatus")) },
            ...restErrors,
          },
        },
      },
      "/openapi.json": {
        parameters: versionParameter,
        get: {
          operationId: "getOpenApiDocument",
          summary: "This OpenAPI 3.1 document",
          description: "The description of the REST surface, as JSON; no authentication.",
          tags: ["Discovery"],
          security: publicAccess,
          responses: {
            "200": {
              description: "The OpenAPI 3.1 document that describes this interface.",
              headers: { "Service-Api-Version": ref("headers", "Service-Api-Version") },
              content: json({
                type: "object",
                required: ["openapi", "info", "paths"],
                properties: { openapi: { type: "string", pattern: "^3\\.1\\." }, info: { type: "object" }, paths: { type: "object" } },
              }),
            },
            ...problemDefault,
          },
        },
      },
      "/.well-known/oauth-protected-resource/mcp": {
        parameters: versionParameter,
        get: protectedResourceMetadataOperation("getProtectedResourceMetadata", "OAuth protected-resource metadata for the MCP endpoint"),
      },
      "/.well-known/oauth-protected-resource": {
        parameters: versionParameter,
        get: protectedResourceMetadataOperation(
          "getProtectedResourceMetadataRoot",
          "The same metadata at the root form, for clients that try it first",
        ),
      },
      "/.well-known/mcp.json": {
        parameters: versionParameter,
        get: {
          operationId: "getServerCard",
          summary: "MCP server card: name, version, MCP protocol versions, transport and auth",
          description: "What an MCP host needs to connect before it signs in; no authentication.",
          tags: ["Discovery"],
          security: publicAccess,
          responses: {
            "200": {
              description: "The MCP server card.",
              headers: { "Service-Api-Version": ref("headers", "Service-Api-Version") },
              content: json(ref("schemas", "ServerCard")),
            },
            ...problemDefault,
          },
        },
      },
      "/docs/api": {
        parameters: versionParameter,
        get: {
          operationId: "getApiDocs",
          summary: "Human-readable API documentation, with one anchor per problem type",
          description: "An HTML page; every problem `type` URI resolves to one of its anchors. No authentication.",
          tags: ["Discovery"],
          security: publicAccess,
          responses: {
            "200": {
              description: "The documentation page.",
              headers: { "Service-Api-Version": ref("headers", "Service-Api-Version") },
              content: { "text/html": { schema: { type: "string" } } },
            },
            ...problemDefault,
          },
        },
      },
      "/mcp": {
        parameters: mcpParameters,
        post: {
          operationId: "postMcp",
          summary: "Send MCP JSON-RPC messages (streamable HTTP)",
          tags: ["MCP"],
          security: mcpSecurity,
          description:
            "The client accepts both `application/json` and `text/event-stream`. A client parses a JSON body only when its `Content-Type` is `application/json`.",
          requestBody: { required: true, content: json(ref("schemas", "McpMessages")) },
          responses: {
            "200": {
              description: "An MCP JSON-RPC response, or an event stream carrying it.",
              headers: { "Mcp-Session-Id": ref("headers", "Mcp-Session-Id") },
              content: {
                "application/json": { schema: ref("schemas", "McpMessages") },
                "text/event-stream": { schema: { type: "string" } },
              },
            },
            "202": { description: "Notifications or responses only: accepted, no body." },
            "400": mcpJsonRpcError(`${mcpVersionError}or the body is not valid JSON-RPC, or the session or protocol version is invalid.`),
            ...mcpAuthResponses,
            "404": mcpJsonRpcError("The `Mcp-Session-Id` names no live session."),
            "406": mcpJsonRpcError("The `Accept` header does not list both `application/json` and `text/event-stream`."),
            "413": mcpJsonRpcError("The request body is too large."),
            "415": mcpJsonRpcError("The `Content-Type` is not `application/json`, or names a charset other than UTF-8."),
            "429": mcpRateLimited,
            "503": {
              description:
                "Token verification is temporarily unavailable (TemporarilyUnavailableError, `Retry-After: 5`), " +
                "or `initialize` would open more MCP sessions than the server or the user may hold (a JSON-RPC error, with `Retry-After`).",
              headers: { "Retry-After": ref("headers", "Retry-After") },
              content: json({ oneOf: [ref("schemas", "TemporarilyUnavailableError"), ref("schemas", "JsonRpcErrorResponse")] }),
            },
          },
        },
        get: {
          operationId: "getMcpStream",
          summary: "Open the session's server-to-client event stream, or resume a stream after `Last-Event-ID`",
          description: "Sessions of the 2025 protocol revisions only; a stateless deployment answers 405.",
          tags: ["MCP"],
          security: mcpSecurity,
          responses: {
            "200": { description: "The event stream.", content: { "text/event-stream": { schema: { type: "string" } } } },
            "400": mcpJsonRpcError(`${mcpVersionError}or the session header is missing.`),
            ...mcpAuthResponses,
            "404": mcpJsonRpcError("The `Mcp-Session-Id` names no live session, or `Last-Event-ID` no event of it still kept."),
            "405": mcpStatelessRefusal,
            "406": mcpJsonRpcError("The `Accept` header does not list `text/event-stream`."),
            "409": mcpJsonRpcError("The session already has an open event stream."),
            "429": mcpRateLimited,
          },
        },
        delete: {
          operationId: "deleteMcpSession",
          summary: "End the MCP session",
          description: "Sessions of the 2025 protocol revisions only; a stateless deployment answers 405.",
          tags: ["MCP"],
          security: mcpSecurity,
          responses: {
            "200": { description: "The session has ended." },
            "400": mcpJsonRpcError(`${mcpVersionError}or the session header is missing.`),
            ...mcpAuthResponses,
            "404": mcpJsonRpcError("The `Mcp-Session-Id` names no live session."),
            "405": mcpStatelessRefusal,
            "429": mcpRateLimited,
          },
        },
      },
    },
    components: {
      ...components,
      securitySchemes: {
        oauth2: {
          type: "oauth2",
          description: "OAuth 2.0 authorization code flow; send the access token as `Authorization: Bearer <ACCESS_TOKEN>`.",
          flows: {
            authorizationCode: {
              authorizationUrl: `${authUrl}/oauth2/authorize`,
              tokenUrl: `${authUrl}/oauth2/token`,
              scopes,
            },
          },
        },
      },
    },
  };
}
