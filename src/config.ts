/**
 * Service configuration, read once from the environment and validated with valibot. The variable
 * names are part of the product (DESIGN.md section 3); an invalid value stops start-up with one line
 * that names the variable, and no value is ever echoed when it could be a secret.
 */
import { availableParallelism } from "node:os";
import { dirname, resolve } from "node:path";
import * as v from "valibot";
import { defaultAuthoringLimits, limitDescriptions, type AuthoringLimits, type LimitName } from "./authoring/limits.ts";
import { defaultResultsSettings, type ResultsSettings } from "./authoring/services.ts";
import { sqlitePathFromUrl } from "./store/database-url.ts";

export type LogLevel = "debug" | "info" | "warn" | "error";

export interface Config {
  port: number;
  host: string;
  /** `{base_url}` of the spec, without a trailing slash. */
  baseUrl: string;
  /** `{auth_url}` of the spec. Undefined: the embedded development identity provider runs. */
  authUrl: string | undefined;
  /** Expected `iss`; defaults to the auth URL once it is known. */
  authIssuer: string | undefined;
  /** JWKS location; undefined means discovered from the issuer's metadata. */
  authJwksUrl: string | undefined;
  /** Expected `aud` (RFC 8707 resource). */
  authAudience: string;
  /** Scopes every /mcp token needs. */
  authRequiredScopes: string[];
  databaseUrl: string;
  logLevel: LogLevel;
  /** Serve /mcp without sessions, for round-robin deployments. */
  mcpStateless: boolean;
  /** Origins allowed to call /mcp from a browser, besides the service's own. */
  allowedOrigins: string[];
  /** MCP sessions in all; a new one beyond it is refused with 503. */
  mcpMaxSessions: number;
  /** MCP sessions of one user; a new one beyond it closes that user's least recently used idle one. */
  mcpMaxSessionsPerUser: number;
  /** 2026-07-28 `subscriptions/listen` streams one user may hold open on a replica; one more is refused. */
  mcpMaxListenStreamsPerUser: number;
  /** Per-user token bucket on /mcp (units a minute, bucket size); undefined when off. */
  rateLimitMcp: { perMinute: number; burst: number } | undefined;
  /** Bytes a write stores per unit it costs in the /mcp rate limit (`RATE_LIMIT_MCP_WRITE_BYTES`). */
  rateLimitMcpWriteBytes: number;
  /** Per-client-address token bucket on the REST routes; undefined when off. */
  rateLimitRest: { perMinute: number; burst: number } | undefined;
  /** Port of the embedded development identity provider (loopback only). */
  devAuthPort: number;
  nodeEnv: string;
  /** Per-course and per-user limits (`LIMIT_*`). */
  limits: AuthoringLimits;
  /** Port of the Prometheus `/metrics` listener; undefined: no listener. */
  metricsPort: number | undefined;
  /** Address the `/metrics` listener binds to: loopback unless a deployment asks otherwise (it has no auth). */
  metricsHost: string;
  /** Connections each replica may open to PostgreSQL. */
  databasePoolSize: number;
  /** Largest MCP tool result (its text and structured content), in bytes; larger reads page or narrow. */
  mcpResultMaxBytes: number;
  /** Worker threads for heavy work (parsing imports, rendering and packaging exports). */
  workerPoolSize: number;
  /** CPU time one heavy-work job may use before its thread is stopped, in ms. */
  workerJobCpuMs: number;
  /** How long an unfinished chunked upload is kept; expired ones are swept on a timer and at start-up. */
  uploadLifetimeMs: number;
  /** `RESULTS_MIN_GROUP` (never below 5), `RESULTS_RETENTION_DAYS` (365), `LRS_ALLOWED_HOSTS` (none). */
  results: ResultsSettings;
}

/** One thread is left to the request loop; a one-core machine still gets one worker. */
export const defaultWorkerPoolSize = Math.max(1, availableParallelism() - 1);
export const defaultWorkerJobCpuMs = 30_000;

/** Listen streams per user: each holds a connection, a timer and shared records, so the cap is fixed at most this. */
export const maxListenStreamsPerUser = 100;

/** An hour: long enough for a large file over a slow link, short enough that abandoned chunks do not linger. */
export const defaultUploadLifetimeSeconds = 60 * 60;

/** About 15k tokens: under the 25k-token cap hosts such as Claude Code put on one tool result. */
export const defaultMcpResultMaxBytes = 60 * 1024;

export class ConfigError extends Error {
  constructor(readonly variable: string, message: string) {
    super(`${variable}: ${message}`);
    this.name = "ConfigError";
  }
}

