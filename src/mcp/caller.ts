/**
 * The caller at /mcp as the auth layer established it, and the `authInfo` both protocol legs hand the
 * SDK's transports (the identity travels in `extra`, where server.ts's `callerOf` reads it).
 */
import type { CallerIdentity } from "./registry.ts";

/** What the auth layer established about the caller, handed to the transport as its `authInfo`. */
export interface McpCaller {
  token: string;
  user: CallerIdentity;
}

export const authInfoFor = ({ token, user }: McpCaller) => ({
  token,
  clientId: user.clientId ?? "",
  scopes: user.scopes,
  extra: { identity: user },
});
