/**
 * The OAuth 2.0 Protected Resource Metadata (RFC 9728) of the MCP endpoint, served at
 * `/.well-known/oauth-protected-resource/mcp` and at the root form. It tells an MCP client which
 * authorization server issues tokens for `{base_url}/mcp`, which scopes exist and that the token
 * travels in the `Authorization` header; every `WWW-Authenticate` challenge points here.
 */
import * as v from "valibot";

/** The scopes of spec section 5, in the order the spec lists them. */
export const supportedScopes = ["openid", "profile", "email", "offline_access"] as const;

export type SupportedScope = (typeof supportedScopes)[number];

/** What each scope grants, as the spec words it; shared by the OpenAPI document and the docs page. */
export const scopeDescriptions: Record<SupportedScope, string> = {
  openid: "Authenticate the authorized user",
  profile: "Access the user's profile",
  email: "Access the user's e-mail address",
  offline_access: "Refresh access when the user permits",
};

/** The document's shape: its TS type and its OpenAPI schema both come from this one definition. */
export const protectedResourceMetadataSchema = v.object({
  resource: v.pipe(v.string(), v.url(), v.description("`{base_url}/mcp`")),
  authorization_servers: v.pipe(v.array(v.pipe(v.string(), v.url())), v.minLength(1)),
  scopes_supported: v.array(v.picklist(supportedScopes)),
  bearer_methods_supported: v.array(v.literal("header")),
  resource_documentation: v.pipe(v.string(), v.url()),
  resource_name: v.string(),
});

export type ProtectedResourceMetadata = v.InferOutput<typeof protectedResourceMetadataSchema>;

export function buildProtectedResourceMetadata({ baseUrl, authUrl }: { baseUrl: string; authUrl: string }): ProtectedResourceMetadata {
  return {
    resource: `${baseUrl}/mcp`,
    authorization_servers: [authUrl],
    scopes_supported: [...supportedScopes],
    bearer_methods_supported: ["header"],
    resource_documentation: `${baseUrl}/docs/api`,
    resource_name: "Course Authoring Service MCP",
  };
}
