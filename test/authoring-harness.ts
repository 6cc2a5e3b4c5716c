/**
 * Runs the authoring tools through the real MCP call dispatcher (`callTool` of `src/mcp/call-tool.ts`)
 * without HTTP: unknown and invalid arguments → `invalid_arguments`, the handler against a real SQLite
 * file in a temporary folder or a fresh PostgreSQL database (`openHarness("postgres")`), the result
 * cap, and every result checked against the tool's advertised JSON output schema with the same
 * validator the SDK client uses.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { AuthoringServices } from "../src/authoring/services.ts";
import { defaultAuthoringLimits, type AuthoringLimits } from "../src/authoring/limits.ts";
import { openAuthoringServices } from "../src/service.ts";
import { compileAuthoringTools } from "../src/mcp/tools/catalogue.ts";
import type { CallerIdentity } from "../src/mcp/registry.ts";
import { callTool, structuredBudget } from "../src/mcp/call-tool.ts";
import { CourseAuthoringError, type ErrorCode } from "../src/course-authoring-error.ts";
import { defaultMcpResultMaxBytes } from "../src/config.ts";
import { createLogger } from "../src/log.ts";
import { createTestDatabase, type StoreKind } from "./support/postgres.ts";

export type Json = Record<string, unknown>;

export interface Harness {
  services: AuthoringServices;
  dataDir: string;
  /** Calls a tool as `user`; returns structuredContent or throws the CourseAuthoringError. */
  call(user: CallerIdentity | string, name: string, args: Json): Promise<Json>;
  /** Like `call` but returns the error instead of throwing; fails the test if the call succeeds. */
  fail(user: CallerIdentity | string, name: string, args: Json): Promise<CourseAuthoringError>;
  close(): Promise<void>;
}

const compiled = compileAuthoringTools();
const logger = createLogger("error");
const validator = new AjvJsonSchemaValidator();
const outputValidators = new Map([...compiled].map(([name, tool]) => [name, validator.getValidator(tool.listing.outputSchema as Json)]));

export function identity(user: CallerIdentity | string): CallerIdentity {
  return typeof user === "string" ? { sub: user, email: `${user}@example.test`, scopes: ["openid"] } : user;
}

export async function openHarness(kind: StoreKind = "sqlite", options: { limits?: Partial<AuthoringLimits> } = {}): Promise<Harness> {
  const dataDir = mkdtempSync(join(tmpdir(), "authoring-test-"));
  const database = kind === "postgres" ? await createTestDatabase() : undefined;
  const services = await openAuthoringServices(database?.url ?? `sqlite://${join(dataDir, "authoring.db")}`, { limits: { ...defaultAuthoringLimits, ...options.limits } });
  const call = async (user: CallerIdentity | string, name: string, args: Json): Promise<Json> => {
    const result = await callTool(
      compiled,
      name,
      args,
      { user: identity(user), services, signal: new AbortController().signal, progress: async () => {}, resultMaxBytes: defaultMcpResultMaxBytes, structuredBudgetBytes: structuredBudget(defaultMcpResultMaxBytes) },
      { resultMaxBytes: defaultMcpResultMaxBytes, logger },
    );
    if (result.isError) throw errorOf(result.content);
    const text = result.content[0]?.type === "text" ? result.content[0].text : "";
    if (!text) throw new Error(`${name} returned no summary`);
    const structured = result.structuredContent as Json;
    const check = outputValidators.get(name)?.(structured);
    if (check && !check.valid) throw new Error(`${name} output does not match its outputSchema: ${check.errorMessage}`);
    return structured;
  };
  return {
    services,
    dataDir,
    call,
    async fail(user, name, args) {
      try {
        await call(user, name, args);
      } catch (error) {
        if (error instanceof CourseAuthoringError) return error;
        throw error;
      }
      throw new Error(`${name} was expected to fail but succeeded`);
    },
    async close() {
      await services.close();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The tool error as the dispatcher reported it: the JSON text `{ error: { code, message, ...details } }`. */
function errorOf(content: { type: string; text?: string }[]): CourseAuthoringError {
  const json = content.find((item) => item.type === "text" && item.text?.startsWith("{"))?.text ?? "{}";
  const { code, message, ...details } = (JSON.parse(json) as { error: Record<string, unknown> }).error;
  return new CourseAuthoringError(code as ErrorCode, String(message), details);
}
