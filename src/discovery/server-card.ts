/**
 * The MCP server card served at `/.well-known/mcp.json` (after the MCP Server Cards proposal,
 * SEP-1649/SEP-2127): what a client can learn before it connects — the server's name and version,
 * the MCP protocol versions it speaks, where the streamable HTTP transport lives and how to
 * authenticate to it. Spec section 9.4: clients read the MCP protocol version here, not from a path.
 */
import * as v from "valibot";

const uri = () => v.pipe(v.string(), v.url());
const supported = () => v.strictObject({});

/** The card's shape: its TS type and its OpenAPI schema both come from this one definition. */
export const serverCardSchema = v.pipe(
  v.object({
    name: v.string(),
    version: v.string(),
    description: v.string(),
    protocolVersion: v.pipe(v.string(), v.description("The newest MCP protocol version served.")),
    protocolVersions: v.pipe(v.array(v.string()), v.minLength(1), v.description("Every MCP protocol version the server accepts, newest first.")),
    transport: v.object({ type: v.literal("streamable-http"), url: uri() }),
    authentication: v.object({
      type: v.literal("oauth2"),
      required: v.literal(true),
      protected_resource_metadata: uri(),
      authorization_servers: v.array(uri()),
    }),
    /** Same shape as the MCP `initialize` result's capabilities: a present key means supported. */
    capabilities: v.object({ tools: supported(), resources: supported(), prompts: supported(), completions: supported(), logging: supported() }),
    documentation: uri(),
  }),
  v.description("MCP server card: what a client learns before it connects."),
);

export type ServerCard = v.InferOutput<typeof serverCardSchema>;

export interface ServerCardOptions {
  baseUrl: string;
  authUrl: string;
  serverName: string;
  serverVersion: string;
  /** Newest first, as the SDK's SUPPORTED_PROTOCOL_VERSIONS lists them. */
  protocolVersions: readonly string[];
}

/** What the service is, in one sentence: the card's description and the MCP `serverInfo.description`. */
export const serviceDescription =
  "E-learning course authoring over MCP: agents create and edit courses, modules, lessons and blocks, review them and export packages for an LMS.";

export function buildServerCard({ baseUrl, authUrl, serverName, serverVersion, protocolVersions }: ServerCardOptions): ServerCard {
  const newest = protocolVersions[0];
  if (newest === undefined) throw new Error("buildServerCard: at least one MCP protocol version is required");
  return {
    name: serverName,
    version: serverVersion,
    description: serviceDescription,
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
