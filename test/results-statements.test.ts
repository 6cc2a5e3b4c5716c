/**
 * Learners' results end to end (issue 43) over HTTP with the MCP SDK client and real tokens, on both
 * stores: statements of 30 scripted learners go in with import_results (voids honoured, duplicates counted
 * once, other courses' and rule-breaking statements skipped and reported), get_course_results gives item
 * statistics, lesson drop-off and course figures, and diagnoses whose proposed steps edit_course accepts;
 * no learner can be found in any answer; a small group is withheld; delete_results empties the store.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestService, type TestService } from "./support/service.ts";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { storeKinds, testDatabaseFor } from "./support/postgres.ts";
import { assertResponsive, watchResponsiveness } from "./support/responsiveness.ts";
import { learnerActor, quizCourse, scriptedStatements, verb } from "./support/results-statements.ts";

type Json = Record<string, unknown>;
type Course = Json & { id: string; version: number; modules: (Json & { id: string; lessons: (Json & { id: string; blocks: (Json & { id: string })[] })[] })[] };

describe.each(storeKinds)("on %s", (store) => {
  let service: TestService;
  let database: Awaited<ReturnType<typeof testDatabaseFor>>;
  let alice: Agent;
  let mallory: Agent;
  let course: Course;
  let statements: Json[];

  beforeAll(async () => {
    database = await testDatabaseFor(store);
    service = await startTestService(database.env);
    alice = await connectAgent(service, await devAccessToken(service, "alice"));
    mallory = await connectAgent(service, await devAccessToken(service, "mallory"));
    course = (await alice.call("create_course", quizCourse)) as Course;
    statements = scriptedStatements(course);
  });
  afterAll(async () => {
    await alice?.close();
    await mallory?.close();
    await service?.dispose();
    await database?.drop();
  });

  test("statements go in once: voids honoured, duplicates counted once, other courses and broken statements skipped and reported", async () => {
    const q3 = course.modules[0]!.lessons[2]!.blocks[2]!.id;
    const victim = statements.find((statement) => (statement.object as Json).id === `urn:course-authoring-service:course:${course.id}/questions/${q3}`) as Json;
    const extra: Json[] = [
      { ...statements[0], id: crypto.randomUUID(), object: { objectType: "Activity", id: "urn:course-authoring-service:course:crs_other/lessons/les_x" } },
      { id: crypto.randomUUID(), verb: verb("experienced"), object: { id: `urn:course-authoring-service:course:${course.id}` } },
      { id: crypto.randomUUID(), actor: learnerActor(1), verb: { id: "not an iri" }, object: { id: `urn:course-authoring-service:course:${course.id}` } },
      { id: crypto.randomUUID(), actor: learnerActor(1), verb: verb("answered"), object: { id: `urn:course-authoring-service:course:${course.id}/questions/${q3}` }, result: { duration: "5 minutes" } },
      { id: crypto.randomUUID(), actor: learnerActor(2), verb: verb("voided"), object: { objectType: "StatementRef", id: victim.id } },
    ];
    // Statement API pages, as an LRS exports them; the first page repeated counts once.
    const file = JSON.stringify([{ statements: statements.slice(0, 100), more: "" }, { statements: [...statements.slice(0, 10), ...statements.slice(100), ...extra], more: "" }]);
    const first = await alice.call("import_results", { courseId: course.id, content: file });
    expect(first).toMatchObject({ read: statements.length + 10 + extra.length, added: statements.length, voided: 1, stored: statements.length - 1 });
    const reasons = (first.skipped as { reason: string; count: number }[]).map((entry) => entry.reason).join(" | ");
    expect(reasons).toContain("not about this course's activities");
    expect(reasons).toContain("actor");
    expect(reasons).toContain("verb.id");
    expect(reasons).toContain("result.duration");
    expect(reasons).toContain("the same statement id twice");
    // The same file again adds nothing; the voided statement stays voided.
    const again = await alice.call("import_results", { courseId: course.id, content: file });
    expect(again).toMatchObject({ added: 0, alreadyStored: statements.length, stored: statements.length - 1 });
  });

  test("statistics per question, lesson and course; diagnoses propose edit_course steps the service accepts; no learner is identifiable", async () => {
    const raw = await alice.callRaw("get_course_results", { courseId: course.id });
    const text = JSON.stringify(raw);
    for (const secret of ["school.example", "Learner", "Number1", "mailto"]) expect(text).not.toContain(secret);
    const results = raw.structuredContent as Json;
    const lessons = course.modules[0]!.lessons;
    const [q1, q2, q3, q4] = lessons[2]!.blocks.map((block) => block.id);
    expect(results.course).toMatchObject({ learners: 30, completionRate: 0.3, passRate: 0.5 });
    const distribution = (results.course as Json).scoreDistribution as { from: number; learners: number }[];
    expect(distribution.find((bin) => bin.from === 70)?.learners).toBe(9);
    expect(distribution.find((bin) => bin.from === 20)?.learners).toBe(9);
    const lessonFigures = results.lessons as Json[];
    expect(lessonFigures[1]).toMatchObject({ lessonId: lessons[1]!.id, reached: 30, stoppedHere: 12, dropOffRate: 0.4 });
    expect(lessonFigures[0]).toMatchObject({ reached: 30, completed: 30, stoppedHere: 0 });
    const questions = new Map((results.questions as Json[]).map((question) => [question.questionId, question]));
    // Six learners tried twice: 18 first attempts, 24 in all; one answer to q3 (learner 0's first) was voided.
    expect(questions.get(q3)).toMatchObject({ firstAttempts: { attempts: 17, facilityIndex: 1 }, allAttempts: { attempts: 23 }, versions: [3] });
    expect((questions.get(q1)?.allAttempts as Json).attempts).toBe(24);
    expect((questions.get(q1)?.firstAttempts as Json).discriminationIndex as number).toBeLessThan(0);
    expect((questions.get(q4)?.firstAttempts as Json).discriminationIndex as number).toBeGreaterThan(0);
    expect(questions.get(q1)?.medianSeconds).toBe(12.5);
    // 24 attempts: the strong learners (12 attempts) pick Right, the even weak ones (7) Wrong one, the odd ones (5) Wrong two.
    const q2Choices = questions.get(q2)?.choices as Json[];
    expect(q2Choices.map((choice) => choice.selectionRate)).toEqual([0.5, 0.2917, 0.2083, 0]);
    const diagnoses = results.diagnoses as (Json & { proposedStep: Json })[];
    const kinds = diagnoses.map((diagnosis) => `${diagnosis.kind}:${diagnosis.target}`);
    expect(kinds).toContain(`probably_wrong_key:${q1}`);
    expect(kinds).toContain(`unused_distractor:${q2}`);
    expect(kinds).toContain(`too_easy:${q3}`);
    expect(kinds).toContain(`lesson_drop_off:${lessons[1]!.id}`);
    // Nothing changed yet; the complete proposals apply as they are.
    expect(((await alice.call("get_course", { courseId: course.id })) as Course).version).toBe(course.version);
    const ready = diagnoses.filter((diagnosis) => !diagnosis.needsText).map((diagnosis) => diagnosis.proposedStep);
    const edited = await alice.call("edit_course", { courseId: course.id, expectedVersion: course.version, operations: ready });
    expect(edited.version).toBe(course.version + 1);
    const after = (await alice.call("get_course", { courseId: course.id })) as Course;
    const fixed = after.modules[0]!.lessons[2]!.blocks[0] as unknown as Json & { choices: Json[] };
    expect(fixed.choices.map((choice) => choice.correct)).toEqual([false, true, false]);
  });

  test("a group smaller than five is withheld; only editors import; a stranger sees nothing; delete_results empties the store", async () => {
    const small = (await alice.call("create_course", quizCourse)) as Course;
    const few = scriptedStatements(small).filter((statement) => ["mailto:learner0@school.example", "mailto:learner1@school.example", "mailto:learner10@school.example"].includes(String((statement.actor as Json).mbox)));
    await alice.call("import_results", { courseId: small.id, content: JSON.stringify(few) });
    const withheld = await alice.call("get_course_results", { courseId: small.id });
    expect(withheld.withheld).toContain("fewer than 5");
    expect(withheld.course).toBeUndefined();
    expect(withheld.questions).toEqual([]);
    expect((await mallory.fail("get_course_results", { courseId: course.id })).code).toBe("not_found");
    expect((await mallory.fail("import_results", { courseId: course.id, content: "[]" })).code).toBe("not_found");
    const deleted = await alice.call("delete_results", { courseId: small.id, confirm: true });
    expect(deleted).toEqual({ courseId: small.id, deleted: few.length });
    expect((await alice.call("get_course_results", { courseId: small.id })).statements).toBe(0);
  });

  test("files that are not xAPI, and too many statements, are refused with a clear error and nothing stored", async () => {
    const other = (await alice.call("create_course", { title: "Empty" })) as Course;
    const notJson = await alice.fail("import_results", { courseId: other.id, content: "hello" });
    expect(notJson.code).toBe("invalid_arguments");
    expect(notJson.message).toContain("xAPI");
    const notStatements = await alice.fail("import_results", { courseId: other.id, content: JSON.stringify({ rows: [1, 2] }) });
    expect(notStatements.message).toContain("not an xAPI statements file");
    const tooMany = `[${Array.from({ length: 100_001 }, () => "{}").join(",")}]`;
    const seen = await watchResponsiveness(service, alice.fail("import_results", { courseId: other.id, content: tooMany }));
    assertResponsive(seen, 2000);
    expect(seen.outcome.ok && (seen.outcome.value as { code: string }).code).toBe("limit_exceeded");
    expect(seen.outcome.ok && (seen.outcome.value as { message: string }).message).toContain("100000 statements");
    expect((await alice.call("get_course_results", { courseId: other.id })).statements).toBe(0);
  });
});
