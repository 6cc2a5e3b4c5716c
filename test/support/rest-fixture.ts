/**
 * The world a REST-surface test runs in: a real token issuer (test-issuer.ts), the real service
 * pointed at it, the service's own OpenAPI document fetched over HTTP and turned into a response
 * validator. By default it waits until the service has loaded the authorization server's metadata,
 * so discovery answers 200; with `issuerDown` the issuer refuses everything from the start.
 */
import { startTestService, type TestService } from "./service.ts";
import { startTestIssuer, type TestIssuer } from "./test-issuer.ts";
import { createResponseValidator, fetchOpenApiDocument, type ResponseValidator } from "./openapi-responses.ts";

export interface RestFixture {
  service: TestService;
  issuer: TestIssuer;
  /** `{base_url}`. */
  base: string;
  validator: ResponseValidator;
  /** A valid access token for /mcp (scope `openid profile email` unless overridden). */
  token(claims?: Record<string, unknown>): Promise<string>;
  dispose(): Promise<void>;
}

export const allowedBrowserOrigin = "https://author.example";

export async function waitForOAuthConfiguration(base: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const response = await fetch(`${base}/.well-known/oauth-protected-resource/mcp`);
    await response.body?.cancel();
    if (response.status === 200) return;
    await Bun.sleep(50);
  }
  throw new Error("the service did not load the authorization server metadata in time");
}

export async function startRestFixture(env: Record<string, string> = {}, options: { issuerDown?: boolean } = {}): Promise<RestFixture> {
  const issuer = await startTestIssuer();
  issuer.setDown(options.issuerDown ?? false);
  const service = await startTestService({
    AUTH_URL: issuer.url,
    AUTH_AUDIENCE: issuer.audience,
    ALLOWED_ORIGINS: allowedBrowserOrigin,
    ...env,
  });
  try {
    if (!options.issuerDown) await waitForOAuthConfiguration(service.url);
    const validator = createResponseValidator(await fetchOpenApiDocument(service.url));
    return {
      service,
      issuer,
      base: service.url,
      validator,
      token: (claims) => issuer.sign(claims),
      async dispose() {
        await service.dispose();
        await issuer.stop();
      },
    };
  } catch (error) {
    await service.dispose();
    await issuer.stop();
    throw error;
  }
}
