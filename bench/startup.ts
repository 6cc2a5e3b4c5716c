/**
 * `bun run bench startup`: how long the service takes from launch to its first healthy answer, and how
 * much memory it holds then and at rest, for `bun src/main.ts` and for the single binary built as the
 * Dockerfile builds it (`bun build --compile`, with the heavy-work worker's entry). Each start is fresh
 * (an empty SQLite file, the embedded identity provider), five of each, medians; "at rest" is resident
 * memory three seconds after the first answer, "start-up peak" the process's high-water mark by then.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./support.ts";

const root = join(import.meta.dir, "..");
const rounds = Number(process.env.ROUNDS ?? 5);

interface Start {
  readyMs: number;
  restMiB: number;
  peakMiB: number;
}

function statusMiB(pid: number, field: "VmRSS" | "VmHWM"): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const match = new RegExp(`${field}:\\s+(\\d+)`).exec(status);
  return match ? Number(match[1]) / 1024 : NaN;
}

async function startOnce(command: string[]): Promise<Start> {
  const dataDir = mkdtempSync(join(tmpdir(), "cas-startup-"));
  const port = await freePort();
  const devAuthPort = await freePort();
  const started = performance.now();
  const child = Bun.spawn(command, {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DEV_AUTH_PORT: String(devAuthPort), DATABASE_URL: `sqlite://${join(dataDir, "startup.db")}`, LOG_LEVEL: "warn" },
    stdout: "ignore",
    stderr: "pipe",
  });
  try {
    // Polled, not slept on: the first answer is the event measured, with a generous limit that says what it waited for.
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the service exited (${child.exitCode}) before answering: ${await new Response(child.stderr).text()}`);
      if (performance.now() - started > 60_000) throw new Error("no answer from /api/health within 60 s of launch");
      const answered = await fetch(`http://127.0.0.1:${port}/api/health`).then((response) => response.ok, () => false);
      if (answered) break;
      await Bun.sleep(10);
    }
    const readyMs = performance.now() - started;
    const peakMiB = statusMiB(child.pid, "VmHWM");
    await Bun.sleep(3000);
    return { readyMs, restMiB: statusMiB(child.pid, "VmRSS"), peakMiB };
  } finally {
    child.kill("SIGTERM");
    await child.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function runStartupBench(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), "cas-binary-"));
  const binary = join(scratch, "course-authoring-service");
  try {
    const build = Bun.spawnSync([process.execPath, "build", "--compile", "--minify-whitespace", "--sourcemap", "src/main.ts", "src/workers/worker-entry.ts", "src/discovery/openapi-check-worker.ts", "--outfile", binary], { cwd: root, stdout: "ignore", stderr: "pipe" });
    if (build.exitCode !== 0) throw new Error(`bun build --compile failed: ${build.stderr.toString()}`);
    const variants: [string, string[]][] = [
      ["bun src/main.ts", [process.execPath, "src/main.ts"]],
      ["single binary", [binary]],
    ];
    console.log("| how it runs | first healthy answer (ms) | resident at rest (MiB) | start-up peak (MiB) |");
    console.log("|---|---|---|---|");
    for (const [name, command] of variants) {
      const starts: Start[] = [];
      for (let i = 0; i < rounds; i++) starts.push(await startOnce(command));
      const ms = starts.map((start) => start.readyMs);
      console.log(
        `| ${name} | ${median(ms).toFixed(0)} (${Math.min(...ms).toFixed(0)}–${Math.max(...ms).toFixed(0)}) | ${median(starts.map((start) => start.restMiB)).toFixed(1)} | ${median(starts.map((start) => start.peakMiB)).toFixed(1)} |`,
      );
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
