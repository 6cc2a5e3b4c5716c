/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance` 0.2.x) against the real
 * service, in both protocol eras (`--spec-version 2025-11-25`, and `2026-07-28` per request): every
 * server scenario that applies to a course authoring server must pass, check by check.
 *
 * How: the suite's own CLI (`dist/index.js`; it needs Node 22, so it runs under Bun) as a child
 * process, one scenario at a time, against a loopback proxy in front of the service. The suite's server
 * mode cannot send an Authorization header, so the proxy adds a real bearer token (from the embedded
 * development identity provider) to each request and forwards everything else as it came, the Origin
 * header included, and streams the answers back. Nothing leaves the machine.
 *
 * Applicable, and run: see `applicable` below, per era. `server-stateless` runs in the modern era, but
 * four of its checks need the suite's diagnostic tools (`test_missing_capability`,
 * `test_streaming_elicitation`, `test_logging_tool`) and report "Not testable" as failures; those four,
 * and only with that message, are allowed (the same rules are tested here: mcp-modern-era.test.ts for
 * -32021 and logs only with a level, mcp-confirmations.test.ts for input_required on the response).
 *
 * Not applicable, because they need the suite's fixture server (its tools, resources, prompts or
 * extensions), which a course authoring server does not have (ours are tested with the SDK clients in the
 * mcp-*, export-* and import-* tests):
 * - tools-call-*, elicitation-sep1034-defaults, elicitation-sep1330-enums: the tools test_simple_text,
 *   test_image_content, …, test_elicitation_sep1330_enums;
 * - json-schema-2020-12: the tool json_schema_2020_12_tool;
 * - resources-read-text, resources-read-binary, resources-templates-read: test://static-text,
 *   test://static-binary, test://template/{id}/data;
 * - prompts-get-*: the prompts test_simple_prompt, test_prompt_with_arguments, …;
 * - resources-subscribe, resources-unsubscribe: the fixture resource test://watched-resource (course
 *   subscriptions: mcp-subscriptions.test.ts, mcp-modern-subscriptions.test.ts);
 * - server-sse-polling: the fixture tool test_reconnection, sent as 2025-03-26 on a 2025-11-25 session
 *   (resumable streams: mcp-resumable-streams.test.ts);
 * - input-required-result-* (but unsupported-methods): the tools test_input_required_result_* (our
 *   confirmations: mcp-confirmations.test.ts);
 * - http-custom-header-server-validation: a tool with x-mcp-header parameters, which this server has none of;
 * - tasks-* (the io.modelcontextprotocol/tasks extension): the tools greet, slow_compute, failing_job,
 *   protocol_error_job (ours: mcp-modern-tasks.test.ts);
 * - sep-2640-skills-*: the skills extension, which this server does not offer.
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
  /** Checks that need the suite's fixture tools: they may fail, only saying they were not testable. */
  notTestable?: string[];
}

const applicable: Record<"2025-11-25" | "2026-07-28", Record<string, Expectation>> = {
  "2025-11-25": {
    "server-initialize": { required: ["server-initialize"] },
    "server-session-lifecycle": {},
    "logging-set-level": { required: ["logging-set-level"] },
    ping: { required: ["ping"] },
    "completion-complete": { required: ["completion-complete"] },
    "tools-list": { required: ["tools-list"] },
    "resources-list": { required: ["resources-list"] },
    "prompts-list": { required: ["prompts-list"] },
    "server-sse-multiple-streams": {},
    "dns-rebinding-protection": { required: ["localhost-host-rebinding-rejected", "localhost-host-valid-accepted"] },
  },
  "2026-07-28": {
    "server-stateless": {
      notTestable: [
        "sep-2575-server-rejects-undeclared-capability",
        "sep-2575-missing-capability-http-400",
        "sep-2575-http-server-no-independent-requests-on-stream",
        "sep-2575-server-no-log-without-loglevel",
      ],
    },
    "completion-complete": { required: ["completion-complete"] },
    "tools-list": { required: ["tools-list"] },
    "resources-list": { required: ["resources-list"] },
    "prompts-list": { required: ["prompts-list"] },
    "server-sse-multiple-streams": {},
    "dns-rebinding-protection": { required: ["localhost-host-rebinding-rejected", "localhost-host-valid-accepted"] },
    caching: {},
    "http-header-validation": {},
    "sep-2164-resource-not-found": {},
    "input-required-result-unsupported-methods": {},
  },
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
async function runScenario(scenario: string, specVersion: string): Promise<{ exitCode: number; output: string; checks: Check[] }> {
  const outputDir = join(resultsDir, `${scenario}-${specVersion}`);
  const args = ["server", "--url", `http://127.0.0.1:${proxy.port}/mcp`, "--scenario", scenario, "--spec-version", specVersion, "-o", outputDir];
  const child = Bun.spawn([process.execPath, suiteCli, ...args], {
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

async function expectScenarioPasses(scenario: string, specVersion: string, expectation: Expectation): Promise<void> {
  const { exitCode, output, checks } = await runScenario(scenario, specVersion);
  const allowed = (check: Check) => expectation.notTestable?.includes(check.id) && /^Not testable/.test(check.errorMessage ?? "");
  const problems = checks.filter((check) => (check.status === "FAILURE" || check.status === "WARNING") && !allowed(check));
  expect(problems.map((check) => `${check.id} ${check.status}: ${check.errorMessage ?? check.description}`), output).toEqual([]);
  const succeeded = new Set(checks.filter((check) => check.status === "SUCCESS").map((check) => check.id));
  for (const id of expectation.required ?? []) expect(succeeded.has(id), `${scenario}: check ${id} did not succeed\n${output}`).toBe(true);
  expect(succeeded.size, `${scenario} ran no successful check\n${output}`).toBeGreaterThan(0);
  // The CLI exits 1 for any failed check, the allowed ones included.
  if (!expectation.notTestable) expect(exitCode, output).toBe(0);
}

describe("MCP conformance suite, server scenarios", () => {
  for (const [specVersion, scenarios] of Object.entries(applicable)) {
    for (const [scenario, expectation] of Object.entries(scenarios)) {
      test(`${scenario} (${specVersion})`, () => expectScenarioPasses(scenario, specVersion, expectation), 60_000);
    }
  }

  test("the scenario lists above name every server scenario the suite has, and only those", async () => {
    const child = Bun.spawn([process.execPath, suiteCli, "list", "--server"], { cwd: resultsDir, stdout: "pipe", stderr: "pipe" });
    const listed = (await new Response(child.stdout).text()).split("\n").flatMap((line) => /^\s+- (\S+)/.exec(line)?.[1] ?? []);
    await child.exited;
    const fixtureScenarios = [
      "tools-call-simple-text", "tools-call-image", "tools-call-audio", "tools-call-embedded-resource", "tools-call-mixed-content",
      "tools-call-with-logging", "tools-call-error", "tools-call-with-progress", "tools-call-sampling", "tools-call-elicitation",
      "elicitation-sep1034-defaults", "elicitation-sep1330-enums", "json-schema-2020-12", "resources-read-text", "resources-read-binary",
      "resources-templates-read", "prompts-get-simple", "prompts-get-with-args", "prompts-get-embedded-resource", "prompts-get-with-image",
      "resources-subscribe", "resources-unsubscribe", "server-sse-polling", "http-custom-header-server-validation",
      "sep-2640-skills-directory", "sep-2640-skills-enumeration", "sep-2640-skills-manifest",
    ];
    const notApplicable = [
      ...fixtureScenarios,
      ...listed.filter((name) => name.startsWith("tasks-") || (name.startsWith("input-required-result-") && name !== "input-required-result-unsupported-methods")),
    ];
    const run = new Set(Object.values(applicable).flatMap((scenarios) => Object.keys(scenarios)));
    // A new suite version with new scenarios fails here, so someone decides whether they apply.
    expect(listed.sort()).toEqual([...new Set([...run, ...notApplicable])].sort());
  }, 60_000);
});
