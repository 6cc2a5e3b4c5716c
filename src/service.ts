/**
 * Assembles and starts the whole service from a validated `Config`: the development identity provider
 * when no AUTH_URL is set, the authorization server metadata and token verifier, the authoring store,
 * the MCP server factory and sessions, the checked OpenAPI document, and `Bun.serve`. `stop()` shuts it
 * down in reverse order after in-flight requests finish. Tests start exactly this.
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/server";
import packageJson from "../package.json" with { type: "json" };
import { ConfigError, dataDirectory, defaultWorkerJobCpuMs, defaultWorkerPoolSize, isLoopbackUrl, type Config } from "./config.ts";
import { createLogger, type Logger } from "./log.ts";
import { createApp } from "./app.ts";
import { createAuthorizationServerMetadataSource } from "./auth/authorization-server-metadata.ts";
import { createAccessTokenVerifier } from "./auth/verify-access-token.ts";
import { startDevIdentityProvider, type DevIdentityProvider } from "./dev-identity-provider/index.ts";
import { buildOpenApiDocument } from "./discovery/openapi-document.ts";
import { checkOpenApiInThread } from "./discovery/openapi-check-thread.ts";
import { assertRoutesMatchDocument } from "./discovery/openapi-routes-check.ts";
import { renderApiDocsPage } from "./discovery/docs-page.ts";
import { everyResponseHeaders, notAPageHeaders, preparedHtmlPage } from "./http/security-headers.ts";
import { apiVersion } from "./http/api-version.ts";
import { buildServerCard, serviceDescription } from "./discovery/server-card.ts";
import { discoveryRoutes, protectedResourcePath } from "./discovery/routes.ts";
import { answerTaskCall, callerOf, createMcpServer, modernProtocolVersion, type McpEra, type McpServerDeps } from "./mcp/server.ts";
import { createConfirmations } from "./mcp/confirmations.ts";
import { createMcpSessions } from "./mcp/sessions.ts";
import { createMcpEndpoint } from "./mcp/endpoint.ts";
import { createModernLeg } from "./mcp/modern-leg.ts";
import { taskCallAnswers } from "./mcp/tasks/task-call.ts";
import { mcpRoute } from "./mcp/http-route.ts";
import { mcpBodyShape } from "./mcp/request-body.ts";
import { mcpRateLimit } from "./mcp/rate-limit.ts";
import { createRateLimiter } from "./http/rate-limit.ts";
import { createSessionSharing } from "./mcp/session-sharing.ts";
import { withStoreOutageAnswers } from "./mcp/store-outage.ts";
import { createMcpTasks, defaultStaleAfterMs } from "./mcp/tasks/task-runs.ts";
import { createModernTasks } from "./mcp/tasks/tasks-extension.ts";
import { createModernListen } from "./mcp/modern-listen.ts";
import { discardTaskResult, taskServices, taskToolNames } from "./mcp/tasks/task-work.ts";
import { createServiceMetrics, startMetricsServer } from "./metrics/service-metrics.ts";
import { serverInstructions } from "./mcp/instructions.ts";
import { serverIcons } from "./mcp/icons.ts";
import { startUploadSweeper } from "./authoring/upload-sweeper.ts";
import { monotonicClock, type AuthoringServices } from "./authoring/services.ts";
import { CourseRowsCache } from "./authoring/course-rows-cache.ts";
import { randomId } from "./authoring/ids.ts";
import { defaultAuthoringLimits, limitExceededError, type AuthoringLimits } from "./authoring/limits.ts";
import { ExportStore, newExportId } from "./export/export-store.ts";
import type { KeptPackagesLimit } from "./store/packages.ts";
import { openSqliteStore } from "./store/sqlite/store.ts";
import { DatabaseInUseError } from "./store/sqlite/ownership.ts";
import { openPostgresDatabase, type PostgresDatabase } from "./store/postgres/open.ts";
import { DatabaseConnectError } from "./store/postgres/connect.ts";
import { join } from "node:path";
import { compileAuthoringTools } from "./mcp/tools/catalogue.ts";
import { authoringResources } from "./mcp/tools/resources.ts";
import { authoringPrompts } from "./mcp/tools/prompts.ts";
import { withExportResources } from "./mcp/tools/export-resources.ts";
import { createEventStreams } from "./mcp/event-streams.ts";
import { createServerRequestRelay } from "./mcp/server-request-relay.ts";
import { createResourceSubscriptions, type ResourceSubscriptions } from "./mcp/resource-subscriptions.ts";
import { reportingCourseChanges } from "./store/course-changes.ts";
import { InProcessStreamEvents, type StreamEventStore } from "./store/stream-events.ts";
import { InProcessResourceSubscriptions, type ResourceSubscriptionStore } from "./store/resource-subscriptions.ts";
import { createWorkerPool, type WorkerPool } from "./workers/pool.ts";
import type { Jobs } from "./workers/jobs.ts";
import { jobDescriptions } from "./workers/job-descriptions.ts";

export const serviceName = "course-authoring-service";
export const serviceVersion = packageJson.version;
/** Requests to /mcp may carry base64 assets; this bounds them (10 MB decoded is ~13.4 MB encoded). */
export const maxMcpBodyBytes = 16 * 1024 * 1024;

