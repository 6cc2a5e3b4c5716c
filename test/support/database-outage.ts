/**
 * The service on a fresh PostgreSQL database that the test can take away: the service reaches the
 * database through a TCP relay, and `relay.cut()` drops every connection and refuses new ones until
 * `relay.restore()`, as a database outage would. Tokens come from a test issuer whose metadata the
 * service has loaded before this resolves.
 */
import { createTestDatabase } from "./postgres.ts";
import { waitForOAuthConfiguration } from "./rest-fixture.ts";
import { freePort, startTestService, type TestService } from "./service.ts";
import { startTcpRelay, type TcpRelay } from "./tcp-proxy.ts";
import { startTestIssuer, type TestIssuer } from "./test-issuer.ts";

export interface ServiceWithCuttableDatabase {
  service: TestService;
  relay: TcpRelay;
  issuer: TestIssuer;
  stop(): Promise<void>;
}

export async function startServiceWithCuttableDatabase(env: Record<string, string> = {}): Promise<ServiceWithCuttableDatabase> {
  const database = await createTestDatabase();
  const url = new URL(database.url);
  const relay = await startTcpRelay(url.hostname, Number(url.port || 5432));
  url.port = String(relay.port);
  const issuer = await startTestIssuer();
  const service = await startTestService({
    DATABASE_URL: url.toString(),
    AUTH_URL: issuer.url,
    AUTH_AUDIENCE: issuer.audience,
    METRICS_PORT: String(await freePort()),
    ...env,
  });
  // The issuer's metadata loads in the background; until then /mcp answers 503 to every token.
  await waitForOAuthConfiguration(service.url);
  return {
    service,
    relay,
    issuer,
    async stop() {
      await service.dispose();
      await relay.stop();
      await issuer.stop();
      await database.drop();
    },
  };
}
