/**
 * The MCP server card served at `/.well-known/mcp.json` (after the MCP Server Cards proposal,
 * SEP-1649/SEP-2127): what a client can learn before it connects — the server's name and version,
 * the MCP protocol versions it speaks, where the streamable HTTP transport lives and how to
 * authenticate to it. Spec section 9.4: clients read the MCP protocol version here, not from a path.
 */

export interface ServerCard {
  name: string;
  version: string;
  description: string;
  /** The newest MCP protocol version the server speaks. */
  protocolVersion: string;
  /** Every MCP protocol version the server accepts, newest first. */
  protocolVersions: string[];
  transport: { type: "streamable-http"; url: string };
  authentication: {
    type: "oauth2";
    required: true;
    protected_resource_metadata: string;
    authorization_servers: string[];
  };
  /** Same shape as the MCP `initialize` result's capabilities: a present key means supported. */
  capabilities: {
    tools: Record<string, never>;
    resources: Record<string, never>;
    prompts: Record<string, never>;
    completions: Record<string, never>;
    logging: Record<string, never>;
  };
  documentation: string;
}

export interface ServerCardOptions {
  baseUrl: string;
  authUrl: string;
  serverName: string;
  serverVersion: string;
  /** Newest first, as the SDK's SUPPORTED_PROTOCOL_VERSIONS lists them. */
  protocolVersions: readonly string[];
}

export function buildServerCard({ baseUrl, authUrl, serverName, serverVersion, protocolVersions }: ServerCardOptions): ServerCard {
  const newest = protocolVersions[0];
  if (newest === undefined) throw new Error("buildServerCard: at least one MCP protocol version is required");
  return {
    name: serverName,
    version: serverVersion,
    description:
      "E-learning course authoring over MCP: agents create and edit courses, modules, lessons and blocks, review them and export packages for an LMS.",
    protocolVersion: newest,
    protocolVersions: [...protocolVersions],
    transport: { type: "streamable-http", url: `${baseUrl}/mcp` },
    authentication: {
      type: "oauth2",
      required: true,
      protected_resource_metadata: `${baseUrl}/.well-known/oauth-protected-resource/mcp`,
      authorization_servers: [authUrl],
    },
    capabilities: { tools: {}, resources: {}, prompts: {}, completions: {}, logging: {} },
    documentation: `${baseUrl}/docs/api`,
  };
}
