/**
 * Translation export and import cost per unit, a 1,000-lesson course against a 10-lesson one, through
 * the real /mcp endpoint (target: within 1.5×), and the service's peak memory for each size. Each size
 * runs in its own service process, so the peak resident size (VmHWM) belongs to that course alone.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { obtainAccessTokenByLogin } from "../src/dev-identity-provider/scripted-login.ts";
import { median, openMcpSession, startService, type Row } from "./support.ts";

type Session = Awaited<ReturnType<typeof openMcpSession>>;

const lessonsPerModule = 50;

async function seedCourse(session: Session, lessons: number): Promise<string> {
  const course = (await session.call("create_course", { title: `Course of ${lessons} lessons`, language: "en" })) as { id: string };
  for (let added = 0; added < lessons; added += lessonsPerModule) {
    const count = Math.min(lessonsPerModule, lessons - added);
    await session.call("add_module", {
      courseId: course.id,
      title: `Module ${added / lessonsPerModule + 1}`,
      summary: "What this module covers, in a sentence.",
      lessons: Array.from({ length: count }, (_, i) => ({
        title: `Lesson ${added + i + 1}`,
        blocks: [
          { type: "heading", text: "Why it matters" },
          { type: "text", markdown: "Every **accident** starts with a *small* shortcut. Read [the guide](https://example.com/guide) first." },
          { type: "single_choice", prompt: "What comes first?", choices: [{ text: "Stop and assess", correct: true, feedback: "Right." }, { text: "Mop it up" }], explanation: "Assess before acting." },
        ],
      })),
    });
  }
  return course.id;
}

/** A CAT tool's pass: every text run of each source gets a marker, inline codes stay in place. */
function pseudoTranslate(xliff: string): string {
  return xliff.replace(/<source( xml:space="preserve")?>([\s\S]*?)<\/source>/g, (_match, space: string | undefined, inner: string) => {
    const target = inner.replace(/(^|>)([^<]+)/g, (_m, before: string, text: string) => before + text.replace(/[A-Za-z]+/g, (word) => `ŧ${word}`));
    return `<source${space ?? ""}>${inner}</source><target${space ?? ""}>${target}</target>`;
  });
}

function peakMemoryMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

interface SizeResult {
  exportPerUnitMs: number;
  importPerUnitMs: number;
  units: number;
  peakMb: number;
}

async function measure(lessons: number, rounds: number): Promise<SizeResult> {
  const service = await startService();
  try {
    const { accessToken } = await obtainAccessTokenByLogin({ issuer: service.authUrl, resource: `${service.baseUrl}/mcp`, username: "bench-translator" });
    const session = await openMcpSession(`${service.baseUrl}/mcp`, accessToken);
    console.error(`seeding a ${lessons}-lesson course …`);
    const courseId = await seedCourse(session, lessons);
    await session.call("create_translation", { courseId, language: "fr" });
    const exports: number[] = [];
    const imports: number[] = [];
    let units = 0;
    for (let round = 0; round < rounds; round++) {
      let started = performance.now();
      const exported = (await session.call("export_translation", { courseId, language: "fr", format: "xliff20" })) as { courseId: string; exportId: string; units: number };
      exports.push(performance.now() - started);
      units = exported.units;
      const folder = join(service.dataDir, "exports", exported.courseId);
      const file = readdirSync(folder).find((name) => name.startsWith(exported.exportId) && name.endsWith(".xlf")) as string;
      // Alternate two targets so every round writes every unit.
      const xliff = pseudoTranslate(readFileSync(join(folder, file), "utf8").replace(/<target\b[\s\S]*?<\/target>/g, "")).replaceAll("ŧ", round % 2 ? "ŧ" : "ŧŧ");
      started = performance.now();
      await session.call("import_translation", { courseId, language: "fr", xliff });
      imports.push(performance.now() - started);
    }
    return { exportPerUnitMs: median(exports) / units, importPerUnitMs: median(imports) / units, units, peakMb: peakMemoryMb(service.pid) };
  } finally {
    await service.stop();
  }
}

export async function runTranslationBench(): Promise<Row[]> {
  const rounds = Number(process.env.BENCH_TRANSLATION_ROUNDS ?? 5);
  const small = await measure(10, rounds * 4);
  const largeLessons = Number(process.env.BENCH_TRANSLATION_LESSONS ?? 1000);
  const large = await measure(largeLessons, rounds);
  const row = (what: string, key: "exportPerUnitMs" | "importPerUnitMs"): Row => ({
    scenario: `${what} per unit: ${largeLessons} lessons (${large.units} units) vs 10 (${small.units})`,
    measured: `${(large[key] * 1000).toFixed(1)} µs/unit`,
    baseline: `${(small[key] * 1000).toFixed(1)} µs/unit`,
    ratio: large[key] / small[key],
    target: "≤ 1.5",
    met: large[key] / small[key] <= 1.5,
  });
  return [
    row("export_translation (XLIFF 2.0)", "exportPerUnitMs"),
    row("import_translation (XLIFF 2.0)", "importPerUnitMs"),
    {
      scenario: `translation round trip: service peak memory, ${largeLessons} vs 10 lessons`,
      measured: `${large.peakMb.toFixed(0)} MB`,
      baseline: `${small.peakMb.toFixed(0)} MB`,
      ratio: large.peakMb / small.peakMb,
      target: "bounded (reported)",
      met: true,
    },
  ];
}
