/**
 * Durability: the service process is killed with SIGKILL in the middle of a stream of writes. After a
 * restart on the same data folder, every write the server acknowledged is there, the course version
 * matches the acknowledged count, and the SQLite file passes its integrity check.
 */
import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { obtainAccessTokenByLogin } from "../src/dev-identity-provider/scripted-login.ts";
import { freePort } from "./support/service.ts";
import { connectAgent } from "./support/mcp-client.ts";
import { waitFor } from "./support/wait.ts";

const root = join(import.meta.dir, "..");

async function startProcess(env: Record<string, string>) {
  const child = Bun.spawn([process.execPath, "src/main.ts"], { cwd: root, env: { ...process.env, ...env }, stdout: "ignore", stderr: "ignore" });
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${env.BASE_URL}/.well-known/oauth-protected-resource/mcp`);
      if (response.ok) return child;
    } catch {
      // not up yet
    }
    await Bun.sleep(100);
  }
  child.kill("SIGKILL");
  throw new Error("service did not start");
}

test("every acknowledged write survives SIGKILL mid-stream, and the database passes its integrity check", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "cas-durability-"));
  const port = await freePort();
  const env = {
    PORT: String(port),
    HOST: "127.0.0.1",
    BASE_URL: `http://127.0.0.1:${port}`,
    DEV_AUTH_PORT: String(await freePort()),
    DATABASE_URL: `sqlite://${join(dataDir, "course-authoring.db")}`,
    LOG_LEVEL: "error",
    NODE_ENV: "development",
  };
  const service = { mcpUrl: `${env.BASE_URL}/mcp` };
  let child = await startProcess(env);
  try {
    const { accessToken } = await obtainAccessTokenByLogin({ issuer: `http://127.0.0.1:${env.DEV_AUTH_PORT}`, resource: service.mcpUrl, username: "durable" });
    const agent = await connectAgent(service, accessToken);
    const course = (await agent.call("create_course", {
      title: "Durability",
      modules: [{ title: "Module", lessons: [{ title: "Lesson" }] }],
    })) as { id: string; version: number; modules: { lessons: { id: string }[] }[] };
    const lessonId = course.modules[0]!.lessons[0]!.id;

    // Four writers stream block additions; the process is killed once 40 are acknowledged.
    const acknowledged: string[] = [];
    let killed = false;
    let enoughAcknowledged!: () => void;
    let writerFailed!: (error: unknown) => void;
    const ready = new Promise<void>((resolve, reject) => {
      enoughAcknowledged = resolve;
      writerFailed = reject;
    });
    const writer = async (name: string) => {
      for (let i = 0; !killed; i++) {
        try {
          const result = (await agent.call("add_blocks", { courseId: course.id, lessonId, blocks: [{ type: "text", markdown: `${name} ${i}` }] })) as {
            blocks: { id: string }[];
          };
          acknowledged.push(result.blocks[0]!.id);
          if (acknowledged.length >= 40) enoughAcknowledged();
        } catch (error) {
          // After the kill, a failed call is a write that was never acknowledged; before it, a failure is a bug.
          if (!killed) writerFailed(new Error(`writer ${name} failed before the kill: ${String(error)}`));
          return;
        }
      }
    };
    const writers = ["a", "b", "c", "d"].map(writer);
    await waitFor(ready, 30_000, () => `40 acknowledged add_blocks calls (${acknowledged.length} so far)`);
    child.kill("SIGKILL");
    killed = true;
    await child.exited;
    await Promise.all(writers);
    await agent.close().catch(() => undefined);
    expect(acknowledged.length).toBeGreaterThanOrEqual(40);

    child = await startProcess(env);
    const again = await connectAgent(service, accessToken);
    const reread = (await again.call("get_course", { courseId: course.id })) as { version: number; modules: { lessons: { blocks: { id: string }[] }[] }[] };
    const stored = new Set(reread.modules[0]!.lessons[0]!.blocks.map((b) => b.id));
    for (const id of acknowledged) expect(stored.has(id)).toBe(true);
    // A write may have committed without its answer reaching the client, never the reverse.
    expect(stored.size).toBeGreaterThanOrEqual(acknowledged.length);
    expect(reread.version).toBe(course.version + stored.size);
    await again.close();

    const database = new Database(env.DATABASE_URL.slice("sqlite://".length), { readonly: true });
    expect(database.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
    expect(database.query("PRAGMA foreign_key_check").all()).toEqual([]);
    database.close();
  } finally {
    child.kill("SIGKILL");
    await child.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 60_000);
