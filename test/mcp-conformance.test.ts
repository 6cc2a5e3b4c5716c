/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance` 0.1.16) against the real
 * service: every server scenario that applies to a course authoring server must pass, check by check.
 *
 * How: the suite's own CLI (`dist/index.js`; it needs Node 22, so it runs under Bun) as a child
 * process, one scenario at a time, against a loopback proxy in front of the service. The suite's server
 * mode cannot send an Authorization header, so the proxy adds a real bearer token (from the embedded
 * development identity provider) to each request and forwards everything else as it came, the Origin
 * header included, and streams the answers back. Nothing leaves the machine.
 *
 * Applicable, and run: server-initialize, logging-set-level, ping, completion-complete, tools-list,
 * resources-list, prompts-list, server-sse-multiple-streams, dns-rebinding-protection.
 *
 * Not applicable, because they call the suite's fixture server's tools, resources or prompts, which
 * a course authoring server does not have (ours are tested with the SDK client in the mcp-*, export-*
 * and import-* tests):
 * - tools-call-simple-text, -image, -audio, -embedded-resource, -mixed-content, -with-logging, -error,
 *   -with-progress, -sampling, -elicitation, elicitation-sep1034-defaults, elicitation-sep1330-enums:
 *   the tools test_simple_text, test_image_content, …, test_elicitation_sep1330_enums (and this service
 *   never asks a client for sampling or elicitation);
 * - json-schema-2020-12: the tool json_schema_2020_12_tool;
 * - resources-read-text, resources-read-binary, resources-templates-read: test://static-text,
 *   test://static-binary, test://template/{id}/data;
 * - prompts-get-simple, -with-args, -embedded-resource, -with-image: the prompts test_simple_prompt,
 *   test_prompt_with_arguments, test_prompt_with_embedded_resource, test_prompt_with_image.
 * - server-sse-polling: it calls the fixture tool test_reconnection, and it sends that call with
 *   `mcp-protocol-version: 2025-03-26` on a session that negotiated 2025-11-25. A stream for a client
 *   that says it speaks 2025-03-26 carries no priming event (its empty data breaks clients older than
 *   2025-11-25; the SDK transport withholds it by design), so its priming and retry checks cannot pass
 *   against any server built on that transport. Priming events with an id and `retry` for 2025-11-25
 *   clients, and resuming on any replica, are tested in mcp-resumable-streams.test.ts.
 * - resources-subscribe, resources-unsubscribe: they subscribe to the fixture resource
 *   `test://watched-resource`; this server answers -32002 for a resource it does not serve, as the
 *   specification's resource errors say and as it answers a course the caller may not read (subscriptions
 *   to course resources are tested in mcp-subscriptions.test.ts).
 * The suite's auth/* scenarios are client scenarios: they test an OAuth client against the suite's
 * own authorization server, not a resource server.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestService, type TestService } from "./support/service.ts";
import { devAccessToken } from "./support/dev-login.ts";

const suiteCli = join(import.meta.dir, "..", "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");

interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  description: string;
  errorMessage?: string;
}

interface Expectation {
  /** Check IDs that must be there and succeed (besides: no check fails or warns). */
  required?: string[];
}

const applicable: Record<string, Expectation> = {
  "server-initialize": { required: ["server-initialize"] },
  "logging-set-level": { required: ["logging-set-level"] },
  ping: { required: ["ping"] },
  "completion-complete": { required: ["completion-complete"] },
  "tools-list": { required: ["tools-list"] },
  "resources-list": { required: ["resources-list"] },
  "prompts-list": { required: ["prompts-list"] },
  "server-sse-multiple-streams": {},
  "dns-rebinding-protection": { required: ["localhost-host-rebinding-rejected", "localhost-host-valid-accepted"] },
};

let service: TestService;
let proxy: ReturnType<typeof Bun.serve>;
let resultsDir: string;

