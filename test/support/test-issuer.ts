/**
 * A real identity provider for tests: RS256 and ES256 key pairs generated with jose, OpenID
 * discovery and a JWKS served over HTTP by Bun.serve on loopback, and a `sign` that issues access
 * tokens the way an IdP does. It can rotate in a new key, go down (every request answers 503) and
 * come back, and counts the requests it served, so tests can prove caching and outage behaviour.
 */
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from "jose";

export type SigningAlgorithm = "RS256" | "ES256";

interface SigningKey {
  kid: string;
  alg: SigningAlgorithm;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicJwk: JWK;
}

export interface SignOptions {
  /** Which published key signs; defaults to the current RS256 key (or ES256 when `alg` says so). */
  alg?: SigningAlgorithm;
  /** Override the `kid` header (the signature still uses the chosen key). */
  kid?: string;
  /** `unknown`: sign with a key that the JWKS does not publish. */
  key?: "published" | "unknown";
  /** Extra protected-header parameters, e.g. `typ`. */
  header?: Record<string, unknown>;
}

export interface TestIssuerOptions {
  /** Default `aud` of issued tokens. */
  audience?: string;
  /** Listen on this port (0 or absent: any free port). */
  port?: number;
  /** Issuer path, e.g. `/realms/test`; `url` and `issuer` include it. */
  path?: string;
  /** Which discovery documents to serve; `oauth` serves only RFC 8414 (path-inserted and appended). */
  discovery?: "openid" | "oauth" | "both";
}

export interface TestIssuer {
  /** `{auth_url}` for the service. */
  url: string;
  issuer: string;
  jwksUrl: string;
  audience: string;
  /** Claims default to iss, aud, sub `user-1`, scope `openid profile email`, email, name, iat, exp in 5 minutes. */
  sign(claims?: Record<string, unknown>, options?: SignOptions): Promise<string>;
  /** Generates a new RS256 key, publishes it beside the old ones and makes it the default signer. */
  rotateKey(): Promise<string>;
  setDown(down: boolean): void;
  /** Requests served (or refused while down), by path. */
  requestCount(path?: string): number;
  resetRequestCount(): void;
  /** The public key of the current RS256 key, as a JWK and as PEM (for algorithm-confusion tests). */
  publicKey(): Promise<{ jwk: JWK; pem: string }>;
  stop(): Promise<void>;
}

export const defaultAudience = "https://courses.test/mcp";

async function newKey(alg: SigningAlgorithm): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const kid = `${alg.toLowerCase()}-${crypto.randomUUID().slice(0, 8)}`;
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg, use: "sig" };
  return { kid, alg, privateKey, publicKey, publicJwk };
}

export async function startTestIssuer(options: TestIssuerOptions = {}): Promise<TestIssuer> {
  const published: SigningKey[] = [await newKey("RS256"), await newKey("ES256")];
  const unpublished: Record<SigningAlgorithm, SigningKey> = { RS256: await newKey("RS256"), ES256: await newKey("ES256") };
  const current: Record<SigningAlgorithm, SigningKey> = { RS256: published[0]!, ES256: published[1]! };
  const audience = options.audience ?? defaultAudience;
  const path = (options.path ?? "").replace(/\/+$/, "");
  const discovery = options.discovery ?? "both";
  const counts = new Map<string, number>();
  let down = false;
  let url = "";

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: options.port ?? 0,
    fetch(request): Response {
      const route = new URL(request.url).pathname;
      counts.set(route, (counts.get(route) ?? 0) + 1);
      if (down) return new Response("identity provider down", { status: 503 });
      if (route === `${path}/jwks`) return Response.json({ keys: published.map((key) => key.publicJwk) });
      const openid = route === `${path}/.well-known/openid-configuration`;
      const oauth = route === `/.well-known/oauth-authorization-server${path}` || route === `${path}/.well-known/oauth-authorization-server`;
      if ((openid && discovery !== "oauth") || (oauth && discovery !== "openid")) return Response.json(metadata());
      return new Response("Not found", { status: 404 });
    },
  });
  url = `http://127.0.0.1:${server.port}${path}`;

  function metadata(): Record<string, unknown> {
    return {
      issuer: url,
      authorization_endpoint: `${url}/oauth2/authorize`,
      token_endpoint: `${url}/oauth2/token`,
      jwks_uri: `${url}/jwks`,
      response_types_supported: ["code"],
      scopes_supported: ["openid", "profile", "email", "offline_access"],
      code_challenge_methods_supported: ["S256"],
      id_token_signing_alg_values_supported: ["RS256", "ES256"],
    };
  }

  return {
    url,
    issuer: url,
    jwksUrl: `${url}/jwks`,
    audience,
    async sign(claims = {}, signOptions = {}) {
      const alg = signOptions.alg ?? "RS256";
      const key = signOptions.key === "unknown" ? unpublished[alg] : current[alg];
      const now = Math.floor(Date.now() / 1000);
      const defaults: Record<string, unknown> = {
        iss: url,
        aud: audience,
        sub: "user-1",
        scope: "openid profile email",
        email: "author@example.test",
        name: "Ada Author",
        client_id: "test-client",
        iat: now,
        exp: now + 300,
      };
      const payload = Object.fromEntries(Object.entries({ ...defaults, ...claims }).filter(([, value]) => value !== undefined));
      return new SignJWT(payload as JWTPayload)
        .setProtectedHeader({ typ: "at+jwt", ...signOptions.header, alg, kid: signOptions.kid ?? key.kid })
        .sign(key.privateKey);
    },
    async rotateKey() {
      const key = await newKey("RS256");
      published.push(key);
      current.RS256 = key;
      return key.kid;
    },
    setDown(value) {
      down = value;
    },
    requestCount(route) {
      if (route !== undefined) return counts.get(route) ?? 0;
      let total = 0;
      for (const count of counts.values()) total += count;
      return total;
    },
    resetRequestCount() {
      counts.clear();
    },
    async publicKey() {
      return { jwk: current.RS256.publicJwk, pem: await exportSPKI(current.RS256.publicKey) };
    },
    async stop() {
      await server.stop(true);
    },
  };
}
