/**
 * Service configuration, read once from the environment and validated with valibot. The variable
 * names are part of the product (DESIGN.md section 3); an invalid value stops start-up with one line
 * that names the variable, and no value is ever echoed when it could be a secret.
 */
import { dirname, resolve } from "node:path";
import * as v from "valibot";

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
  /** Port of the embedded development identity provider (loopback only). */
  devAuthPort: number;
  nodeEnv: string;
  /** Largest MCP tool result (its text and structured content), in bytes; larger reads page or narrow. */
  mcpResultMaxBytes: number;
}

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

function read<T>(env: Record<string, string | undefined>, name: string, schema: v.GenericSchema<string, T>): T | undefined {
  const raw = env[name];
  if (raw === undefined || raw === "") return undefined;
  const result = v.safeParse(schema, raw);
  if (!result.success) throw new ConfigError(name, result.issues[0]?.message ?? "is invalid");
  return result.output;
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
    devAuthPort: read(env, "DEV_AUTH_PORT", port) ?? listenPort + 1,
    nodeEnv: env.NODE_ENV ?? "development",
    mcpResultMaxBytes: resultMaxBytes ?? defaultMcpResultMaxBytes,
  };
}

/** The folder that holds the SQLite file and the development provider's keys. */
export function dataDirectory(databaseUrl: string): string {
  if (!databaseUrl.startsWith("sqlite:")) return resolve("data");
  const path = databaseUrl.replace(/^sqlite:(\/\/)?/, "");
  return path === ":memory:" ? resolve("data") : dirname(resolve(path));
}
