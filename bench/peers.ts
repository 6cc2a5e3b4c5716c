/**
 * `bun run bench peers`: the side-by-side run against every peer (`../shared/bench-peers`, or the folder
 * in `BENCH_PEERS_DIR`): the project (info and warn log levels, stateless), a bare `Bun.serve`, and the
 * SDK on Bun and on Node/Express, tmcp, fastmcp and mcp-lite, one server at a time under wrk, in one run.
 * Token memoisation is made equal (`PEER_TOKEN_CACHE=1`: the peers remember verified tokens as the
 * service does), so the ratios compare request handling, not who skips a signature check. `DUR`,
 * `ROUNDS` and `SERVERS` pass through (see the harness's README); its report is printed as it stands.
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
  if (code !== 0) throw new Error(`the side-by-side run failed (exit ${code}); logs in ${out}`);
}
