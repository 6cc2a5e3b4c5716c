/**
 * The process entry point (`bun run start`): reads the configuration, starts the service, prints
 * where everything is, and shuts down gracefully on SIGTERM or SIGINT. A configuration error stops
 * start-up with one line naming the variable.
 */
import { ConfigError, loadConfig } from "./config.ts";
import { createLogger, flushStdout } from "./log.ts";
import { startService } from "./service.ts";
import { startupBanner } from "./banner.ts";

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  let service;
  try {
    service = await startService(config, logger);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(error instanceof ConfigError ? `Configuration error: ${message}` : `Start-up failed: ${message}`);
    process.exit(1);
  }
  console.error(startupBanner(service));
  logger.info("listening", { url: service.url, authUrl: service.authUrl, host: config.host, port: config.port });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info("shutting down", { signal });
    await service.stop();
    logger.flush();
    logger.info("stopped", { signal });
    await flushStdout();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

/** `--health-check`: used by the container's HEALTHCHECK, which has no curl. */
async function healthCheck() {
  const port = process.env.PORT ?? "3000";
  try {
    const response = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(2000) });
    process.exit(response.ok ? 0 : 1);
  } catch {
    process.exit(1);
  }
}

if (process.argv.includes("--health-check")) await healthCheck();
else await main();
