/**
 * Starts the real service in-process for a test: free ports, a fresh SQLite file in a temporary
 * folder, quiet logs. With no AUTH_URL in `env`, the embedded development identity provider runs,
 * exactly as `bun run start` does.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { startService, type RunningService } from "../../src/service.ts";
import type { Logger } from "../../src/log.ts";

export interface TestService extends RunningService {
  mcpUrl: string;
  dataDir: string;
  /** Stops the service and deletes its data folder. */
  dispose(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port as number;
  await probe.stop(true);
  return port;
}

export async function startTestService(env: Record<string, string> = {}, dataDir?: string, logger?: Logger): Promise<TestService> {
  const folder = dataDir ?? mkdtempSync(join(tmpdir(), "cas-test-"));
  const port = env.PORT ?? String(await freePort());
  const config = loadConfig({
    HOST: "127.0.0.1",
    LOG_LEVEL: "error",
    DATABASE_URL: `sqlite://${join(folder, "course-authoring.db")}`,
    DEV_AUTH_PORT: String(await freePort()),
    BASE_URL: `http://127.0.0.1:${port}`,
    ...env,
    PORT: port,
  });
  const service = await startService(config, logger);
  return {
    ...service,
    mcpUrl: `${service.url}/mcp`,
    dataDir: folder,
    async dispose() {
      await service.stop();
      if (!dataDir) rmSync(folder, { recursive: true, force: true });
    },
  };
}

/**
 * What a service process that refused to start said: its exit code and its stderr lines, without the
 * "$ command" and "error: script … exited" lines `bun run` adds around them.
 */
export async function startupFailure(child: { exited: Promise<number>; stderr: ReadableStream<Uint8Array> }): Promise<{ code: number; lines: string[] }> {
  const [code, stderr] = await Promise.all([child.exited, new Response(child.stderr).text()]);
  const lines = stderr.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("$ ") && !line.startsWith("error: script"));
  return { code, lines };
}
