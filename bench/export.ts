/**
 * export_course of a 1,000-lesson course beside a 10-lesson course, through the real /mcp endpoint:
 * median time (compared per lesson: exporting may grow at most linearly) and the server process's peak
 * resident memory over start-up and its first export (VmHWM from /proc; target: roughly flat, within
 * 1.5×). Each course is measured in a fresh server process started on the already seeded database, so
 * the peak belongs to the export and not to seeding; both processes start and warm up alike.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, median, serviceEnv, signedIn, startProcess, type RunningProcess, type Row } from "./support.ts";

const bun = process.execPath;
const format = process.env.BENCH_EXPORT_FORMAT ?? "scorm2004";

interface Measured {
  lessons: number;
  medianMs: number;
  peakBytes: number;
  packageBytes: number;
}



/** A course of `lessons` lessons in modules of 10: a heading, two paragraphs and a question each. */
function courseOutline(lessons: number): Record<string, unknown> {
  const paragraph = "Phishing messages imitate people and services you trust, and ask you to act before you think. ".repeat(4);
  return {
    title: `Export bench: ${lessons} lessons`,
    modules: Array.from({ length: Math.ceil(lessons / 10) }, (_, moduleIndex) => ({
      title: `Module ${moduleIndex + 1}`,
      lessons: Array.from({ length: Math.min(10, lessons - moduleIndex * 10) }, (_, lessonIndex) => ({
        title: `Lesson ${moduleIndex * 10 + lessonIndex + 1}`,
        blocks: [
          { type: "heading", text: "Overview", level: 2 },
          { type: "text", markdown: paragraph },
          { type: "text", markdown: `**Remember:** ${paragraph}` },
          { type: "true_false", prompt: "A message that creates urgency deserves extra care.", answer: true },
        ],
      })),
    })),
  };
}

function peakResidentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kilobytes = Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN);
  return kilobytes * 1024;
}

async function measure(lessons: number, rounds: number): Promise<Measured> {
  const dataDir = mkdtempSync(join(tmpdir(), "cas-bench-export-"));
  const [port, devAuthPort] = [await freePort(), await freePort()];
  const env = serviceEnv(dataDir, port, devAuthPort);
  let server: RunningProcess = await startProcess([bun, "src/main.ts"], env);
  let courseId: string;
  try {
    const seeding = await signedIn(port, devAuthPort, "bench-exporter");
    courseId = String((await seeding.call("create_course", courseOutline(lessons))).id);
  } finally {
    await server.stop();
  }
  // A fresh process: what it holds at its peak is start-up plus exporting, never the seeding.
  server = await startProcess([bun, "src/main.ts"], env);
  try {
    const session = await signedIn(port, devAuthPort, "bench-exporter");
    // The peak of start-up plus one export, read before later exports add uncollected garbage.
    const first = await session.call("export_course", { courseId, format });
    const peakBytes = peakResidentBytes(server.pid);
    const timings: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const started = performance.now();
      await session.call("export_course", { courseId, format });
      timings.push(performance.now() - started);
    }
    return { lessons, medianMs: median(timings), peakBytes, packageBytes: Number(first.size) };
  } finally {
    await server.stop();
  }
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export async function runExportBench(): Promise<Row[]> {
  const rounds = Number(process.env.BENCH_EXPORTS ?? 5);
  console.error(`exporting a 10-lesson and a 1,000-lesson course as ${format} …`);
  const small = await measure(10, rounds);
  const large = await measure(1000, rounds);
  const perLesson = (run: Measured) => run.medianMs / run.lessons;
  const describeRun = (run: Measured) =>
    `${run.medianMs.toFixed(1)} ms median (${perLesson(run).toFixed(2)} ms/lesson), ${megabytes(run.packageBytes)} package`;
  return [
    {
      scenario: `export_course ${format}: 1,000-lesson vs 10-lesson course, time per lesson`,
      measured: describeRun(large),
      baseline: describeRun(small),
      ratio: perLesson(large) / perLesson(small),
      target: "≤ 1 (at most linear)",
      met: perLesson(large) / perLesson(small) <= 1,
    },
    {
      scenario: `export_course ${format}: peak server memory, 1,000-lesson vs 10-lesson course`,
      measured: `${megabytes(large.peakBytes)} VmHWM`,
      baseline: `${megabytes(small.peakBytes)} VmHWM`,
      ratio: large.peakBytes / small.peakBytes,
      target: "≤ 1.5 (flat)",
      met: large.peakBytes / small.peakBytes <= 1.5,
    },
  ];
}

if (import.meta.main) {
  const { printTable } = await import("./support.ts");
  printTable(await runExportBench());
}
