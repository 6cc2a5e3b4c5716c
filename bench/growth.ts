/**
 * `bun run bench growth`: what work costs as it grows, each figure as a ratio to the smallest.
 *   - Reading a whole course of 10, 100 and 1,000 lessons (two blocks each) with get_course, following
 *     nextCursor page by page as an agent does: median time per whole read, and the server's peak RSS
 *     (VmHWM; one fresh server per size, so each peak is that size's own).
 *   - 1, 10 and 100 concurrent sessions, each calling get_course on its own small course in a loop:
 *     req/s, p99 and peak RSS (one fresh server per count).
 *   - get_course p99 per call on a 10,000-block course read in parts vs a 10-block course.
 *   - RSS per idle session: 200 sessions opened and left idle, (RSS after − before) / 200.
 */
import { readFileSync } from "node:fs";
import { obtainAccessTokenByLogin } from "../src/dev-identity-provider/scripted-login.ts";
import { median, openMcpSession, startService } from "./support.ts";

type Session = Awaited<ReturnType<typeof openMcpSession>>;
type Service = Awaited<ReturnType<typeof startService>>;

function memoryKiB(pid: number, field: "VmHWM" | "VmRSS"): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) : 0;
}

const mib = (kib: number) => `${(kib / 1024).toFixed(1)} MiB`;

async function sessionOn(service: Service, username = "bench-growth"): Promise<Session> {
  const { accessToken } = await obtainAccessTokenByLogin({ issuer: service.authUrl, resource: `${service.baseUrl}/mcp`, username });
  return openMcpSession(`${service.baseUrl}/mcp`, accessToken);
}

function courseOf(lessons: number) {
  const modules = Math.max(1, Math.ceil(lessons / 100));
  return {
    title: `Course with ${lessons} lessons`,
    modules: Array.from({ length: modules }, (_, m) => ({
      title: `Module ${m + 1}`,
      lessons: Array.from({ length: Math.min(100, lessons - m * 100) }, (_, l) => ({
        title: `Lesson ${m * 100 + l + 1}`,
        blocks: [
          { type: "heading", text: `Lesson ${m * 100 + l + 1}` },
          { type: "text", markdown: "A paragraph of **content**, with a [link](https://example.com) and a few more words." },
        ],
      })),
    })),
  };
}

/** Every page of one read: returns the time of each call. */
async function readWhole(session: Session, courseId: string): Promise<number[]> {
  const times: number[] = [];
  let cursor: string | undefined;
  do {
    const started = performance.now();
    const page = await session.call("get_course", cursor ? { courseId, cursor } : { courseId });
    times.push(performance.now() - started);
    cursor = typeof page.nextCursor === "string" ? page.nextCursor : undefined;
  } while (cursor);
  return times;
}

function p99(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0;
}

interface Figure {
  label: string;
  value: number;
  memoryKiB: number;
  detail: string;
}

async function lessonsFigure(lessons: number): Promise<Figure> {
  const service = await startService({ LOG_LEVEL: "warn" });
  try {
    const session = await sessionOn(service);
    const course = await session.call("create_course", courseOf(lessons));
    const reads: number[] = [];
    let pages = 0;
    for (let i = 0; i < 25; i++) {
      const times = await readWhole(session, course.id as string);
      pages = times.length;
      if (i >= 5) reads.push(times.reduce((sum, t) => sum + t, 0));
    }
    const ms = median(reads);
    return { label: `${lessons} lessons`, value: ms, memoryKiB: memoryKiB(service.pid, "VmHWM"), detail: `${ms.toFixed(2)} ms per whole read (${pages} page(s))` };
  } finally {
    await service.stop();
  }
}

