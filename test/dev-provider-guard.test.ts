/**
 * The development identity provider never runs by accident in production: without AUTH_URL it starts
 * only when BASE_URL names this machine (localhost, 127.0.0.0/8, [::1]); any other BASE_URL stops
 * start-up with one line naming AUTH_URL, both through `startService` and as the `npm start` process.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, isLoopbackUrl } from "../src/config.ts";
import { freePort, startTestService, startupFailure } from "./support/service.ts";

const root = join(import.meta.dir, "..");

describe("which BASE_URL is loopback", () => {
  test("localhost, 127.0.0.0/8 and [::1], in any spelling the URL parser normalises", () => {
    for (const url of ["http://localhost:3000", "http://LOCALHOST", "http://127.0.0.1:3000", "http://127.8.9.10", "http://127.1", "http://[::1]:3000", "http://[0:0:0:0:0:0:0:1]"]) {
      expect({ url, loopback: isLoopbackUrl(url) }).toEqual({ url, loopback: true });
    }
  });

  test("public names and addresses, and names that merely look local, are not", () => {
    for (const url of ["https://courses.example.com", "http://10.0.0.5:3000", "http://0.0.0.0:3000", "http://128.0.0.1", "http://127.0.0.1.nip.io", "http://localhost.example.com", "http://[::2]", "http://[::ffff:127.0.0.1]"]) {
      expect({ url, loopback: isLoopbackUrl(url) }).toEqual({ url, loopback: false });
    }
  });
});

describe("startService without AUTH_URL", () => {
  test("refuses a public BASE_URL with a ConfigError naming AUTH_URL, before anything is written", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "cas-guard-"));
    try {
      const start = startTestService({ BASE_URL: "https://courses.example.com" }, dataDir);
      const error = await start.then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).variable).toBe("AUTH_URL");
      expect((error as ConfigError).message).toContain("BASE_URL");
      expect(readdirSync(dataDir)).toEqual([]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test("starts the development provider for a loopback BASE_URL such as http://localhost", async () => {
    const port = String(await freePort());
    const service = await startTestService({ PORT: port, BASE_URL: `http://localhost:${port}` });
    try {
      expect(service.devProvider).toBeDefined();
      const metadata = await fetch(`http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`);
      expect(metadata.status).toBe(200);
    } finally {
      await service.dispose();
    }
  });

  test("with AUTH_URL set, a public BASE_URL is fine: no development provider runs", async () => {
    const port = String(await freePort());
    const service = await startTestService({ PORT: port, BASE_URL: "https://courses.example.com", AUTH_URL: "http://127.0.0.1:9" });
    try {
      expect(service.devProvider).toBeUndefined();
      expect(service.authUrl).toBe("http://127.0.0.1:9");
    } finally {
      await service.dispose();
    }
  });
});

describe("npm start", () => {
  test("a public BASE_URL without AUTH_URL stops start-up with one line naming AUTH_URL", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "cas-guard-process-"));
    try {
      const child = Bun.spawn([process.execPath, "run", "start"], {
        cwd: root,
        env: {
          ...process.env,
          NODE_ENV: "development",
          AUTH_URL: "",
          BASE_URL: "https://courses.example.com",
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
      expect(lines).toHaveLength(1);
      expect(lines[0]).toStartWith("Configuration error: AUTH_URL: ");
      expect(lines[0]).toContain("loopback");
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
