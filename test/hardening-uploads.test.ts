/**
 * Unfinished uploads inside quotas and off the disk, and byte checks that never hold the store, through
 * the real service:
 * - the declared bytes of open uploads count against the course owner's asset quota at begin_upload
 *   (a 1 MiB quota cannot park more than 1 MiB), refused naming used, open and limit bytes;
 * - expired uploads are swept on a timer (UPLOAD_LIFETIME_SECONDS) and at start-up, without anyone
 *   beginning another upload, and on SQLite the pages their chunks held are given back to the file;
 * - a heavy PDF (hundreds of thousands of small objects, refused in the end for its object streams) is
 *   checked while /api/health and a second user's get_course keep answering (SQLite, where one write
 *   queue serves everyone), through upload_asset and through the files view's finish_upload.
 * The store is read directly to see rows disappear: that is the event the sweep tests wait for.
 */
import { Database } from "bun:sqlite";
import { SQL } from "bun";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { storeKinds, testDatabaseFor, type StoreKind } from "./support/postgres.ts";
import { assertResponsive, watchResponsiveness } from "./support/responsiveness.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { waitUntil } from "./support/wait.ts";

type Json = Record<string, any>;

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const chunkBytes = 256 * 1024;

/** Reads the uploads tables of a service's store, as an operator would; one course's uploads (PostgreSQL tests share a database). */
interface StoreReader {
  uploads(courseId: string): Promise<{ uploads: number; chunks: number }>;
  /** When the last of the course's uploads expires, as stored. */
  lastExpiry(courseId: string): Promise<string>;
  close(): Promise<void>;
}

/** SQLite binds the course twice (`?`); PostgreSQL's `$1` names it once. */
const countSql =
  "SELECT (SELECT COUNT(*) FROM uploads WHERE course_id = ?) AS uploads, (SELECT COUNT(*) FROM upload_chunks WHERE upload_id IN (SELECT upload_id FROM uploads WHERE course_id = ?)) AS chunks";

function storeReader(kind: StoreKind, service: TestService, env: Record<string, string>): StoreReader {
  if (kind === "postgres") {
    const sql = new SQL(env.DATABASE_URL!, { max: 1 });
    return {
      async uploads(courseId) {
        const [row] = (await sql.unsafe(countSql.replaceAll("?", "$1"), [courseId])) as Json[];
        return { uploads: Number(row!.uploads), chunks: Number(row!.chunks) };
      },
      async lastExpiry(courseId) {
        const [row] = (await sql.unsafe("SELECT MAX(expires_at) AS at FROM uploads WHERE course_id = $1", [courseId])) as Json[];
        return String(row!.at);
      },
      close: () => sql.close({ timeout: 0 }),
    };
  }
  const path = join(service.dataDir, "course-authoring.db");
  return {
    async uploads(courseId) {
      const database = new Database(path, { readonly: true });
      try {
        const row = database.query<{ uploads: number; chunks: number }, [string, string]>(countSql).get(courseId, courseId)!;
        return { uploads: row.uploads, chunks: row.chunks };
      } finally {
        database.close();
      }
    },
    async lastExpiry(courseId) {
      const database = new Database(path, { readonly: true });
      try {
        return String(database.query<{ at: string }, [string]>("SELECT MAX(expires_at) AS at FROM uploads WHERE course_id = ?").get(courseId)!.at);
      } finally {
        database.close();
      }
    },
    close: async () => {},
  };
}

/** Page counts of the SQLite file, from a connection of the test's own. */
function sqlitePages(service: TestService): { pageCount: number; freelistCount: number; pageSize: number } {
  const database = new Database(join(service.dataDir, "course-authoring.db"), { readonly: true });
  try {
    const read = (pragma: string) => Object.values(database.query<Record<string, number>, []>(`PRAGMA ${pragma}`).get()!)[0]!;
    return { pageCount: read("page_count"), freelistCount: read("freelist_count"), pageSize: read("page_size") };
  } finally {
    database.close();
  }
}

