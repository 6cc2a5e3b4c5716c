/**
 * A small closed-loop load generator, run in its own process so it does not share the server's
 * event loop: `concurrency` workers send the same request back to back for `durationMs`, and the
 * result is printed as one JSON line (requests per second, latency percentiles, errors). With
 * `mcpSession`, it first opens an MCP session and sends every request inside it.
 */
interface LoadSpec {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  concurrency: number;
  durationMs: number;
  warmupMs: number;
  mcpSession?: boolean;
}

const spec = JSON.parse(process.argv[2] ?? "{}") as LoadSpec;

async function openSession(): Promise<string> {
  const headers = { ...spec.headers, "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
  const init = await fetch(spec.url, {
    method: "POST",
    headers,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
    }),
  });
  await init.text();
  const session = init.headers.get("mcp-session-id");
  if (!init.ok || !session) throw new Error(`initialize failed: ${init.status}`);
  const note = await fetch(spec.url, {
    method: "POST",
    headers: { ...headers, "Mcp-Session-Id": session, "Mcp-Protocol-Version": "2025-06-18" },
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  });
  await note.text();
  return session;
}

async function run() {
  const headers: Record<string, string> = { ...spec.headers };
  if (spec.mcpSession) {
    headers["Mcp-Session-Id"] = await openSession();
    headers["Mcp-Protocol-Version"] = "2025-06-18";
  }
  const latencies: number[] = [];
  let errors = 0;
  let measuring = false;
  const stopAt = performance.now() + spec.warmupMs + spec.durationMs;
  setTimeout(() => (measuring = true), spec.warmupMs);
  let firstError = "";
  // Requests in flight on one MCP session need distinct JSON-RPC ids: the transport pairs each answer
  // with its request by id, so a repeated id sends answers to the wrong caller once the server runs
  // calls truly in parallel (as it does on PostgreSQL).
  const template = spec.mcpSession && spec.body ? (JSON.parse(spec.body) as Record<string, unknown>) : undefined;
  let nextId = 0;
  const bodyFor = () => (template ? JSON.stringify({ ...template, id: ++nextId }) : spec.body);

  async function worker() {
    while (performance.now() < stopAt) {
      const started = performance.now();
      try {
        const response = await fetch(spec.url, { method: spec.method, headers, body: bodyFor() });
        const text = await response.text();
        if (!response.ok || text.includes('"isError":true')) {
          errors++;
          firstError ||= `${response.status} ${text.slice(0, 200)}`;
        }
      } catch (error) {
        errors++;
        firstError ||= String(error);
      }
      if (measuring) latencies.push(performance.now() - started);
    }
  }
  await Promise.all(Array.from({ length: spec.concurrency }, worker));
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  console.log(
    JSON.stringify({ requests: latencies.length, rps: latencies.length / (spec.durationMs / 1000), p50: at(0.5), p99: at(0.99), errors, firstError }),
  );
}

await run();
export {};
