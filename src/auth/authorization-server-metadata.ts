/**
 * Loads the authorization server's metadata (OpenID Connect Discovery, then RFC 8414) in the
 * background. Start-up never waits for the identity provider: the source retries with a capped
 * backoff until the document has loaded once, then refreshes it occasionally and keeps the last good
 * copy when a refresh fails, so an outage of the identity provider never forgets what was known.
 */
import * as v from "valibot";
import type { AuthorizationServerMetadata, AuthorizationServerMetadataSource } from "./types.ts";

export interface MetadataSourceOptions {
  /** `{auth_url}`: where the discovery documents live. */
  authUrl: string;
  /** The issuer the document is expected to name; a mismatch is reported, not fatal. */
  issuer?: string;
  fetch?: typeof fetch;
  /** Delays between failed attempts until the first load; the last one repeats. */
  retryDelaysMs?: number[];
  /** How often a loaded document is fetched again. */
  refreshIntervalMs?: number;
  /** Told about failed attempts and surprises, without secrets; for logging. */
  onProblem?: (message: string) => void;
}

const fetchTimeoutMs = 2000;
const defaultRetryDelaysMs = [250, 500, 1000, 2000, 5000];
const defaultRefreshIntervalMs = 60 * 60 * 1000;
const retryAfterFailedRefreshMs = 60 * 1000;

const absoluteUrl = v.pipe(v.string(), v.url());
const metadataSchema = v.looseObject({
  issuer: v.pipe(v.string(), v.minLength(1)),
  jwks_uri: v.optional(absoluteUrl),
  authorization_endpoint: v.optional(absoluteUrl),
  token_endpoint: v.optional(absoluteUrl),
  registration_endpoint: v.optional(absoluteUrl),
  scopes_supported: v.optional(v.array(v.string())),
  code_challenge_methods_supported: v.optional(v.array(v.string())),
});

/** The discovery URLs to try, in order: OIDC first, then RFC 8414 (path-inserted when the issuer has a path). */
export function discoveryUrls(authUrl: string): string[] {
  const base = new URL(authUrl);
  const path = base.pathname.replace(/\/+$/, "");
  const appended = (suffix: string) => `${base.origin}${path}/.well-known/${suffix}`;
  const inserted = `${base.origin}/.well-known/oauth-authorization-server${path}`;
  return [...new Set([appended("openid-configuration"), inserted, appended("oauth-authorization-server")])];
}

export function createAuthorizationServerMetadataSource(options: MetadataSourceOptions): AuthorizationServerMetadataSource {
  const fetchImpl = options.fetch ?? fetch;
  const delays = options.retryDelaysMs?.length ? options.retryDelaysMs : defaultRetryDelaysMs;
  const refreshIntervalMs = options.refreshIntervalMs ?? defaultRefreshIntervalMs;
  const urls = discoveryUrls(options.authUrl);
  const report = options.onProblem ?? (() => {});

  let current: AuthorizationServerMetadata | undefined;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const inFlight = new AbortController();
  let markLoaded: () => void = () => {};
  const loaded = new Promise<void>((resolve) => (markLoaded = resolve));

  async function fetchOne(url: string): Promise<AuthorizationServerMetadata> {
    const signal = AbortSignal.any([inFlight.signal, AbortSignal.timeout(fetchTimeoutMs)]);
    const response = await fetchImpl(url, { signal, headers: { accept: "application/json" } });
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new Error(`${url} answered ${response.status}`);
    }
    const parsed = v.safeParse(metadataSchema, await response.json());
    if (!parsed.success) throw new Error(`${url} is not valid authorization server metadata`);
    return parsed.output;
  }

  async function attempt(): Promise<boolean> {
    const failures: string[] = [];
    for (const url of urls) {
      try {
        const metadata = await fetchOne(url);
        if (closed) return false;
        if (options.issuer !== undefined && metadata.issuer !== options.issuer) {
          report(`authorization server metadata names issuer ${metadata.issuer}, expected ${options.issuer}`);
        }
        current = metadata;
        return true;
      } catch (error) {
        failures.push(error instanceof Error ? error.message : String(error));
      }
    }
    if (!closed) report(`authorization server metadata unavailable: ${failures.join("; ")}`);
    return false;
  }

  function schedule(run: () => Promise<void>, delayMs: number): void {
    if (closed) return;
    timer = setTimeout(() => void run(), delayMs);
    // The refresh loop must never keep a process alive on its own.
    (timer as { unref?: () => void }).unref?.();
  }

  async function loadUntilLoaded(failedAttempts = 0): Promise<void> {
    if (await attempt()) {
      markLoaded();
      schedule(refresh, refreshIntervalMs);
      return;
    }
    const delay = delays[Math.min(failedAttempts, delays.length - 1)] ?? 5000;
    schedule(() => loadUntilLoaded(failedAttempts + 1), delay);
  }

  async function refresh(): Promise<void> {
    // A failed refresh keeps the last good copy and tries again sooner than a full interval.
    const ok = await attempt();
    schedule(refresh, ok ? refreshIntervalMs : Math.min(refreshIntervalMs, retryAfterFailedRefreshMs));
  }

  void loadUntilLoaded();

  return {
    current: () => current,
    loaded,
    close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      inFlight.abort();
    },
  };
}
