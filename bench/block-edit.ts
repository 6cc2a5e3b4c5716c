/**
 * One block edit in a 10-block course and in a 10,000-block course, through the real /mcp endpoint on
 * a session (target: within 1.5×). Both courses live in the same database; edits alternate between
 * them so drift on the machine affects both alike. Reported as median latency per edit.
 */
import { obtainAccessTokenByLogin } from "../src/dev-identity-provider/scripted-login.ts";
import { median, openMcpSession, startService, type Row } from "./support.ts";

type Session = Awaited<ReturnType<typeof openMcpSession>>;

async function seedCourse(session: Session, blocks: number) {
  const course = (await session.call("create_course", {
    title: `Course with ${blocks} blocks`,
    modules: [{ title: "Module", lessons: [{ title: "Lesson" }] }],
  })) as { id: string; modules: { lessons: { id: string }[] }[] };
  const lessonId = course.modules[0]!.lessons[0]!.id;
  let first = "";
  for (let added = 0; added < blocks; added += 500) {
    const count = Math.min(500, blocks - added);
    const result = (await session.call("add_blocks", {
      courseId: course.id,
      lessonId,
      blocks: Array.from({ length: count }, (_, i) => ({ type: "text", markdown: `Paragraph ${added + i} of the course, with a few words.` })),
    })) as { blocks: { id: string }[] };
    first ||= result.blocks[0]!.id;
  }
  return { courseId: course.id, blockId: first };
}

export async function runBlockEditBench(): Promise<Row[]> {
  const service = await startService();
  try {
    const { accessToken } = await obtainAccessTokenByLogin({ issuer: service.authUrl, resource: `${service.baseUrl}/mcp`, username: "bench-editor" });
    const session = await openMcpSession(`${service.baseUrl}/mcp`, accessToken);
    console.error("seeding a 10-block and a 10,000-block course …");
    const small = await seedCourse(session, 10);
    const large = await seedCourse(session, 10_000);
    const timings = { small: [] as number[], large: [] as number[] };
    const rounds = Number(process.env.BENCH_EDITS ?? 300);
    for (let i = 0; i < rounds; i++) {
      for (const [name, target] of [["small", small], ["large", large]] as const) {
        const started = performance.now();
        await session.call("update_block", { courseId: target.courseId, blockId: target.blockId, block: { type: "text", markdown: `Edited ${i}` } });
        if (i >= 20) timings[name].push(performance.now() - started); // the first edits warm up caches
      }
    }
    const smallMs = median(timings.small);
    const largeMs = median(timings.large);
    return [
      {
        scenario: "update_block: 10,000-block vs 10-block course",
        measured: `${largeMs.toFixed(3)} ms median`,
        baseline: `${smallMs.toFixed(3)} ms median`,
        ratio: largeMs / smallMs,
        target: "≤ 1.5",
        met: largeMs / smallMs <= 1.5,
      },
    ];
  } finally {
    await service.stop();
  }
}
