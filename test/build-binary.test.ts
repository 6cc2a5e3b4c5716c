/**
 * The container ships `bun build --compile` output: the compiled binary must start on its own (no
 * node_modules, no files read from packages at run time), serve health, and answer `--health-check`;
 * it carries the player's built bundles.
 */
import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { builtStyles, courseBundles, lmsBundles } from "../src/render/player-bundles.ts";
import { freePort } from "./support/service.ts";

test("the single-file binary starts from an empty folder, serves health and passes its own --health-check", async () => {
  const folder = mkdtempSync(join(tmpdir(), "cas-binary-"));
  const binary = join(folder, "course-authoring-service");
  try {
    const build = Bun.spawn([process.execPath, "build", "--compile", "src/main.ts", "--outfile", binary], {
      cwd: join(import.meta.dir, ".."),
      stdout: "ignore",
      stderr: "pipe",
    });
    expect(await build.exited).toBe(0);
    // The player's bundles are generated files the binary must carry (Bun.build does not exist inside it).
    const carried = readFileSync(binary);
    for (const bundle of [...Object.values(courseBundles), ...Object.values(lmsBundles)]) expect(carried.includes(bundle)).toBe(true);
    // A style sheet with non-Latin-1 marks (✓, ★) is stored as UTF-16 text.
    for (const sheet of Object.values(builtStyles)) expect(carried.includes(sheet) || carried.includes(Buffer.from(sheet, "utf16le"))).toBe(true);
    const port = await freePort();
    const env = { PORT: String(port), HOST: "127.0.0.1", DEV_AUTH_PORT: String(await freePort()), DATABASE_URL: `sqlite://${join(folder, "data", "db.sqlite")}`, LOG_LEVEL: "error", NODE_ENV: "development" };
    const child = Bun.spawn([binary], { cwd: folder, env, stdout: "ignore", stderr: "pipe" });
    try {
      let healthy = false;
      for (let i = 0; i < 100 && !healthy; i++) {
        healthy = await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok, () => false);
        if (!healthy) await Bun.sleep(100);
      }
      expect(healthy).toBe(true);
      const check = Bun.spawn([binary, "--health-check"], { env: { PORT: String(port) } });
      expect(await check.exited).toBe(0);
    } finally {
      child.kill("SIGTERM");
      await child.exited;
    }
    const nothing = Bun.spawn([binary, "--health-check"], { env: { PORT: String(await freePort()) } });
    expect(await nothing.exited).toBe(1);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}, 60_000);
