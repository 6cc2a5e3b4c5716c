/**
 * Runs the authoring tools the way the MCP layer does, without HTTP: arguments are validated with the
 * tool's valibot schema (invalid → `invalid_arguments`), the handler runs against a real SQLite file in
 * a temporary folder or a fresh PostgreSQL database (`openHarness("postgres")`), and every result is checked against the tool's advertised JSON output schema
 * with the same validator the SDK client uses.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { AuthoringServices } from "../src/authoring/services.ts";
import { openAuthoringServices } from "../src/service.ts";
import { authoringTools } from "../src/mcp/tools/index.ts";
import { compileTools, type CallerIdentity } from "../src/mcp/registry.ts";
import { describeIssues, CourseAuthoringError } from "../src/course-authoring-error.ts";
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

const compiled = compileTools(authoringTools);
const validator = new AjvJsonSchemaValidator();
const outputValidators = new Map([...compiled].map(([name, tool]) => [name, validator.getValidator(tool.listing.outputSchema as Json)]));

export function identity(user: CallerIdentity | string): CallerIdentity {
  return typeof user === "string" ? { sub: user, email: `${user}@example.test`, scopes: ["openid"] } : user;
}

export async function openHarness(kind: StoreKind = "sqlite"): Promise<Harness> {
  const dataDir = mkdtempSync(join(tmpdir(), "authoring-test-"));
  const database = kind === "postgres" ? await createTestDatabase() : undefined;
  const services = await openAuthoringServices(database?.url ?? `sqlite://${join(dataDir, "authoring.db")}`);
  const call = async (user: CallerIdentity | string, name: string, args: Json): Promise<Json> => {
    const tool = compiled.get(name);
    if (!tool) throw new Error(`no tool ${name}`);
    const parsed = v.safeParse(tool.definition.input, args);
    if (!parsed.success) {
      const described = describeIssues(parsed.issues);
      throw new CourseAuthoringError("invalid_arguments", described.message, { fields: described.fields });
    }
    const result = await tool.definition.handler(parsed.output, {
      user: identity(user),
      services,
      signal: new AbortController().signal,
      progress: async () => {},
    });
    const check = outputValidators.get(name)?.(result.structuredContent);
    if (check && !check.valid) throw new Error(`${name} output does not match its outputSchema: ${check.errorMessage}`);
    if (typeof result.summary !== "string" || result.summary.length === 0) throw new Error(`${name} returned no summary`);
    return result.structuredContent;
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
