/**
 * The Prometheus listener has no authentication, so it binds to `METRICS_HOST` (default 127.0.0.1),
 * never to `HOST`: a service listening on every interface still keeps its metrics on loopback. An
 * invalid `METRICS_HOST` stops start-up with one line naming the variable.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config.ts";
import { freePort, startTestService, startupFailure } from "./support/service.ts";

const root = join(import.meta.dir, "..");

/** Whether something answers HTTP at this address: a refused connection is `false`. */
async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    await response.arrayBuffer();
    return true;
  } catch {
    return false;
  }
}

describe("METRICS_HOST", () => {
  test("defaults to 127.0.0.1 and accepts IP addresses and host names", () => {
    expect(loadConfig({}).metricsHost).toBe("127.0.0.1");
    expect(loadConfig({ METRICS_HOST: "0.0.0.0" }).metricsHost).toBe("0.0.0.0");
    expect(loadConfig({ METRICS_HOST: "::1" }).metricsHost).toBe("::1");
    expect(loadConfig({ METRICS_HOST: "[::1]" }).metricsHost).toBe("::1");
    expect(loadConfig({ METRICS_HOST: "metrics.internal" }).metricsHost).toBe("metrics.internal");
  });

  test("an address that is neither an IP address nor a host name is refused, naming the variable", () => {
    for (const value of ["http://127.0.0.1", "127.0.0.1:9100", "300.1.1.1", "a b", "-host"]) {
      expect(() => loadConfig({ METRICS_HOST: value })).toThrow("METRICS_HOST: must be an IP address");
    }
  });

  test("the metrics listener binds to loopback by default, even when HOST is every interface", async () => {
    const metricsPort = await freePort();
    const service = await startTestService({ HOST: "0.0.0.0", METRICS_PORT: String(metricsPort) });
    try {
      expect(await answers(`http://127.0.0.1:${metricsPort}/metrics`)).toBe(true);
      // Bound to 127.0.0.1 alone: another loopback address reaches the service, not its metrics.
      const servicePort = new URL(service.url).port;
      expect(await answers(`http://127.0.0.2:${servicePort}/api/health`)).toBe(true);
      expect(await answers(`http://127.0.0.2:${metricsPort}/metrics`)).toBe(false);
    } finally {
      await service.dispose();
    }
  });

  test("the metrics listener binds to the address METRICS_HOST names", async () => {
    const metricsPort = await freePort();
    const service = await startTestService({ METRICS_PORT: String(metricsPort), METRICS_HOST: "127.0.0.2" });
    try {
      expect(await answers(`http://127.0.0.2:${metricsPort}/metrics`)).toBe(true);
      expect(await answers(`http://127.0.0.1:${metricsPort}/metrics`)).toBe(false);
    } finally {
      await service.dispose();
    }
  });

  test("npm start with an invalid METRICS_HOST stops with one line naming it", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "cas-metrics-host-"));
    try {
      const child = Bun.spawn([process.execPath, "run", "start"], {
        cwd: root,
        env: {
          ...process.env,
          METRICS_HOST: "http://0.0.0.0",
          METRICS_PORT: String(await freePort()),
          PORT: String(await freePort()),
          DEV_AUTH_PORT: String(await freePort()),
          HOST: "127.0.0.1",
          DATABASE_URL: `sqlite://${join(dataDir, "db.sqlite")}`,
        },
        stdout: "pipe",
        stderr: "pipe",
      });
      const { code, lines } = await startupFailure(child);
      expect(code).toBe(1);
      expect(lines).toEqual([expect.stringMatching(/^Configuration error: METRICS_HOST: must be an IP address/)]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