beforeAll(async () => {
  service = await startTestService();
  const token = await devAccessToken(service, "conformance");
  const upstream = new URL(service.url).origin;
  proxy = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 60,
    async fetch(request) {
      const url = new URL(request.url);
      const headers = new Headers(request.headers);
      headers.set("authorization", `Bearer ${token}`);
      headers.delete("host");
      const init: RequestInit & { duplex?: "half" } = { method: request.method, headers, redirect: "manual", signal: request.signal };
      if (request.body) Object.assign(init, { body: request.body, duplex: "half" });
      const answer = await fetch(`${upstream}${url.pathname}${url.search}`, init);
      return new Response(answer.body, { status: answer.status, headers: answer.headers });
    },
  });
  resultsDir = mkdtempSync(join(tmpdir(), "cas-conformance-"));
});
afterAll(async () => {
  await proxy?.stop(true);
  await service?.dispose();
  if (resultsDir) rmSync(resultsDir, { recursive: true, force: true });
});

/** Runs one scenario with the suite's CLI and returns its exit code, output and checks. */
async function runScenario(scenario: string): Promise<{ exitCode: number; output: string; checks: Check[] }> {
  const outputDir = join(resultsDir, scenario);
  const child = Bun.spawn([process.execPath, suiteCli, "server", "--url", `http://127.0.0.1:${proxy.port}/mcp`, "--scenario", scenario, "-o", outputDir], {
    cwd: resultsDir,
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, NO_COLOR: "1" },
  });
  const [stdout, stderr, exitCode] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  const output = `${stdout}${stderr}`.replace(/\x1b\[[0-9;]*m/g, "");
  const runs = readdirSync(outputDir).filter((name) => name.startsWith(`server-${scenario}-`));
  if (runs.length !== 1) throw new Error(`expected one result folder for ${scenario}, found ${runs.length}:\n${output}`);
  const checks = JSON.parse(readFileSync(join(outputDir, runs[0]!, "checks.json"), "utf8")) as Check[];
  return { exitCode, output, checks };
}

async function expectScenarioPasses(scenario: string, expectation: Expectation): Promise<void> {
  const { exitCode, output, checks } = await runScenario(scenario);
  const problems = checks.filter((check) => check.status === "FAILURE" || check.status === "WARNING");
  expect(problems.map((check) => `${check.id} ${check.status}: ${check.errorMessage ?? check.description}`), output).toEqual([]);
  const succeeded = new Set(checks.filter((check) => check.status === "SUCCESS").map((check) => check.id));
  for (const id of expectation.required ?? []) expect(succeeded.has(id), `${scenario}: check ${id} did not succeed\n${output}`).toBe(true);
  expect(succeeded.size, `${scenario} ran no successful check\n${output}`).toBeGreaterThan(0);
  expect(exitCode, output).toBe(0);
}

describe("MCP conformance suite, server scenarios", () => {
  for (const [scenario, expectation] of Object.entries(applicable)) {
    test(scenario, () => expectScenarioPasses(scenario, expectation), 60_000);
  }

  test("the scenario lists above name every server scenario the suite has, and only those", async () => {
    const child = Bun.spawn([process.execPath, suiteCli, "list", "--server"], { cwd: resultsDir, stdout: "pipe", stderr: "pipe" });
    const listed = (await new Response(child.stdout).text()).split("\n").flatMap((line) => /^\s+- (\S+)/.exec(line)?.[1] ?? []);
    await child.exited;
    const notApplicable = [
      "tools-call-simple-text", "tools-call-image", "tools-call-audio", "tools-call-embedded-resource", "tools-call-mixed-content",
      "tools-call-with-logging", "tools-call-error", "tools-call-with-progress", "tools-call-sampling", "tools-call-elicitation",
      "elicitation-sep1034-defaults", "elicitation-sep1330-enums", "json-schema-2020-12", "resources-read-text", "resources-read-binary",
      "resources-templates-read", "prompts-get-simple", "prompts-get-with-args", "prompts-get-embedded-resource", "prompts-get-with-image",
      "resources-subscribe", "resources-unsubscribe", "server-sse-polling",
    ];
    // A new suite version with new scenarios fails here, so someone decides whether they apply.
    expect(listed.sort()).toEqual([...Object.keys(applicable), ...notApplicable].sort());
  }, 60_000);
});
