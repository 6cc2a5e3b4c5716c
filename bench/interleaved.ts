/**
 * `bun run bench interleaved [REF …]`: `/api/health` by the server's CPU per probe, for bare Bun (the
 * side-by-side harness's own `peers/bare-bun.ts`), the working tree, and each git commit named, every
 * server up at once and all pinned to one core (`wrk` on the other), measured in turn for a few seconds
 * at a time, many times over. A host that slows down mid-run slows every server alike, so the ratio of
 * each turn's pair (bare Bun's CPU per probe over the server's) moves far less than a run of ten seconds
 * per server does on a shared machine (bench/NOTES.md, "Health again"). Each commit runs from a
 * temporary worktree beside the repository, with the repository's `node_modules`, and is removed after.
 * As the harness does, the service runs with `NODE_ENV=production` behind the harness's identity
 * provider (`idp.ts`), `LOG_LEVEL=info`, on a fresh SQLite file. `TURNS` (12) and `SECONDS` (2) set the
 * length; `BENCH_PEERS_DIR` the harness's folder. Needs `wrk` and `taskset`. Not a test: no timing is
 * asserted anywhere, the table is for reading.
 */
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort } from "./support.ts";

const root = resolve(import.meta.dir, "..");
const turns = Number(process.env.TURNS ?? 12);
const seconds = Number(process.env.SECONDS ?? 2);

interface Server {
  name: string;
  port: number;
  process: ReturnType<typeof Bun.spawn>;
  cpuUsPerProbe: number[];
}

/** The process's user and system CPU so far, in microseconds (`/proc/<pid>/stat`, in clock ticks of 10 ms). */
function cpuMicroseconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return ticks * 10_000;
}

async function answersHealth(port: number, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`);
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await Bun.sleep(100);
  }
  throw new Error(`${what} did not answer /api/health on port ${port} within 60 s`);
}

/** One turn of `wrk` (pinned to CPU 0, 32 connections): how many probes it made. */
async function wrk(port: number, duration: number): Promise<number> {
  const child = Bun.spawn(["taskset", "-c", "0", "wrk", "-t1", "-c32", `-d${duration}s`, `http://127.0.0.1:${port}/api/health`], { stdout: "pipe", stderr: "pipe" });
  const output = await new Response(child.stdout).text();
  if ((await child.exited) !== 0) throw new Error(`wrk failed: ${await new Response(child.stderr).text()}`);
  const requests = /(\d+) requests in/.exec(output);
  if (!requests) throw new Error(`wrk printed no request count:\n${output}`);
  return Number(requests[1]);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export async function runInterleavedBench(refs: string[]): Promise<void> {
  const harness = resolve(process.env.BENCH_PEERS_DIR ?? join(root, "..", "shared", "bench-peers"));
  const scratch = mkdtempSync(join(tmpdir(), "cas-interleaved-"));
  const worktrees: string[] = [];
  const servers: Server[] = [];
  const idpPort = await freePort();
  const idp = Bun.spawn([process.execPath, "idp.ts", "serve"], { cwd: harness, env: { ...process.env, IDP_PORT: String(idpPort) }, stdout: "ignore", stderr: "ignore" });
  try {
    const start = async (name: string, cwd: string, entry: string) => {
      const port = await freePort();
      const env = {
        ...process.env,
        NODE_ENV: "production",
        PORT: String(port),
        HOST: "127.0.0.1",
        BASE_URL: `http://127.0.0.1:${port}`,
        AUTH_URL: `http://127.0.0.1:${idpPort}`,
        DATABASE_URL: `sqlite://${join(scratch, `${servers.length}.db`)}`,
        LOG_LEVEL: "info",
      };
      const child = Bun.spawn(["taskset", "-c", "1", process.execPath, entry], { cwd, env, stdout: Bun.file(join(scratch, `${servers.length}.log`)), stderr: "ignore" });
      servers.push({ name, port, process: child, cpuUsPerProbe: [] });
      await answersHealth(port, name);
    };
    await start("bare Bun", join(harness, "peers"), "bare-bun.ts");
    await start("working tree", root, "src/main.ts");
    for (const ref of refs) {
      const tree = join(scratch, `tree-${worktrees.length}`);
      const added = Bun.spawnSync(["git", "worktree", "add", "--detach", "-q", tree, ref], { cwd: root, stderr: "pipe" });
      if (added.exitCode !== 0) throw new Error(`git worktree add ${ref}: ${added.stderr.toString()}`);
      worktrees.push(tree);
      symlinkSync(join(root, "node_modules"), join(tree, "node_modules"));
      // The player's generated bundles are build output, not committed: the working tree's serve every commit.
      symlinkSync(join(root, "src", "player", "dist"), join(tree, "src", "player", "dist"));
      await start(ref, tree, "src/main.ts");
    }
    for (const server of servers) await wrk(server.port, 2);
    for (let turn = 0; turn < turns; turn++) {
      const order = turn % 2 === 0 ? servers : [...servers].reverse();
      for (const server of order) {
        const before = cpuMicroseconds(server.process.pid);
        const probes = await wrk(server.port, seconds);
        server.cpuUsPerProbe.push((cpuMicroseconds(server.process.pid) - before) / probes);
      }
    }
    const bare = servers[0]!;
    console.log(`\n/api/health, CPU µs per probe, ${turns} turns of ${seconds} s, interleaved (bench/interleaved.ts)\n`);
    console.log("| server | median µs | bare Bun's / this, median of the turns' pairs | each turn |");
    console.log("|---|---|---|---|");
    for (const server of servers) {
      const pairs = server.cpuUsPerProbe.map((value, turn) => bare.cpuUsPerProbe[turn]! / value);
      console.log(`| ${server.name} | ${median(server.cpuUsPerProbe).toFixed(2)} | ${median(pairs).toFixed(3)}× | ${server.cpuUsPerProbe.map((value) => value.toFixed(1)).join(" ")} |`);
    }
  } finally {
    for (const server of servers) server.process.kill();
    await Promise.all(servers.map((server) => server.process.exited));
    idp.kill();
    for (const tree of worktrees) Bun.spawnSync(["git", "worktree", "remove", "--force", tree], { cwd: root });
    rmSync(scratch, { recursive: true, force: true });
  }
}