async function sessionsFigure(count: number): Promise<Figure> {
  const service = await startService({ LOG_LEVEL: "warn" });
  try {
    const sessions = await Promise.all(Array.from({ length: count }, (_, i) => sessionOn(service, `agent-${i}`)));
    const courses = await Promise.all(sessions.map((session) => session.call("create_course", courseOf(1))));
    const latencies: number[] = [];
    const until = performance.now() + Number(process.env.BENCH_DURATION_MS ?? 4000);
    // Each session is one agent: one call at a time, back to back.
    await Promise.all(
      sessions.map(async (session, i) => {
        while (performance.now() < until) {
          const started = performance.now();
          await session.call("get_course", { courseId: courses[i]!.id as string });
          latencies.push(performance.now() - started);
        }
      }),
    );
    const seconds = Number(process.env.BENCH_DURATION_MS ?? 4000) / 1000;
    const rps = latencies.length / seconds;
    return { label: `${count} session(s)`, value: p99(latencies), memoryKiB: memoryKiB(service.pid, "VmHWM"), detail: `${Math.round(rps)} req/s, p99 ${p99(latencies).toFixed(2)} ms` };
  } finally {
    await service.stop();
  }
}

async function pagedLargeRead(): Promise<{ large: number[]; small: number[] }> {
  const service = await startService({ LOG_LEVEL: "warn" });
  try {
    const session = await sessionOn(service);
    const small = await session.call("create_course", { title: "Ten blocks", modules: [{ title: "M", lessons: [{ title: "L", blocks: courseOf(5).modules[0]!.lessons.flatMap((l) => l.blocks) }] }] });
    const large = await session.call("create_course", { title: "Ten thousand blocks", modules: [{ title: "M", lessons: [{ title: "L" }] }] });
    const lessonId = (large.modules as { lessons: { id: string }[] }[])[0]!.lessons[0]!.id;
    for (let added = 0; added < 10_000; added += 500) {
      await session.call("add_blocks", {
        courseId: large.id as string,
        lessonId,
        blocks: Array.from({ length: 500 }, (_, i) => ({ type: "text", markdown: `Paragraph ${added + i} of the course, with a few words.` })),
      });
    }
    const times = { large: [] as number[], small: [] as number[] };
    for (let i = 0; i < 20; i++) {
      times.large.push(...(await readWhole(session, large.id as string)));
      for (let j = 0; j < 10; j++) times.small.push(...(await readWhole(session, small.id as string)));
    }
    return times;
  } finally {
    await service.stop();
  }
}

async function idleSessionCost(count = 200): Promise<number> {
  const service = await startService({ LOG_LEVEL: "warn", MCP_MAX_SESSIONS_PER_USER: String(count), MCP_MAX_SESSIONS: String(count * 2) });
  try {
    await sessionOn(service);
    Bun.gc(true);
    const before = memoryKiB(service.pid, "VmRSS");
    for (let i = 0; i < count; i++) await sessionOn(service, `idle-${i % 10}`);
    return (memoryKiB(service.pid, "VmRSS") - before) / count;
  } finally {
    await service.stop();
  }
}

function table(title: string, figures: Figure[], valueName: string): void {
  const [first] = figures;
  if (!first) return;
  console.log(`\n${title}\n`);
  console.log(`| work | measured | ${valueName} ratio | peak RSS | RSS ratio |`);
  console.log("|---|---|---|---|---|");
  for (const f of figures) {
    console.log(`| ${f.label} | ${f.detail} | ${(f.value / first.value).toFixed(2)} | ${mib(f.memoryKiB)} | ${(f.memoryKiB / first.memoryKiB).toFixed(2)} |`);
  }
}

export async function runGrowthBench(): Promise<void> {
  const lessons: Figure[] = [];
  for (const n of [10, 100, 1000]) lessons.push(await lessonsFigure(n));
  table("Reading a whole course by size (ratios to 10 lessons)", lessons, "time");
  const sessions: Figure[] = [];
  for (const n of [1, 10, 100]) sessions.push(await sessionsFigure(n));
  table("Concurrent sessions calling get_course (ratios to 1 session)", sessions, "p99");
  const paged = await pagedLargeRead();
  const ratio = p99(paged.large) / p99(paged.small);
  console.log(`\nget_course p99 per call: 10,000-block course read in parts ${p99(paged.large).toFixed(2)} ms (${paged.large.length} calls) vs 10-block course ${p99(paged.small).toFixed(2)} ms: ${ratio.toFixed(2)}× (target ≤ 2)`);
  const perSession = await idleSessionCost();
  console.log(`RSS per idle session: ${perSession.toFixed(1)} KiB (200 sessions)`);
}
