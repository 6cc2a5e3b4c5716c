/**
 * Who is calling: the identity a verified access token yields, handed from the auth layer to the MCP
 * tools and on to the use cases as their actor.
 */
export interface CallerIdentity {
  /** The token's `sub`. */
  sub: string;
  email?: string;
  /** True only when the token's `email_verified` claim is the boolean `true`. */
  emailVerified?: boolean;
  name?: string;
  scopes: string[];
  clientId?: string;
}
