/**
 * The service's Prometheus metrics and their listener. Requests and latency per route, tool calls and
 * latency per tool (with outcome), MCP sessions (this replica's and, with PostgreSQL, the shared
 * record), database pool use and availability, and the export queue (packages being built). Served on
 * a separate port (`METRICS_PORT`, off by default) so the published interface is unchanged and the
 * numbers are not exposed to the internet through the balancer.
 */
import { wrapToolHandlers, type CompiledTool } from "../mcp/registry.ts";
import { Counter, Gauge, Histogram, MetricsRegistry } from "./registry.ts";

export interface MetricSources {
  /** Sessions cached by this replica. */
  localSessions: () => number;
  /** Sessions in the shared record, when there is one. */
  sharedSessions?: () => Promise<number>;
  /** Pool size and connections in use, when the store is pooled. */
  pool?: () => { size: number; inUse: number; available: boolean; retries: number };
}

/** `knownRoutes` is read per request: the routes exist only once the app is assembled. */
export function createServiceMetrics(knownRoutes: () => ReadonlySet<string>) {
  const registry = new MetricsRegistry();
  const requests = registry.register(new Counter("cas_http_requests_total", "HTTP requests by method, route and status."));
  const requestSeconds = registry.register(new Histogram("cas_http_request_duration_seconds", "HTTP request latency by route."));
  const toolCalls = registry.register(new Counter("cas_mcp_tool_calls_total", "MCP tool calls by tool and outcome (ok, tool_error, failed)."));
  const toolSeconds = registry.register(new Histogram("cas_mcp_tool_duration_seconds", "MCP tool call latency by tool."));
  const running = new Map<string, number>();
  registry.register(
    new Gauge("cas_mcp_tool_calls_in_progress", "Tool calls running now, by tool.", () => [...running].map(([tool, value]) => ({ labels: { tool }, value }))),
  );
  registry.register(new Gauge("cas_export_queue_length", "Export packages being built on this replica.", () => [{ value: running.get("export_course") ?? 0 }]));

  return {
    registry,

    /** Unknown paths share one label, so scanners cannot grow the series without bound. */
    observeRequest(method: string, path: string, status: number, seconds: number): void {
      const route = knownRoutes().has(path) ? path : "unmatched";
      requests.inc({ method, route, status: String(status) });
      requestSeconds.observe({ route }, seconds);
    },

    /** The same tools, each handler timed and counted; results and errors pass through unchanged. */
    instrumentTools<S>(tools: Map<string, CompiledTool<S>>): Map<string, CompiledTool<S>> {
      return wrapToolHandlers(tools, (name, handler) => async (args, context) => {
        const started = performance.now();
        running.set(name, (running.get(name) ?? 0) + 1);
        let outcome = "ok";
        try {
          return await handler(args, context);
        } catch (error) {
          outcome = (error as Error)?.name === "CourseAuthoringError" ? "tool_error" : "failed";
          throw error;
        } finally {
          running.set(name, (running.get(name) ?? 1) - 1);
          toolCalls.inc({ tool: name, outcome });
          toolSeconds.observe({ tool: name }, (performance.now() - started) / 1000);
        }
      });
    },

    /** Wires the gauges that read live numbers from the sessions and the store. */
    watch(sources: MetricSources): void {
      registry.register(new Gauge("cas_mcp_sessions", "MCP sessions cached by this replica.", () => [{ value: sources.localSessions() }]));
      if (sources.sharedSessions) {
        let shared = 0;
        const read = sources.sharedSessions;
        registry.onScrape(async () => {
          shared = await read();
        });
        registry.register(new Gauge("cas_mcp_sessions_shared", "MCP sessions in the shared record (all replicas).", () => [{ value: shared }]));
      }
      const pool = sources.pool;
      if (pool) {
        registry.register(new Gauge("cas_db_pool_size", "Connections the database pool may open.", () => [{ value: pool().size }]));
        registry.register(new Gauge("cas_db_pool_in_use", "Pool connections running a transaction now.", () => [{ value: pool().inUse }]));
        registry.register(new Gauge("cas_db_available", "1 while the database answers, 0 during an outage.", () => [{ value: pool().available ? 1 : 0 }]));
        registry.register(
          new Gauge("cas_db_serialization_retries", "Write transactions retried after losing a race (since start).", () => [{ value: pool().retries }]),
        );
      }
    },
  };
}

export type ServiceMetrics = ReturnType<typeof createServiceMetrics>;

/** The `/metrics` listener; only started when METRICS_PORT is set. */
export function startMetricsServer(metrics: ServiceMetrics, port: number, hostname: string) {
  return Bun.serve({
    port,
    hostname,
    async fetch(request) {
      if (new URL(request.url).pathname !== "/metrics") return new Response("Not found", { status: 404 });
      return new Response(await metrics.registry.render(), { headers: { "Content-Type": "text/plain; version=0.0.4; charset=utf-8" } });
    },
  });
}