/**
 * How long a client may take (README, "Slow clients"): a request's headers, and an idle keep-alive
 * connection, get `headersSeconds` (Bun's idle time-out, which bytes trickling in do not reset); a
 * body gets `bodySeconds` from when its reading starts; then the answer (a long tool call, an event
 * stream) may stay silent up to `answerSeconds`, Bun's maximum.
 */
export const requestDeadlines = { headersSeconds: 10, bodySeconds: 30, answerSeconds: 255 } as const;

/** The services plus what only a shared database offers (session records, health, pool), and a way to close. */
export type OpenedServices = AuthoringServices & { shared: PostgresDatabase | undefined; close(): Promise<void> };

/** Chooses the store and the package storage from `DATABASE_URL`: the one place implementations are picked. */
export async function openAuthoringServices(
  databaseUrl: string,
  options: { poolSize?: number; limits?: AuthoringLimits; workers?: HeavyWorkSettings; logger?: Logger } = {},
): Promise<OpenedServices> {
  const limits = options.limits ?? defaultAuthoringLimits;
  const opened = await openStores(databaseUrl, options.poolSize, limits);
  // Threads start on the first job, so services that never parse or render cost none.
  const heavyWork = createHeavyWork(options.workers ?? { size: defaultWorkerPoolSize, cpuBudgetMs: defaultWorkerJobCpuMs }, options.logger);
  const close = async () => {
    await heavyWork.close();
    await opened.close();
  };
  return { ...opened, heavyWork, close };
}

export interface HeavyWorkSettings {
  size: number;
  cpuBudgetMs: number;
}

/** The worker entry by a path relative to this file, which a compiled binary (it lists the entry) resolves too. */
const workerEntry = new URL("./workers/worker-entry.ts", import.meta.url);
/** The OpenAPI check's thread, named the same way (`openapi-check-thread.ts`). */
const openApiCheckEntry = new URL("./discovery/openapi-check-worker.ts", import.meta.url);

function createHeavyWork(settings: HeavyWorkSettings, logger: Logger | undefined): WorkerPool<Jobs> {
  return createWorkerPool<Jobs>({
    entry: workerEntry,
    size: settings.size,
    cpuBudgetMs: settings.cpuBudgetMs,
    budgetSetting: "WORKER_JOB_CPU_MS",
    describe: (job) => jobDescriptions[job as keyof Jobs] ?? "the work",
    onThreadError: (message) => logger?.error("heavy-work thread failed", { error: message }),
  });
}

async function openStores(databaseUrl: string, poolSize: number | undefined, limits: AuthoringLimits): Promise<Omit<OpenedServices, "heavyWork">> {
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    let shared: PostgresDatabase;
    try {
      shared = await openPostgresDatabase(databaseUrl, { max: poolSize }, { newExportId, kept: keptPackagesLimit(limits.userExports) });
    } catch (error) {
      // Never a silent fall-back to SQLite: the operator asked for this database.
      if (error instanceof DatabaseConnectError) throw new ConfigError("DATABASE_URL", error.message);
      throw error;
    }
    return { store: shared.store, now: monotonicClock(), newId: randomId, exports: shared.exports, limits, courseRows: new CourseRowsCache(), shared, close: () => shared.close() };
  }
  let store: ReturnType<typeof openSqliteStore>;
  try {
    store = openSqliteStore(databaseUrl);
  } catch (error) {
    if (error instanceof DatabaseInUseError) throw new ConfigError("DATABASE_URL", error.message);
    throw error;
  }
  const exports = new ExportStore({ directory: join(dataDirectory(databaseUrl), "exports"), keptPerUser: limits.userExports });
  return { store, now: monotonicClock(), newId: randomId, exports, limits, courseRows: new CourseRowsCache(), shared: undefined, close: async () => store.close() };
}

