/**
 * The discovery routes: health, the OpenAPI document, the OAuth protected-resource metadata (with its
 * own JSON error forms), the MCP server card and the API documentation page. Documents are built once
 * at start-up and served as prepared documents, so nothing is done for them per request.
 */
import type { PreparedDocument, Route } from "../http/router.ts";
import type { AuthorizationServerMetadataSource } from "../auth/types.ts";
import { buildProtectedResourceMetadata } from "./protected-resource.ts";
import { temporarilyUnavailableResponse } from "../auth/challenge.ts";

export interface DiscoveryDocuments {
  openApiJson: string;
  serverCardJson: string;
  /** The API documentation page with its security policy (http/security-headers.ts). */
  docsPage: PreparedDocument;
}

const jsonHeaders = { "Content-Type": "application/json" };
const healthHeaders = { "Content-Type": "application/json", "Cache-Control": "no-store" };
const metadataHeaders = { "Content-Type": "application/json", "Cache-Control": "public, max-age=300" };

export const protectedResourcePath = "/.well-known/oauth-protected-resource/mcp";

/** The metadata endpoint's 503: OAuth-style JSON, never problem+json (spec 4.2). */
export function oauthConfigurationUnavailable(): Response {
  return temporarilyUnavailableResponse("OAuth configuration unavailable");
}

export function discoveryRoutes(deps: {
  baseUrl: string;
  authUrl: string;
  metadata: AuthorizationServerMetadataSource;
  documents: DiscoveryDocuments;
}): Route[] {
  const healthBody = JSON.stringify({ status: "ok" });
  const metadataBody = JSON.stringify(buildProtectedResourceMetadata({ baseUrl: deps.baseUrl, authUrl: deps.authUrl }));

  const protectedResource = () =>
    deps.metadata.current() ? new Response(metadataBody, { headers: metadataHeaders }) : oauthConfigurationUnavailable();

  return [
    { path: "/api/health", cors: "public", probe: true, methods: { GET: { body: healthBody, headers: healthHeaders } } },
    { path: "/openapi.json", cors: "public", methods: { GET: { body: deps.documents.openApiJson, headers: jsonHeaders } } },
    // The protected-resource metadata speaks OAuth-style JSON errors, never problem+json (spec 4.2).
    { path: protectedResourcePath, cors: "public", errorStyle: "oauth", methods: { GET: protectedResource } },
    {
      // Any suffix below the metadata path is a plain-text 404 (spec 4.2), whatever the method.
      path: protectedResourcePath,
      prefix: true,
      methods: { GET: notFoundText, POST: notFoundText, PUT: notFoundText, PATCH: notFoundText, DELETE: notFoundText },
    },
    { path: "/.well-known/oauth-protected-resource", cors: "public", errorStyle: "oauth", methods: { GET: protectedResource } },
    { path: "/.well-known/mcp.json", cors: "public", methods: { GET: { body: deps.documents.serverCardJson, headers: jsonHeaders } } },
    { path: "/docs/api", methods: { GET: deps.documents.docsPage } },
  ];
}

function notFoundText(): Response {
  return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain" } });
}
