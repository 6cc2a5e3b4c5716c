/**
 * The service as a process, the way `npm start` runs it: a bad configuration value stops start-up with
 * one line naming the variable; a good one serves with the embedded identity provider; SIGTERM shuts
 * it down gracefully with exit code 0.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, startupFailure } from "./support/service.ts";

const root = join(import.meta.dir, "..");

function spawnService(env: Record<string, string>) {
  return Bun.spawn([process.execPath, "run", "start"], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "development", LOG_LEVEL: "info", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
}

async function untilHealthy(url: string, deadlineMs = 15_000) {
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.ok) return response;
    } catch {
      // not listening yet
    }
    await Bun.sleep(100);
  }
  throw new Error(`${url} never became healthy`);
}

describe("configuration", () => {
  for (const [variable, value, words] of [
    ["PORT", "not-a-port", "whole number"],
    ["BASE_URL", "ftp://example.test", "http"],
    ["AUTH_URL", "nope", "URL"],
    ["LOG_LEVEL", "loud", "one of"],
    ["DATABASE_URL", "mysql://x", "sqlite"],
    ["MCP_STATELESS", "maybe", "true or false"],
  ] as const) {
    test(`an invalid ${variable} stops start-up with one line naming the variable`, async () => {
      const { code, lines } = await startupFailure(spawnService({ [variable]: value }));
      expect(code).toBe(1);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(variable);
      expect(lines[0]).toContain(words);
    });
  }
});

describe("lifecycle", () => {
  test("a second process on the same SQLite file stops at start-up, saying why; once the first stops, the file can be served again", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "cas-owner-"));
    const env = async () => ({ PORT: String(await freePort()), DEV_AUTH_PORT: String(await freePort()), HOST: "127.0.0.1", DATABASE_URL: `sqlite://${join(dataDir, "db.sqlite")}` });
    const firstEnv = await env();
    const first = spawnService(firstEnv);
    let third: ReturnType<typeof spawnService> | undefined;
    try {
      await untilHealthy(`http://127.0.0.1:${firstEnv.PORT}/api/health`);
      const { code, lines } = await startupFailure(spawnService(await env()));
      expect(code).toBe(1);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain("DATABASE_URL");
      expect(lines[0]).toContain("another process is already serving");
      expect(lines[0]).toContain("PostgreSQL");
      // The first process is unaffected.
      expect((await fetch(`http://127.0.0.1:${firstEnv.PORT}/api/health`)).status).toBe(200);

      first.kill("SIGTERM");
      expect(await first.exited).toBe(0);
      const thirdEnv = await env();
      third = spawnService(thirdEnv);
      expect((await untilHealthy(`http://127.0.0.1:${thirdEnv.PORT}/api/health`)).status).toBe(200);
      third.kill("SIGTERM");
      expect(await third.exited).toBe(0);
    } finally {
      first.kill("SIGKILL");
      third?.kill("SIGKILL");
      rmSync(dataDir, { recursive: true, force: true });
    }
  });


  test("npm start serves with the embedded identity provider, and SIGTERM stops it gracefully with exit code 0", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "cas-process-"));
    const port = await freePort();
    const child = spawnService({
      PORT: String(port),
      DEV_AUTH_PORT: String(await freePort()),
      HOST: "127.0.0.1",
      DATABASE_URL: `sqlite://${join(dataDir, "db.sqlite")}`,
    });
    try {
      const health = await untilHealthy(`http://127.0.0.1:${port}/api/health`);
      expect(await health.json()).toEqual({ status: "ok" });
      const metadata = await fetch(`http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`);
      expect(metadata.status).toBe(200);
      child.kill("SIGTERM");
      expect(await child.exited).toBe(0);
      const stdout = await new Response(child.stdout).text();
      const messages = stdout.split("\n").filter(Boolean).map((line) => (JSON.parse(line) as { msg: string }).msg);
      // The health check above is counted, and the count is written on the way out.
      expect(messages).toEqual(expect.arrayContaining(["listening", "shutting down", "probes answered", "stopped"]));
      const stderr = await new Response(child.stderr).text();
      expect(stderr).toContain("MCP endpoint");
      expect(stderr).toContain("Claude Code");
    } finally {
      child.kill("SIGKILL");
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