/** `LIMIT_USER_EXPORTS` for package storage that lives below the domain: the domain words the refusal. */
function keptPackagesLimit(perUser: number): KeptPackagesLimit {
  return {
    perUser,
    refuse: (user, current, soonest) =>
      limitExceededError("userExports", perUser, user, current, 1, soonest ? ` The next one expires at ${soonest.toISOString()}.` : ""),
  };
}

export interface RunningService {
  /** `{base_url}`. */
  url: string;
  /** `{auth_url}`: the configured identity provider, or the embedded one. */
  authUrl: string;
  config: Config;
  /** The embedded development identity provider, when it runs. */
  devProvider: DevIdentityProvider | undefined;
  /** The fetch handler behind the listener, for in-process measurements. */
  fetch: (request: Request) => Response | Promise<Response>;
  stop(): Promise<void>;
}

export async function startService(config: Config, logger: Logger = createLogger(config.logLevel)): Promise<RunningService> {
  if (config.authUrl === undefined) {
    if (config.nodeEnv === "production") {
      throw new ConfigError("AUTH_URL", "must be set when NODE_ENV=production (the development identity provider never runs in production)");
    }
    // A deployment that forgot AUTH_URL must not quietly mint tokens for any name: only a local BASE_URL runs the dev provider.
    if (!isLoopbackUrl(config.baseUrl)) {
      throw new ConfigError("AUTH_URL", `must be set when BASE_URL (${config.baseUrl}) is not a loopback address; the development identity provider runs only for localhost`);
    }
  }
  // Then the database: a bad DATABASE_URL stops start-up before anything listens.
  const opened = await openAuthoringServices(config.databaseUrl, {
    poolSize: config.databasePoolSize,
    limits: config.limits,
    workers: { size: config.workerPoolSize, cpuBudgetMs: config.workerJobCpuMs },
    logger,
  });
  // Every committed write reports the courses it changed; subscribed sessions hear of it (set below).
  let subscriptions: ResourceSubscriptions | undefined;
  const mcpLimit = config.rateLimitMcp && mcpRateLimit(createRateLimiter(config.rateLimitMcp), config.rateLimitMcpWriteBytes);
  const services: OpenedServices = {
    ...opened,
    uploadLifetimeMs: config.uploadLifetimeMs,
    results: config.results,
    store: reportingCourseChanges(opened.store, (courseIds) => subscriptions?.courseChanged(courseIds)),
    // Writes cost their bytes as well as their calls, so a bulk writer (a restore loop) waits like a busy caller.
    ...(mcpLimit ? { onBytesWritten: (sub: string, bytes: number) => mcpLimit.written(sub, bytes) } : {}),
  };
  let devProvider: DevIdentityProvider | undefined;
  if (config.authUrl === undefined) {
    devProvider = await startDevIdentityProvider({
      port: config.devAuthPort,
      dataDir: dataDirectory(config.databaseUrl),
      resource: config.authAudience,
      nodeEnv: config.nodeEnv,
    });
  }
  const authUrl = config.authUrl ?? devProvider!.issuer;
  // Without AUTH_ISSUER, the expected `iss` is the one the provider's own metadata names, so issuers
  // with a trailing slash (Auth0) work as configured.
  const metadata = createAuthorizationServerMetadataSource({
    authUrl,
    issuer: config.authIssuer,
    onProblem: (message) => logger.warn("authorization server metadata", { problem: message }),
  });
  // The embedded provider is local and already listening: wait for its metadata, so the service
  // verifies tokens from its first request. A remote provider may be slow; the 503 covers that.
  if (devProvider) await Promise.race([metadata.loaded, Bun.sleep(5000)]);
  const verifier = createAccessTokenVerifier({
    metadata,
    issuer: config.authIssuer,
    audience: config.authAudience,
    requiredScopes: config.authRequiredScopes,
    jwksUrl: config.authJwksUrl,
  });

  // Exports expire after a day; those of courses nobody touches again are swept here.
  void services.exports.sweepExpired().catch((error: unknown) => logger.warn("sweeping expired exports failed", { error: String(error) }));
  // Unfinished uploads expire; their chunks are deleted now (left by the last run) and on a timer after.
  const uploadSweeper = startUploadSweeper({
    store: services.store,
    now: services.now,
    lifetimeMs: config.uploadLifetimeMs,
    resultsRetentionMs: config.results.retentionDays * 86_400_000,
    onSwept: (count) => logger.info("expired uploads deleted", { count }),
    onError: (error: unknown) => logger.warn("sweeping expired uploads failed", { error: String(error) }),
  });
  const metrics = config.metricsPort === undefined ? undefined : createServiceMetrics(() => knownPaths);
  // Task records live in the store; a single SQLite process knows that tasks left working by its last run are dead.
  const tasks = createMcpTasks<typeof services>({
    store: services.store,
    now: services.now,
    logger,
    taskTools: taskToolNames,
    servicesFor: taskServices,
    discard: discardTaskResult,
    failLeftoversAtStart: services.shared === undefined,
    staleAfterMs: services.shared === undefined ? undefined : defaultStaleAfterMs,
  });
  const compiled = tasks.withTaskSupport(withStoreOutageAnswers(compileAuthoringTools()));
  const tools = metrics ? metrics.instrumentTools(compiled) : compiled;

  const document = buildOpenApiDocument({ baseUrl: config.baseUrl, authUrl, requiredScopes: config.authRequiredScopes });
  // Checked in its own thread while the rest starts; the listener opens only once it has passed.
  const openApiChecked = checkOpenApiInThread(document, openApiCheckEntry);
  openApiChecked.catch(() => {});
  const documents = {
    openApiJson: JSON.stringify(document),
    serverCardJson: JSON.stringify(
      buildServerCard({ baseUrl: config.baseUrl, authUrl, serverName: serviceName, serverVersion: serviceVersion, protocolVersions: [modernProtocolVersion, ...SUPPORTED_PROTOCOL_VERSIONS] }),
    ),
    docsPage: await preparedHtmlPage(renderApiDocsPage({ baseUrl: config.baseUrl, authUrl, document })),
  };

  // Stream events and subscriptions: shared in PostgreSQL, in this process with SQLite; none when stateless.
  const shared = services.shared;
  const streamEvents: StreamEventStore | undefined = config.mcpStateless ? undefined : (shared?.events ?? new InProcessStreamEvents());
  const subscriptionStore: ResourceSubscriptionStore | undefined = config.mcpStateless ? undefined : (shared?.subscriptions ?? new InProcessResourceSubscriptions());
  if (streamEvents && subscriptionStore) subscriptions = createResourceSubscriptions({ subscriptions: subscriptionStore, events: streamEvents, services, logger });
  const sharing = services.shared && createSessionSharing({ records: services.shared.sessions, logger, idleTimeoutMs: 30 * 60_000 });
  const logLevels = sharing && { get: (id: string) => sharing.logLevelOf(id), set: (id: string, level: string) => sharing.setLogLevel(id, level) };
  // A random key stored once in the database every replica shares (insert-if-absent: replicas starting
  // together agree), so any replica verifies what another sealed and nobody can derive it from settings.
  const requestStateKey = await services.store.write((tx) =>
    tx.serviceSecret("mcp-request-state", Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url"), new Date().toISOString()),
  );
  const serverDeps: McpServerDeps<typeof services> = {
    name: serviceName,
    version: serviceVersion,
    // The website is the service's own API documentation, the page the server card names too.
    identity: { title: "Course Authoring Service", description: serviceDescription, websiteUrl: `${config.baseUrl}/docs/api`, icons: serverIcons },
    instructions: serverInstructions,
    tools,
    services,
    resources: withExportResources(authoringResources),
    prompts: authoringPrompts,
    logger,
    resultMaxBytes: config.mcpResultMaxBytes,
    ...(subscriptions ? { subscriptions } : {}),
    ...(logLevels ? { logLevels } : {}),
    tasks,
    confirmations: createConfirmations({
      key: requestStateKey,
      callerOf,
      claim: (nonce, expiresAt) => services.store.write((tx) => tx.claimConfirmation(nonce, expiresAt.toISOString(), new Date().toISOString())),
    }),
  };
  const modernListen = streamEvents && subscriptions && createModernListen({
    subscriptions,
    events: streamEvents,
    logger,
    records: services.shared?.sessions,
    maxStreamsPerUser: config.mcpMaxListenStreamsPerUser,
  });
  // One server factory for both legs: each names its era (and the 2026-07-28 leg the request's method).
  const serverFor = (era: McpEra, method?: string) => createMcpServer(serverDeps, era, method);
  const sessions = createMcpSessions({
    stateless: config.mcpStateless,
    streams: streamEvents && createEventStreams({ events: streamEvents, logger }),
    // Only shared sessions need it: in one process the answer always reaches the server that asked.
    ...(sharing && streamEvents ? { relay: createServerRequestRelay({ events: streamEvents, logger }) } : {}),
    onSessionEnded: (id) => subscriptions?.forgetSession(id),
    maxSessions: config.mcpMaxSessions,
    maxSessionsPerUser: config.mcpMaxSessionsPerUser,
    logger,
    sharing,
    createServer: () => serverFor("legacy"),
    answerHeaders: { ...notAPageHeaders, "Service-Api-Version": apiVersion },
    answeredBesideServer: taskCallAnswers((params, user) => answerTaskCall(serverDeps, params, user)),
  });
  const endpoint = createMcpEndpoint({
    legacy: sessions,
    modern: createModernLeg({
      createServer: (method) => serverFor("modern", method),
      logger,
      owners: [
        createModernTasks({
          operations: tasks.operations,
          runsAsTask: tasks.runsAsTask,
          start: (name, args, user) => answerTaskCall(serverDeps, { name, ...(args ? { arguments: args } : {}), task: {} }, user),
          serverInfo: { ...serverDeps.identity, name: serviceName, version: serviceVersion },
        }),
        ...(modernListen ? [modernListen] : []),
      ],
    }),
  });

  const app = createApp({
    baseUrl: config.baseUrl,
    logger,
    routes: [
      ...discoveryRoutes({ baseUrl: config.baseUrl, authUrl, metadata, documents }),
      mcpRoute({
        endpoint,
        body: {
          maxBytes: maxMcpBodyBytes,
          shape: mcpBodyShape(maxMcpBodyBytes),
          deadlineMs: requestDeadlines.bodySeconds * 1000,
          // The client went away mid-body: its business, not a server fault, so not an error in our logs.
          onIncomplete: (reason) => logger.info("request body not received", { reason }),
        },
        answerSeconds: requestDeadlines.answerSeconds,
        rateLimit: mcpLimit,
        database: services.shared?.store,
      }),
    ],
    verifier,
    requiredScopes: config.authRequiredScopes,
    resourceMetadataUrl: `${config.baseUrl}${protectedResourcePath}`,
    restRateLimiter: config.rateLimitRest && createRateLimiter(config.rateLimitRest),
    origins: {
      allowed: new Set([new URL(config.baseUrl).origin, ...config.allowedOrigins]),
      allowLoopback: devProvider !== undefined,
    },
    observe: metrics?.observeRequest,
  });
  assertRoutesMatchDocument(document, app.router.routes);
  await openApiChecked;
  const knownPaths = new Set(app.router.routes.map((route) => route.path));

  const server = Bun.serve({
    port: config.port,
    hostname: config.host,
    // The headers' deadline; a route that reads a body or answers slowly allows itself more (app.ts).
    idleTimeout: requestDeadlines.headersSeconds,
    maxRequestBodySize: maxMcpBodyBytes + 1024,
    // The probes (health) through Bun's router, everything else through the pipeline (app.ts).
    routes: app.probeRoutes,
    fetch: app.fetch,
    error(error) {
      logger.error("unhandled server error", { error: error.message });
      return new Response(null, { status: 500, headers: everyResponseHeaders });
    },
  });

  let metricsServer: ReturnType<typeof startMetricsServer> | undefined;
  if (metrics && config.metricsPort !== undefined) {
    const shared = services.shared;
    metrics.watch({
      localSessions: () => sessions.size,
      sharedSessions: shared && (() => shared.sessions.count()),
      pool: shared && (() => ({ size: shared.poolSize, inUse: shared.store.active, available: shared.store.available, retries: shared.store.retries })),
    });
    metricsServer = startMetricsServer(metrics, config.metricsPort, config.metricsHost);
  }

  // Start-up made its garbage (tool schemas, the OpenAPI check, migrations); one full collection now
  // hands those pages back before the first request instead of at the first busy moment.
  Bun.gc(true);
  let stopped: Promise<void> | undefined;
  return {
    url: config.baseUrl,
    authUrl,
    config,
    devProvider,
    fetch: app.fetch,
    stop() {
      stopped ??= (async () => {
        // Stop accepting, give in-flight requests a moment, then end open streams and sessions.
        const drained = server.stop(false);
        await Promise.race([drained, Bun.sleep(5000)]);
        modernListen?.closeAll();
        await sessions.closeAll();
        await tasks.stop();
        await uploadSweeper.stop();
        await metricsServer?.stop(true);
        await server.stop(true);
        metadata.close();
        if (!shared) streamEvents?.close();
        await services.close();
        await devProvider?.close();
      })();
      return stopped;
    },
  };
}