const httpUrl = v.pipe(
  v.string(),
  v.url("must be an absolute URL"),
  v.check((value) => /^https?:\/\//.test(value), "must be an http or https URL"),
);
const port = v.pipe(
  v.string(),
  v.regex(/^\d+$/, "must be a whole number"),
  v.transform(Number),
  v.number(),
  v.maxValue(65535, "must be at most 65535"),
);
/** An IPv4 or IPv6 literal (brackets optional), or a host name the resolver turns into one. */
function isListenAddress(value: string): boolean {
  const bare = value.replace(/^\[(.*)\]$/, "$1");
  if (/^\d{1,3}(?:\.\d{1,3}){3}$/.test(bare)) return bare.split(".").every((part) => Number(part) <= 255);
  if (bare.includes(":")) return URL.canParse(`http://[${bare}]/`);
  return /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/.test(bare) && !/^[\d.]+$/.test(bare);
}
const listenAddress = v.pipe(
  v.string(),
  v.check(isListenAddress, "must be an IP address (e.g. 127.0.0.1, ::1, 0.0.0.0) or a host name"),
  v.transform((value) => value.replace(/^\[(.*)\]$/, "$1")),
);
const positiveCount = v.pipe(v.string(), v.regex(/^[1-9]\d{0,8}$/, "must be a whole number from 1 to 999999999"), v.transform(Number));
const countOrZero = v.pipe(v.string(), v.regex(/^\d{1,9}$/, "must be a whole number from 0 (off) to 999999999"), v.transform(Number));

/** `<prefix>_PER_MINUTE` (0 or unset: off) and `<prefix>_BURST` (default: one minute's worth). */
function rateLimit(env: Record<string, string | undefined>, prefix: string): { perMinute: number; burst: number } | undefined {
  const perMinute = read(env, `${prefix}_PER_MINUTE`, countOrZero) ?? 0;
  const burst = read(env, `${prefix}_BURST`, positiveCount);
  if (perMinute === 0) return undefined;
  return { perMinute, burst: burst ?? perMinute };
}

function read<T>(env: Record<string, string | undefined>, name: string, schema: v.GenericSchema<string, T>): T | undefined {
  const raw = env[name];
  if (raw === undefined || raw === "") return undefined;
  const result = v.safeParse(schema, raw);
  if (!result.success) throw new ConfigError(name, result.issues[0]?.message ?? "is invalid");
  return result.output;
}

const positiveWholeNumber = v.pipe(
  v.string(),
  v.regex(/^\d+$/, "must be a whole number"),
  v.transform(Number),
  v.number(),
  v.safeInteger("must be at most 9007199254740991"),
  v.minValue(1, "must be at least 1"),
);

/** Each limit from its `LIMIT_*` variable (named once, in `limitDescriptions`), else its default. */
function readLimits(env: Record<string, string | undefined>): AuthoringLimits {
  const limits = { ...defaultAuthoringLimits };
  for (const name of Object.keys(limits) as LimitName[]) {
    limits[name] = read(env, limitDescriptions[name].setting, positiveWholeNumber) ?? limits[name];
  }
  return limits;
}

const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, "");

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const listenPort = read(env, "PORT", port) ?? 3000;
  const baseUrl = withoutTrailingSlash(read(env, "BASE_URL", httpUrl) ?? `http://localhost:${listenPort}`);
  const authUrl = read(env, "AUTH_URL", httpUrl);
  const logLevel = read(env, "LOG_LEVEL", v.picklist(["debug", "info", "warn", "error"], "must be one of debug, info, warn, error"));
  const databaseUrl =
    read(
      env,
      "DATABASE_URL",
      v.pipe(v.string(), v.regex(/^(sqlite:|postgres:\/\/|postgresql:\/\/)/, "must start with sqlite: or postgres://")),
    ) ?? "sqlite://./data/course-authoring.db";
  const scopes = read(env, "AUTH_REQUIRED_SCOPES", v.pipe(v.string(), v.regex(/^[\x21\x23-\x5B\x5D-\x7E ]+$/, "must be space-separated scope tokens")));
  const origins = read(env, "ALLOWED_ORIGINS", v.string());
  const stateless = read(env, "MCP_STATELESS", v.picklist(["true", "false", "1", "0"], "must be true or false"));
  const listenStreams = read(env, "MCP_MAX_LISTEN_STREAMS_PER_USER", v.pipe(positiveCount, v.maxValue(maxListenStreamsPerUser, `must be at most ${maxListenStreamsPerUser}`)));
  const uploadLifetime = read(env, "UPLOAD_LIFETIME_SECONDS", v.pipe(positiveCount, v.maxValue(7 * 24 * 3600, "must be at most 604800 (a week)")));
  const resultMaxBytes = read(env, "MCP_RESULT_MAX_BYTES", v.pipe(v.string(), v.regex(/^\d+$/, "must be a whole number of bytes"), v.transform(Number), v.number(), v.minValue(8192, "must be at least 8192"), v.maxValue(10_000_000, "must be at most 10000000")));
  return {
    port: listenPort,
    host: read(env, "HOST", v.string()) ?? "0.0.0.0",
    baseUrl,
    authUrl: authUrl === undefined ? undefined : withoutTrailingSlash(authUrl),
    authIssuer: read(env, "AUTH_ISSUER", v.string()),
    authJwksUrl: read(env, "AUTH_JWKS_URL", httpUrl),
    authAudience: read(env, "AUTH_AUDIENCE", v.string()) ?? `${baseUrl}/mcp`,
    authRequiredScopes: (scopes ?? "openid").split(" ").filter(Boolean),
    databaseUrl,
    logLevel: logLevel ?? "info",
    mcpStateless: stateless === "true" || stateless === "1",
    allowedOrigins: (origins ?? "").split(",").map((o) => o.trim()).filter(Boolean).map(withoutTrailingSlash),
    mcpMaxSessions: read(env, "MCP_MAX_SESSIONS", positiveCount) ?? 1000,
    mcpMaxSessionsPerUser: read(env, "MCP_MAX_SESSIONS_PER_USER", positiveCount) ?? 20,
    mcpMaxListenStreamsPerUser: listenStreams ?? maxListenStreamsPerUser,
    rateLimitMcp: rateLimit(env, "RATE_LIMIT_MCP"),
    rateLimitMcpWriteBytes: read(env, "RATE_LIMIT_MCP_WRITE_BYTES", positiveCount) ?? 64 * 1024,
    rateLimitRest: rateLimit(env, "RATE_LIMIT_REST"),
    devAuthPort: read(env, "DEV_AUTH_PORT", port) ?? listenPort + 1,
    nodeEnv: env.NODE_ENV ?? "development",
    limits: readLimits(env),
    metricsPort: read(env, "METRICS_PORT", port),
    metricsHost: read(env, "METRICS_HOST", listenAddress) ?? "127.0.0.1",
    databasePoolSize: read(env, "DATABASE_POOL_SIZE", v.pipe(port, v.minValue(1, "must be at least 1"), v.maxValue(1000, "must be at most 1000"))) ?? 10,
    mcpResultMaxBytes: resultMaxBytes ?? defaultMcpResultMaxBytes,
    workerPoolSize: read(env, "WORKER_POOL_SIZE", v.pipe(positiveCount, v.maxValue(64, "must be at most 64"))) ?? defaultWorkerPoolSize,
    workerJobCpuMs: read(env, "WORKER_JOB_CPU_MS", v.pipe(positiveCount, v.minValue(10, "must be at least 10"))) ?? defaultWorkerJobCpuMs,
    uploadLifetimeMs: (uploadLifetime ?? defaultUploadLifetimeSeconds) * 1000,
    results: readResultsSettings(env),
  };
}