const isEmpty = (seen: { uploads: number; chunks: number }) => seen.uploads === 0 && seen.chunks === 0;

/** Begins an upload of `byteSize` bytes and sends `chunks` full chunks of it, leaving it unfinished. */
async function parkUpload(agent: Agent, courseId: string, byteSize: number, chunks: number): Promise<Json> {
  const begun = await agent.call("begin_upload", { courseId, filename: "parked.bin", byteSize });
  const filler = new Uint8Array(chunkBytes).fill(0x41);
  for (let index = 0; index < chunks; index++) await agent.call("upload_chunk", { uploadId: begun.uploadId, index, dataBase64: base64(filler) });
  return begun;
}

for (const kind of storeKinds) {
  describe(`on ${kind}`, () => {
    let database: { env: Record<string, string>; drop(): Promise<void> };
    const cleanups: (() => Promise<void>)[] = [];

    beforeAll(async () => {
      database = await testDatabaseFor(kind);
    }, 60_000);

    // Each test's services stop when it ends: on PostgreSQL they share one database, and a service left
    // running would sweep what the next test watches.
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
    }, 60_000);

    afterAll(async () => {
      await database?.drop();
    }, 60_000);

    /** A service on this kind of store, stopped and removed after the file's tests. */
    async function start(env: Record<string, string>, dataDir?: string): Promise<TestService> {
      const service = await startTestService({ ...database.env, ...env }, dataDir);
      cleanups.push(() => service.dispose());
      return service;
    }

    async function agentOf(service: TestService, sub: string): Promise<Agent> {
      const agent = await connectAgent(service, await devAccessToken(service, sub));
      cleanups.push(() => agent.close());
      return agent;
    }

    test("with a 1 MiB quota, open uploads count: a second 600 KiB upload is refused naming used, open and limit bytes", async () => {
      const service = await start({ LIMIT_USER_ASSET_BYTES: String(1024 * 1024) });
      const alice = await agentOf(service, "alice");
      const courseId = String((await alice.call("create_course", { title: "Quota" })).id);
      const first = await alice.call("begin_upload", { courseId, filename: "one.bin", byteSize: 600 * 1024 });
      const refused = await alice.fail("begin_upload", { courseId, filename: "two.bin", byteSize: 600 * 1024 });
      expect(refused.code).toBe("limit_exceeded");
      expect(refused.message).toContain("LIMIT_USER_ASSET_BYTES (1048576 bytes) would be exceeded");
      expect(refused.message).toContain("Current use is 0 bytes of stored assets and 614400 bytes declared by unfinished uploads");
      expect(refused.message).toContain("two.bin would add 614400 bytes to the limit of 1048576 bytes");
      expect(refused.details).toMatchObject({ usedBytes: 0, openUploadBytes: 614400, value: 1048576, adding: 614400 });
      // Many small parked uploads cannot get round it either.
      const parked: string[] = [];
      for (let index = 0; index < 4; index++) parked.push(String((await alice.call("begin_upload", { courseId, filename: `small-${index}.bin`, byteSize: 100 * 1024 })).uploadId));
      expect((await alice.fail("begin_upload", { courseId, filename: "small-4.bin", byteSize: 100 * 1024 })).code).toBe("limit_exceeded");
      // A cancelled upload frees its share at once.
      await alice.call("finish_upload", { uploadId: first.uploadId, cancel: true });
      await alice.call("begin_upload", { courseId, filename: "two.bin", byteSize: 600 * 1024 });
    }, 60_000);

    test("stored assets and open uploads count together against the owner's quota", async () => {
      const service = await start({ LIMIT_USER_ASSET_BYTES: String(1024 * 1024) });
      const bob = await agentOf(service, "bob");
      const courseId = String((await bob.call("create_course", { title: "Stored and open" })).id);
      const text = new TextEncoder().encode("notes\n".repeat(100_000));
      await bob.call("upload_asset", { courseId, filename: "notes.txt", dataBase64: base64(text) });
      await bob.call("begin_upload", { courseId, filename: "open.bin", byteSize: 300 * 1024 });
      const refused = await bob.fail("begin_upload", { courseId, filename: "more.bin", byteSize: 300 * 1024 });
      expect(refused.message).toContain(`Current use is ${text.length} bytes of stored assets and 307200 bytes declared by unfinished uploads`);
    }, 60_000);

    test("expired uploads are swept on the timer, with no other upload begun, and their chunks go too", async () => {
      const service = await start({ UPLOAD_LIFETIME_SECONDS: "1" });
      const reader = storeReader(kind, service, database.env);
      cleanups.push(() => reader.close());
      const carol = await agentOf(service, "carol");
      const courseId = String((await carol.call("create_course", { title: "Abandoned" })).id);
      await parkUpload(carol, courseId, 3 * chunkBytes, 2);
      await waitUntil(async () => isEmpty(await reader.uploads(courseId)), "the expired upload and its chunks to be swept by the timer", 30_000);
    }, 60_000);

    test("uploads that expired while the service was down are swept at start-up", async () => {
      const dataDir = mkdtempSync(join(tmpdir(), "cas-uploads-restart-"));
      cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
      const first = await startTestService({ ...database.env, UPLOAD_LIFETIME_SECONDS: "5" }, dataDir);
      const reader = storeReader(kind, first, database.env);
      cleanups.push(() => reader.close());
      const dave = await connectAgent(first, await devAccessToken(first, "dave"));
      const courseId = String((await dave.call("create_course", { title: "Left behind" })).id);
      await parkUpload(dave, courseId, 2 * chunkBytes, 1);
      await dave.close();
      await first.stop();
      const expiresAt = Date.parse(await reader.lastExpiry(courseId));
      await waitUntil(async () => Date.now() > expiresAt, "the parked upload's expiry to pass while the service is down", 30_000);
      expect(await reader.uploads(courseId)).toEqual({ uploads: 1, chunks: 1 });
      // The default lifetime: the timer's first sweep is a minute away, so only the start-up sweep can delete it.
      await start({}, dataDir);
      await waitUntil(async () => isEmpty(await reader.uploads(courseId)), "the start-up sweep to delete the expired upload", 30_000);
    }, 90_000);

    if (kind === "sqlite") {
      test("a database made before incremental auto-vacuum is switched to it at its next start", async () => {
        const dataDir = mkdtempSync(join(tmpdir(), "cas-uploads-vacuum-"));
        cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
        const old = new Database(join(dataDir, "course-authoring.db"), { create: true });
        old.run("CREATE TABLE leftover (id INTEGER PRIMARY KEY)");
        expect(old.query<{ auto_vacuum: number }, []>("PRAGMA auto_vacuum").get()?.auto_vacuum).toBe(0);
        old.close();
        await start({}, dataDir);
        const reopened = new Database(join(dataDir, "course-authoring.db"), { readonly: true });
        try {
          expect(reopened.query<{ auto_vacuum: number }, []>("PRAGMA auto_vacuum").get()?.auto_vacuum).toBe(2);
        } finally {
          reopened.close();
        }
      }, 60_000);

      test("the pages swept chunks held are given back: page count falls, no free pages left", async () => {
        const service = await start({ UPLOAD_LIFETIME_SECONDS: "2" });
        const reader = storeReader(kind, service, database.env);
        const erin = await agentOf(service, "erin");
        const courseId = String((await erin.call("create_course", { title: "Big and abandoned" })).id);
        await parkUpload(erin, courseId, 16 * chunkBytes, 12);
        const parked = sqlitePages(service);
        const chunkPages = Math.floor((12 * chunkBytes * 4) / 3 / parked.pageSize);
        expect(parked.pageCount).toBeGreaterThan(chunkPages);
        await waitUntil(async () => (await reader.uploads(courseId)).chunks === 0, "the expired chunks to be swept", 30_000);
        const swept = sqlitePages(service);
        expect(swept.freelistCount).toBe(0);
        expect(parked.pageCount - swept.pageCount).toBeGreaterThan(chunkPages * 0.9);
      }, 60_000);
    }
  });
}

