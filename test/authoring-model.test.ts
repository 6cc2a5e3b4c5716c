/**
 * Model-based check: random sequences of structure edits (some invalid, some batched, some restoring
 * an old revision) run against the real tools and against a plain in-memory model; after every step
 * the course read back must equal the model, failed steps must change nothing, and the version must
 * step exactly once per successful write.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { openHarness, type Harness, type Json } from "./authoring-harness.ts";
import { storeKinds } from "./support/postgres.ts";

interface ModelLesson { id: string; title: string; blocks: { id: string; text: string }[] }
interface ModelModule { id: string; title: string; lessons: ModelLesson[] }
type Model = ModelModule[];

// Every rule holds on both stores.
describe.each(storeKinds)("on %s", (store) => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await openHarness(store);
  });
  afterEach(() => harness.close());

  /** A small deterministic generator so a failure reproduces from its seed. */
  function random(seed: number) {
    let state = seed >>> 0;
    const next = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
    return { int: (n: number) => Math.floor(next() * n), chance: (p: number) => next() < p };
  }

  function project(course: Json): Model {
    return (course.modules as Json[]).map((m) => ({
      id: m.id as string,
      title: m.title as string,
      lessons: (m.lessons as Json[]).map((l) => ({
        id: l.id as string,
        title: l.title as string,
        blocks: (l.blocks as Json[]).map((b) => ({ id: b.id as string, text: b.markdown as string })),
      })),
    }));
  }

  const clone = (model: Model): Model => structuredClone(model);
  const insertAt = <T>(list: T[], index: number, ...items: T[]) => list.splice(index, 0, ...items);

  type Step = { tool: string; args: Json; expectFailure: boolean; apply: (model: Model, result: Json) => void };

  function planStep(model: Model, rng: ReturnType<typeof random>, label: string): Step {
    const lessons = model.flatMap((m) => m.lessons);
    const blocks = lessons.flatMap((l) => l.blocks);
    const pick = <T>(list: T[]) => list[rng.int(list.length)] as T;
    const choice = rng.int(10);
    if (choice === 0 || model.length === 0) {
      const position = rng.int(model.length + 1);
      return { tool: "add_module", args: { title: `M-${label}`, position }, expectFailure: false, apply: (m, r) => insertAt(m, position, { id: (r.module as Json).id as string, title: `M-${label}`, lessons: [] }) };
    }
    if (choice === 1 || lessons.length === 0) {
      const module = pick(model);
      const position = rng.int(module.lessons.length + 1);
      return {
        tool: "add_lesson",
        args: { moduleId: module.id, title: `L-${label}`, position },
        expectFailure: false,
        apply: (m, r) => insertAt(m.find((x) => x.id === module.id)!.lessons, position, { id: (r.lesson as Json).id as string, title: `L-${label}`, blocks: [] }),
      };
    }
    if (choice <= 3 || blocks.length === 0) {
      const lesson = pick(lessons);
      const position = rng.int(lesson.blocks.length + 1);
      const texts = Array.from({ length: 1 + rng.int(3) }, (_, i) => `b-${label}-${i}`);
      return {
        tool: "add_blocks",
        args: { lessonId: lesson.id, position, blocks: texts.map((markdown) => ({ type: "text", markdown })) },
        expectFailure: false,
        // add_blocks answers with the new IDs in order, not an echo of the content sent.
        apply: (m, r) => insertAt(findLesson(m, lesson.id).blocks, position, ...(r.blocks as Json[]).map((b, index) => ({ id: b.id as string, text: texts[index] as string }))),
      };
    }
    if (choice === 4) {
      const block = pick(blocks);
      const target = pick(lessons);
      const stays = target.blocks.some((b) => b.id === block.id);
      const position = rng.int(target.blocks.length + (stays ? 0 : 1));
      return {
        tool: "move_block",
        args: { blockId: block.id, toLessonId: target.id, position },
        expectFailure: false,
        apply: (m) => {
          const from = m.flatMap((x) => x.lessons).find((l) => l.blocks.some((b) => b.id === block.id))!;
          const [moved] = from.blocks.splice(from.blocks.findIndex((b) => b.id === block.id), 1);
          insertAt(findLesson(m, target.id).blocks, position, moved!);
        },
      };
    }
    if (choice === 5) {
      const lesson = pick(lessons);
      const target = pick(model);
      const stays = target.lessons.some((l) => l.id === lesson.id);
      const position = rng.int(target.lessons.length + (stays ? 0 : 1));
      return {
        tool: "move_lesson",
        args: { lessonId: lesson.id, toModuleId: target.id, position },
        expectFailure: false,
        apply: (m) => {
          const from = m.find((x) => x.lessons.some((l) => l.id === lesson.id))!;
          const [moved] = from.lessons.splice(from.lessons.findIndex((l) => l.id === lesson.id), 1);
          insertAt(m.find((x) => x.id === target.id)!.lessons, position, moved!);
        },
      };
    }
    if (choice === 6) {
      const block = pick(blocks);
      return {
        tool: "update_block",
        args: { blockId: block.id, block: { type: "text", markdown: `u-${label}` } },
        expectFailure: false,
        apply: (m) => {
          for (const l of m.flatMap((x) => x.lessons)) for (const b of l.blocks) if (b.id === block.id) b.text = `u-${label}`;
        },
      };
    }
    if (choice === 7) {
      if (rng.chance(0.5)) {
        const block = pick(blocks);
        return { tool: "remove_block", args: { blockId: block.id }, expectFailure: false, apply: (m) => m.forEach((x) => x.lessons.forEach((l) => (l.blocks = l.blocks.filter((b) => b.id !== block.id)))) };
      }
      const lesson = pick(lessons);
      return { tool: "remove_lesson", args: { lessonId: lesson.id }, expectFailure: false, apply: (m) => m.forEach((x) => (x.lessons = x.lessons.filter((l) => l.id !== lesson.id))) };
    }
    if (choice === 8) {
      const module = pick(model);
      const position = rng.int(model.length);
      return { tool: "move_module", args: { moduleId: module.id, position }, expectFailure: false, apply: (m) => insertAt(m, position, ...m.splice(m.findIndex((x) => x.id === module.id), 1)) };
    }
    const invalid: Step[] = [
      { tool: "move_module", args: { moduleId: pick(model).id, position: model.length + 1 }, expectFailure: true, apply: () => {} },
      { tool: "remove_block", args: { blockId: "blk_nosuchblock" }, expectFailure: true, apply: () => {} },
      { tool: "add_blocks", args: { lessonId: pick(lessons).id, position: 999, blocks: [{ type: "divider" }] }, expectFailure: true, apply: () => {} },
      { tool: "update_module", args: { moduleId: pick(model).id, title: " " }, expectFailure: true, apply: () => {} },
    ];
    return pick(invalid);
  }

  function findLesson(model: Model, id: string): ModelLesson {
    return model.flatMap((m) => m.lessons).find((l) => l.id === id)!;
  }

  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    test(`random edits, batches and restores agree with the model (seed ${seed})`, async () => {
      const rng = random(seed);
      const created = await harness.call("alice", "create_course", { title: "Model" });
      const courseId = created.id as string;
      let model: Model = [];
      let version = 1;
      const history = new Map<number, Model>([[1, []]]);
      const read = async () => project(await harness.call("alice", "get_course", { courseId }));

      for (let step = 0; step < 80; step++) {
        const roll = rng.int(10);
        if (roll === 0 && version > 2) {
          const target = 1 + rng.int(version - 1);
          const revisions = (await harness.call("alice", "list_revisions", { courseId, limit: 100 })).revisions as { id: string; version: number }[];
          const revisionId = revisions.find((r) => r.version === target)!.id;
          const result = await harness.call("alice", "restore_revision", { courseId, revisionId, expectedVersion: version });
          model = clone(history.get(target)!);
          if (result.version !== version) version = result.version as number;
        } else if (roll === 1) {
          // A batch of edits planned one after another on a scratch copy (adds are left out: their IDs are not known in advance).
          const scratch = clone(model);
          const operations: Json[] = [];
          for (let i = 0; i < 4; i++) {
            const planned = planStep(scratch, rng, `${step}.${i}`);
            if (planned.expectFailure || planned.tool.startsWith("add_")) continue;
            planned.apply(scratch, {});
            operations.push({ op: planned.tool, ...planned.args });
          }
          if (rng.chance(0.5)) {
            operations.push({ op: "remove_block", blockId: "blk_nosuchblock" });
            const error = await harness.fail("alice", "edit_course", { courseId, expectedVersion: version, operations });
            expect(error.message).toStartWith(`operations[${operations.length - 1}] (remove_block)`);
          } else if (operations.length > 0) {
            const result = await harness.call("alice", "edit_course", { courseId, expectedVersion: version, operations });
            model = scratch;
            version = result.version as number;
          }
        } else {
          const planned = planStep(model, rng, String(step));
          const args = { courseId, expectedVersion: version, ...planned.args };
          if (planned.expectFailure) {
            const error = await harness.fail("alice", planned.tool, args);
            expect(["invalid_arguments", "not_found"]).toContain(error.code);
          } else {
            const result = await harness.call("alice", planned.tool, args);
            planned.apply(model, result);
            expect(result.version).toBeGreaterThanOrEqual(version);
            version = result.version as number;
          }
        }
        history.set(version, clone(model));
        expect(await read()).toEqual(model);
      }
    });
  }
});
