/**
 * Bounded work per request, through the real /mcp endpoint: `/api/health` p99 while a 5 MB course is
 * exported as SCORM 2004 again and again, beside its idle p99 in the same server (target: the export
 * never stalls health; reported as a ratio); and the server's peak resident memory over start-up and
 * one export of a 10 MB course beside a 1 MB course (target ≤ 1.5×: memory flat in content size).
 * Each memory run is a fresh process on an already seeded database, as in `export.ts`.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, load, serviceEnv, signedIn, startProcess, type LoadResult, type McpSession, type Row } from "./support.ts";

const bun = process.execPath;
const megabyte = 1024 * 1024;
/** Prose with the inline markup authors use: emphasis, code and links every few words. */
const paragraph = "Phishing messages **imitate** people and _services_ you trust, ask you to act before you think, and link to [look-alike sites](https://example.com/login). ";
const blockMarkdown = `${paragraph.repeat(Math.floor(48_000 / paragraph.length))}`;



/** A course of about `bytes` of block content: lessons of ten ~48 KB text blocks, added lesson by lesson. */
async function seedCourse(session: McpSession, bytes: number): Promise<string> {
  const blocks = Math.max(1, Math.round(bytes / blockMarkdown.length));
  const lessons = Math.ceil(blocks / 10);
  const course = await session.call("create_course", {
    title: `Bounded bench: ${(bytes / megabyte).toFixed(0)} MB`,
    modules: [{ title: "Module", lessons: Array.from({ length: lessons }, (_, index) => ({ title: `Lesson ${index + 1}` })) }],
  });
  const lessonIds = (course.modules as { lessons: { id: string }[] }[])[0]!.lessons.map((lesson) => lesson.id);
  for (const [index, lessonId] of lessonIds.entries()) {
    const count = Math.min(10, blocks - index * 10);
    await session.call("add_blocks", { courseId: course.id, lessonId, blocks: Array.from({ length: count }, (_, n) => ({ type: "text", markdown: `${n} ${blockMarkdown}` })) });
  }
  return String(course.id);
}

function peakResidentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN) * 1024;
}

async function exportPeak(bytes: number): Promise<{ peakBytes: number; packageBytes: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), "cas-bench-bounded-"));
  const [port, devAuthPort] = [await freePort(), await freePort()];
  const env = serviceEnv(dataDir, port, devAuthPort);
  let server = await startProcess([bun, "src/main.ts"], env);
  let courseId: string;
  try {
    courseId = await seedCourse(await signedIn(port, devAuthPort, "bench-bounded"), bytes);
  } finally {
    await server.stop();
  }
  server = await startProcess([bun, "src/main.ts"], env);
  try {
    const exported = await (await signedIn(port, devAuthPort, "bench-bounded")).call("export_course", { courseId, format: "scorm2004" });
    return { peakBytes: peakResidentBytes(server.pid), packageBytes: Number(exported.size) };
  } finally {
    await server.stop();
  }
}

async function healthBesideExport(): Promise<{ idle: LoadResult; busy: LoadResult; exports: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), "cas-bench-bounded-"));
  const [port, devAuthPort] = [await freePort(), await freePort()];
  const server = await startProcess([bun, "src/main.ts"], serviceEnv(dataDir, port, devAuthPort));
  try {
    const session = await signedIn(port, devAuthPort, "bench-bounded");
    const courseId = await seedCourse(session, 5 * megabyte);
    const health = () => load({ url: `http://127.0.0.1:${port}/api/health`, concurrency: 4 });
    const idle = await health();
    let running = true;
    let exports = 0;
    const exporting = (async () => {
      while (running) {
        await session.call("export_course", { courseId, format: "scorm2004" });
        exports++;
      }
    })();
    const busy = await health();
    running = false;
    await exporting;
    return { idle, busy, exports };
  } finally {
    await server.stop();
  }
}

const mb = (bytes: number) => `${(bytes / megabyte).toFixed(1)} MB`;

export async function runBoundedWorkBench(): Promise<Row[]> {
  console.error("health p99 idle, then beside back-to-back exports of a 5 MB course …");
  const { idle, busy, exports } = await healthBesideExport();
  console.error("export peak memory: 1 MB and 10 MB courses …");
  const small = await exportPeak(1 * megabyte);
  const large = await exportPeak(10 * megabyte);
  const p99Ratio = busy.p99 / idle.p99;
  return [
    {
      scenario: "GET /api/health p99 during scorm2004 exports of a 5 MB course vs idle",
      measured: `p99 ${busy.p99.toFixed(1)} ms, ${Math.round(busy.rps)} req/s (${exports} exports ran)`,
      baseline: `p99 ${idle.p99.toFixed(1)} ms, ${Math.round(idle.rps)} req/s`,
      ratio: p99Ratio,
      target: "no stall (p99 < 100 ms)",
      met: busy.p99 < 100,
    },
    {
      scenario: "export_course scorm2004: peak server memory, 10 MB vs 1 MB of content",
      measured: `${mb(large.peakBytes)} VmHWM (${mb(large.packageBytes)} package)`,
      baseline: `${mb(small.peakBytes)} VmHWM (${mb(small.packageBytes)} package)`,
      ratio: large.peakBytes / small.peakBytes,
      target: "≤ 1.5 (flat)",
      met: large.peakBytes / small.peakBytes <= 1.5,
    },
  ];
}

if (import.meta.main) {
  const { printTable } = await import("./support.ts");
  printTable(await runBoundedWorkBench());
}