/** A PDF of `objects` small objects of which the last `streams` are tiny object streams: refused for having too many. */
function heavyPdf(objects: number, streams: number): Uint8Array {
  const parts: string[] = ["%PDF-1.7\n"];
  for (let number = 1; number <= objects - streams; number++) parts.push(`${number} 0 obj null\n`);
  for (let number = objects - streams + 1; number <= objects; number++) parts.push(`${number} 0 obj<</Type/ObjStm/N 0/First 0>>stream\nx\nendstream\n`);
  parts.push("trailer\n<< /Root 1 0 R >>\n%%EOF\n");
  return new TextEncoder().encode(parts.join(""));
}

describe("a heavy PDF is checked while everyone else is answered (SQLite)", () => {
  let service: TestService;
  let alice: Agent;
  let bob: Agent;
  let aliceCourse: string;
  let bobCourse: string;

  beforeAll(async () => {
    service = await startTestService();
    alice = await connectAgent(service, await devAccessToken(service, "alice"));
    bob = await connectAgent(service, await devAccessToken(service, "bob"));
    aliceCourse = String((await alice.call("create_course", { title: "Handouts" })).id);
    bobCourse = String((await bob.call("create_course", { title: "Bob's own" })).id);
    // Once with a small file of the same shape, so the first measured upload does not also pay for compiling the scanner.
    await alice.callRaw("upload_asset", { courseId: aliceCourse, filename: "warm.pdf", dataBase64: base64(heavyPdf(20_000, 10_001)) });
    await bob.call("get_course", { courseId: bobCourse });
  }, 60_000);

  afterAll(async () => {
    await alice?.close();
    await bob?.close();
    await service?.dispose();
  });

  const secondUser = () => bob.call("get_course", { courseId: bobCourse });

  async function expectRefusedForObjectStreams(work: Promise<Json>): Promise<void> {
    const seen = await watchResponsiveness(service, work, { secondUser });
    assertResponsive(seen, 2000);
    if (!seen.outcome.ok) throw seen.outcome.error;
    expect(JSON.stringify(seen.outcome.value)).toContain("more than 10000 object streams");
  }

  test("upload_asset of 400,000 small objects (7.5 MB): health and bob's get_course answer with no gap over 2 s", async () => {
    const pdf = heavyPdf(400_000, 10_001);
    expect(pdf.length).toBeGreaterThan(6_000_000);
    await expectRefusedForObjectStreams(alice.callRaw("upload_asset", { courseId: aliceCourse, filename: "heavy.pdf", dataBase64: base64(pdf) }) as Promise<Json>);
  }, 180_000);

  test("upload_asset at the 10 MiB limit (560,000 small objects, 10.4 MB): health and bob's get_course answer with no gap over 2 s", async () => {
    const pdf = heavyPdf(560_000, 10_001);
    expect(pdf.length).toBeGreaterThan(10_000_000);
    expect(pdf.length).toBeLessThanOrEqual(10 * 1024 * 1024);
    await expectRefusedForObjectStreams(alice.callRaw("upload_asset", { courseId: aliceCourse, filename: "heavier.pdf", dataBase64: base64(pdf) }) as Promise<Json>);
  }, 240_000);

  test("finish_upload of the same 10.4 MB PDF sent in chunks: health and bob's get_course answer with no gap over 2 s", async () => {
    const pdf = heavyPdf(560_000, 10_001);
    const begun = await alice.call("begin_upload", { courseId: aliceCourse, filename: "chunked.pdf", byteSize: pdf.length });
    for (let index = 0; index * chunkBytes < pdf.length; index++) {
      await alice.call("upload_chunk", { uploadId: begun.uploadId, index, dataBase64: base64(pdf.subarray(index * chunkBytes, (index + 1) * chunkBytes)) });
    }
    await expectRefusedForObjectStreams(alice.callRaw("finish_upload", { uploadId: begun.uploadId }) as Promise<Json>);
    // Refused for what it is: deleted with its chunks.
    expect((await alice.fail("finish_upload", { uploadId: begun.uploadId })).code).toBe("not_found");
  }, 240_000);
});