/**
 * Whether a URL names this machine: `localhost`, 127.0.0.0/8 or [::1]. The WHATWG URL parser has
 * already normalised the host (`127.1` and `0x7f.0.0.1` both read `127.0.0.1`, `[0:0::1]` reads `[::1]`).
 */
export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname.toLowerCase();
  return host === "localhost" || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** The folder that holds the SQLite file and the development provider's keys. */
export function dataDirectory(databaseUrl: string): string {
  if (!databaseUrl.startsWith("sqlite:")) return resolve("data");
  const path = sqlitePathFromUrl(databaseUrl);
  return path === ":memory:" ? resolve("data") : dirname(resolve(path));
}

/** `LRS_ALLOWED_HOSTS` is comma-separated `host` or `host:port` (an IPv6 address in brackets). */
const lrsHosts = v.pipe(
  v.string(),
  v.transform((text: string) => text.split(",").map((host) => host.trim().toLowerCase()).filter(Boolean)),
  v.array(v.pipe(v.string(), v.regex(/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/, "must be comma-separated host or host:port names"))),
);

function readResultsSettings(env: Record<string, string | undefined>): ResultsSettings {
  const minGroup = read(env, "RESULTS_MIN_GROUP", v.pipe(positiveCount, v.minValue(5, "must be at least 5 (smaller groups could identify a learner)"), v.maxValue(1000, "must be at most 1000")));
  const retention = read(env, "RESULTS_RETENTION_DAYS", v.pipe(positiveCount, v.maxValue(3650, "must be at most 3650 (ten years)")));
  return {
    minGroup: minGroup ?? defaultResultsSettings.minGroup,
    retentionDays: retention ?? defaultResultsSettings.retentionDays,
    lrsAllowedHosts: read(env, "LRS_ALLOWED_HOSTS", lrsHosts) ?? [],
  };
}
