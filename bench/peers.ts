/**
 * `bun run bench peers`: the side-by-side run against every peer (`../shared/bench-peers`, or the folder
 * in `BENCH_PEERS_DIR`): the project (info and warn log levels, stateless), a bare `Bun.serve`, and the
 * SDK on Bun and on Node/Express, tmcp, fastmcp and mcp-lite, one server at a time under wrk, in one run.
 * Token memoisation is made equal (`PEER_TOKEN_CACHE=1`: the peers remember verified tokens as the
 * service does), so the ratios compare request handling, not who skips a signature check. `DUR`,
 * `ROUNDS`, `SERVERS` and `PIN` pass through (see the harness's README); its report is printed as it
 * stands, then a table by CPU time per request (the harness's `cpu_us_per_req`, median over rounds, with
 * its spread), since on a shared machine req/s swings far more than the CPU each request costs.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

const root = resolve(import.meta.dir, "..");

export async function runPeersBench(): Promise<void> {
  const harness = resolve(process.env.BENCH_PEERS_DIR ?? join(root, "..", "shared", "bench-peers"));
  if (!existsSync(join(harness, "run.sh"))) throw new Error(`no side-by-side harness at ${harness} (set BENCH_PEERS_DIR)`);
  const out = process.env.OUT ?? join(harness, "out", `project-${new Date().toISOString().replace(/[:.]/g, "-")}`);
  // run.sh looks for `bun` on PATH; the one running this script is the project's own.
  const path = `${dirname(process.execPath)}:${process.env.PATH ?? ""}`;
  const child = Bun.spawn(["bash", join(harness, "run.sh")], {
    cwd: root,
    env: { ...process.env, PATH: path, PEER_TOKEN_CACHE: "1", PROJECT_DIR: root, OUT: out },
    stdout: "inherit",
    stderr: "inherit",
  });
  const code = await child.exited;
  const report = join(out, "report.md");
  if (existsSync(report)) console.log(readFileSync(report, "utf8"));
  const results = join(out, "results.jsonl");
  if (existsSync(results)) console.log(cpuTable(readFileSync(results, "utf8")));
  if (code !== 0) throw new Error(`the side-by-side run failed (exit ${code}); logs in ${out}`);
}

interface Measurement {
  server: string;
  scenario: string;
  ok: boolean;
  cpu_us_per_req?: number;
  p50_ms: number;
  p99_ms: number;
  peak_rss_kib?: number;
}

/** The peer each of the project's rows is judged against (issue 47), and the target ratio (peer's CPU / ours). */
const judgedAgainst: Record<string, { peer: string; target: number }> = {
  "project-info GET /api/health": { peer: "bare-bun", target: 0.85 },
  "project-info tools/call get_course": { peer: "sdk2-bun-session", target: 0.9 },
  "project-modern modern tools/call get_course": { peer: "sdk2-bun-modern", target: 0.9 },
};

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/**
 * The run's measurements by server CPU per request: median and spread ((max − min) / median) over the
 * rounds, p50 and p99 (medians), peak resident memory; each project row with its peer's CPU over its own
 * (higher is better) beside the target. A spread over 35 % marks the row as noise, not evidence.
 */
export function cpuTable(jsonl: string): string {
  const byKey = new Map<string, Measurement[]>();
  for (const line of jsonl.split("\n")) {
    if (!line.trim()) continue;
    const measurement = JSON.parse(line) as Measurement;
    if (!measurement.ok || measurement.cpu_us_per_req === undefined) continue;
    const key = `${measurement.server} ${measurement.scenario}`;
    byKey.set(key, [...(byKey.get(key) ?? []), measurement]);
  }
  const summary = new Map<string, { cpu: number; spread: number; p50: number; p99: number; rss: number; rounds: number }>();
  for (const [key, rounds] of byKey) {
    const cpu = rounds.map((round) => round.cpu_us_per_req!);
    const middle = median(cpu);
    summary.set(key, {
      cpu: middle,
      spread: (Math.max(...cpu) - Math.min(...cpu)) / middle,
      p50: median(rounds.map((round) => round.p50_ms)),
      p99: median(rounds.map((round) => round.p99_ms)),
      rss: Math.max(...rounds.map((round) => round.peak_rss_kib ?? 0)) / 1024,
      rounds: rounds.length,
    });
  }
  const peerCpu = (peer: string) => [...summary].find(([key]) => key.startsWith(`${peer} `))?.[1].cpu;
  const header = "| server and scenario | CPU µs/req (median) | spread | rounds | p50 ms | p99 ms | peak RSS MiB | peer's CPU / ours | target | met |";
  const rows = [...summary].map(([key, row]) => {
    const judged = judgedAgainst[key];
    const peer = judged && peerCpu(judged.peer);
    const ratio = peer === undefined ? undefined : peer / row.cpu;
    const noisy = row.spread > 0.35 ? " (noise)" : "";
    return `| ${key} | ${row.cpu.toFixed(1)} | ${(row.spread * 100).toFixed(0)} %${noisy} | ${row.rounds} | ${row.p50.toFixed(2)} | ${row.p99.toFixed(2)} | ${row.rss.toFixed(1)} | ${ratio === undefined ? "–" : `${ratio.toFixed(2)}× (${judged!.peer})`} | ${judged ? `≥ ${judged.target}` : "–"} | ${ratio === undefined ? "–" : ratio >= judged!.target ? "yes" : "no"} |`;
  });
  return ["### By server CPU per request", "", header, `|${"---|".repeat(10)}`, ...rows].join("\n");
}
