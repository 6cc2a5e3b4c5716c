/**
 * validate_course for the course as a whole: course fields, structure, knowledge checks, objectives,
 * pacing and reading level — each rule with a course that triggers it and one that does not — and
 * the shape of the answer (errors first, severity filter, limit).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { openHarness, type Harness, type Json } from "./authoring-harness.ts";
import { addReadingStats, countSyllables, emptyStats, fleschKincaidGrade } from "../src/review/validation/readability.ts";
import { cleanOutline, createCourse, findingsOf, withRule, type Finding } from "./support/review-courses.ts";

let harness: Harness;
beforeAll(async () => {
  harness = await openHarness();
});
afterAll(() => harness.close());

async function findingsFor(outline: Json): Promise<Finding[]> {
  return findingsOf(harness, (await createCourse(harness, outline)).id);
}

function modulesOf(outline: Json): (Json & { lessons: (Json & { blocks: Json[] })[] })[] {
  return outline.modules as (Json & { lessons: (Json & { blocks: Json[] })[] })[];
}

const hardProse =
  "Organizational resilience necessitates a comprehensive understanding of interdependent evacuation methodologies, institutional accountability structures and physiological considerations affecting occupant behavior during emergency circumstances. " +
  "Consequently, administrative personnel must systematically evaluate architectural configurations, communication infrastructure and procedural documentation, identifying vulnerabilities that could compromise expeditious egress. " +
  "Furthermore, interdisciplinary collaboration between facilities management, occupational health specialists and external regulatory authorities substantially enhances the effectiveness of preventative interventions. " +
  "Comprehensive documentation of evacuation responsibilities, supplemented by periodic simulation exercises, demonstrably improves organizational preparedness and reduces the probability of catastrophic outcomes. " +
  "Additionally, management should continuously reassess emergency procedures following significant organizational modifications, incorporating empirical observations regarding occupant circulation patterns.";

const plainProse =
  "When the alarm rings, stop what you are doing. Stand up and walk to the door. Do not run. Do not take the lift. Use the stairs and hold the rail. " +
  "Help people near you if you can. Go to the meeting point in the car park. Tell your team lead that you are safe. Wait there until someone tells you it is fine to go back. " +
  "If you see smoke, stay low and keep close to the wall. Shut doors behind you to slow the fire. Never go back in to get your bag or your phone. " +
  "Your life matters more than your things. Most fires start small, so act fast and stay calm. Ask your team lead if you are not sure.";

describe("course fields", () => {
  test("course.missing_description: an empty description is a warning; the clean course has one", async () => {
    const [finding] = withRule(await findingsFor({ ...cleanOutline(), description: "" }), "course.missing_description");
    expect(finding).toMatchObject({ severity: "warning", location: { path: "Course", field: "description" } });
    expect(withRule(await findingsFor(cleanOutline()), "course.missing_description")).toEqual([]);
  });

  test("course.missing_language: a course stored without a language is an error; en-GB is fine", async () => {
    const course = await createCourse(harness);
    await harness.services.store.write((tx) => tx.update("course", course.id, { language: "" }));
    const [finding] = withRule(await findingsOf(harness, course.id), "course.missing_language");
    expect(finding).toMatchObject({ severity: "error", location: { field: "language" } });
    expect(finding!.fix).toContain("update_course");
    expect(withRule(await findingsFor({ ...cleanOutline(), language: "en-GB" }), "course.missing_language")).toEqual([]);
  });

  test("course.no_objectives: a course without objectives gets an info", async () => {
    const outline = cleanOutline();
    delete outline.objectives;
    for (const module of modulesOf(outline)) {
      module.objectiveIds = [];
      for (const lesson of module.lessons) for (const block of lesson.blocks) if ("objectiveIds" in block) block.objectiveIds = [];
    }
    expect(withRule(await findingsFor(outline), "course.no_objectives").map((finding) => finding.severity)).toEqual(["info"]);
    expect(withRule(await findingsFor(cleanOutline()), "course.no_objectives")).toEqual([]);
  });
});

describe("structure", () => {
  test("structure.empty_course: a course without modules is an error", async () => {
    const outline = { ...cleanOutline(), modules: [] };
    expect(withRule(await findingsFor(outline), "structure.empty_course")).toHaveLength(1);
    expect(withRule(await findingsFor(cleanOutline()), "structure.empty_course")).toEqual([]);
  });

  test("structure.empty_module and structure.empty_lesson: a module without lessons and a lesson without blocks are errors", async () => {
    const course = await createCourse(harness);
    const module = (await harness.call("alice", "add_module", { courseId: course.id, title: "Later" })).module as Json;
    const lesson = (await harness.call("alice", "add_lesson", { courseId: course.id, moduleId: course.modules[0]!.id, title: "To write" })).lesson as Json;
    const findings = await findingsOf(harness, course.id);
    expect(withRule(findings, "structure.empty_module")).toMatchObject([{ severity: "error", location: { moduleId: module.id } }]);
    expect(withRule(findings, "structure.empty_lesson")).toMatchObject([{ severity: "error", location: { lessonId: lesson.id } }]);
    expect(withRule(findings, "structure.empty_module")[0]!.fix).toContain("add_lesson");
  });

  test("quiz.no_questions: a quiz lesson with only text is an error; a quiz with a question is fine", async () => {
    const outline = cleanOutline();
    modulesOf(outline)[1]!.lessons.push({ title: "Final quiz", kind: "quiz", blocks: [{ type: "text", markdown: "Good luck!" }] });
    const [finding] = withRule(await findingsFor(outline), "quiz.no_questions");
    expect(finding!.location.path).toBe('Module 2 "Raising the alarm" › Lesson 2.2 "Final quiz"');
    expect(withRule(await findingsFor(cleanOutline()), "quiz.no_questions")).toEqual([]);
  });

  test("module.no_knowledge_check: a module whose lessons ask no question is a warning; a question in a content lesson counts", async () => {
    const outline = cleanOutline();
    const second = modulesOf(outline)[1]!;
    second.lessons[0]!.blocks = second.lessons[0]!.blocks.filter((block) => block.type !== "true_false");
    const findings = await findingsFor(outline);
    expect(withRule(findings, "module.no_knowledge_check")).toMatchObject([{ severity: "warning", location: { path: 'Module 2 "Raising the alarm"' } }]);
    expect(withRule(await findingsFor(cleanOutline()), "module.no_knowledge_check")).toEqual([]);
  });
});

describe("objective.unassessed", () => {
  test("an objective no question names is a warning located at the objective", async () => {
    const outline = cleanOutline();
    (outline.objectives as Json[]).push({ text: "Use a fire extinguisher" });
    const [finding] = withRule(await findingsFor(outline), "objective.unassessed");
    expect(finding).toMatchObject({ severity: "warning", location: { path: 'Learning objective 3 "Use a fire extinguisher"' } });
    expect(finding!.location.objectiveId).toStartWith("obj_");
    expect(finding!.fix).toContain(finding!.location.objectiveId!);
  });

  test("objectives assessed by any question (quiz or content lesson) are fine", async () => {
    expect(withRule(await findingsFor(cleanOutline()), "objective.unassessed")).toEqual([]);
  });
});

describe("lesson.too_long", () => {
  function pacedOutline(minutes: number[]): Json {
    const outline = cleanOutline();
    const lessons = modulesOf(outline)[0]!.lessons;
    minutes.forEach((estimate, index) => lessons.push({ title: `Part ${index + 1}`, estimatedMinutes: estimate, blocks: [{ type: "text", markdown: "Read this." }] }));
    return outline;
  }

  test("a lesson far above the course's median is a warning that names the median", async () => {
    const findings = withRule(await findingsFor(pacedOutline([5, 5, 6, 40])), "lesson.too_long");
    expect(findings).toHaveLength(1);
    expect(findings[0]!.message).toContain("40 min");
    expect(findings[0]!.message).toContain("median");
    expect(findings[0]!.location.field).toBe("estimatedMinutes");
  });

  test("a lesson over an hour is too long even in a one-lesson course", async () => {
    const outline = { ...cleanOutline(), modules: [{ title: "Only", lessons: [{ title: "Marathon", estimatedMinutes: 90, blocks: [{ type: "text", markdown: "Long." }] }] }] };
    expect(withRule(await findingsFor(outline), "lesson.too_long")).toHaveLength(1);
  });

  test("a somewhat longer lesson within twice the median is fine", async () => {
    expect(withRule(await findingsFor(pacedOutline([5, 5, 6, 12])), "lesson.too_long")).toEqual([]);
  });
});

describe("text.reading_level", () => {
  test("the grade is Flesch-Kincaid with vowel-group syllables: deterministic and dictionary-free", () => {
    expect(["cat", "table", "walked", "makes", "understanding", "organization", "don't"].map(countSyllables)).toEqual([1, 2, 1, 1, 4, 5, 1]);
    const stats = emptyStats();
    addReadingStats(stats, "The cat sat on the mat. It was 3.5 metres long!\n- A list item without a full stop");
    expect(stats).toEqual({ words: 17, sentences: 3, syllables: 19 });
    expect(fleschKincaidGrade({ words: 6, sentences: 1, syllables: 6 })).toBeCloseTo(0.39 * 6 + 11.8 - 15.59, 10);
  });


  function outlineWithProse(prose: string, fields: Json = {}): Json {
    const outline = { ...cleanOutline(), ...fields };
    modulesOf(outline)[0]!.lessons[0]!.blocks.push({ type: "text", markdown: prose });
    return outline;
  }

  test("dense academic prose for beginners is a warning with the grade and the audience's grade", async () => {
    const [finding] = withRule(await findingsFor(outlineWithProse(hardProse)), "text.reading_level");
    expect(finding).toMatchObject({ severity: "warning", location: { path: 'Module 1 "When the alarm sounds" › Lesson 1.1 "Get out"' } });
    expect(finding!.message).toMatch(/grade \d+\.\d .*about grade 8/);
  });

  test("plain prose for beginners is fine, and the English formula is not applied to a German course", async () => {
    expect(withRule(await findingsFor(outlineWithProse(plainProse)), "text.reading_level")).toEqual([]);
    expect(withRule(await findingsFor(outlineWithProse(hardProse, { language: "de" })), "text.reading_level")).toEqual([]);
  });

  test("the audience sets the bar: prose fine for advanced adults is too hard for children", async () => {
    const middling =
      "Evacuation procedures describe how everybody leaves the building safely. Every department nominates volunteers who check offices, meeting rooms and bathrooms. " +
      "Volunteers wear bright jackets, so colleagues recognise them immediately. After everybody reaches the assembly point, volunteers report which areas they checked. " +
      "Emergency services then decide whether anybody must search again. Regular practice makes these procedures familiar, and familiarity prevents panic. " +
      "Temporary visitors receive instructions from whoever invited them. Colleagues with limited mobility agree personal arrangements beforehand, including refuge areas and assistance. " +
      "The building manager organises a practice evacuation twice every year and records how long it takes. Afterwards, the safety committee discusses problems and publishes improvements.";
    expect(withRule(await findingsFor(outlineWithProse(middling, { level: "advanced", audience: "facility managers" })), "text.reading_level")).toEqual([]);
    expect(withRule(await findingsFor(outlineWithProse(middling, { level: null, audience: "primary school children" })), "text.reading_level")).toHaveLength(1);
  });
});

describe("the answer", () => {
  test("errors come first, minSeverity filters, limit truncates, counts always cover everything", async () => {
    const outline = { ...cleanOutline(), description: "" };
    modulesOf(outline)[1]!.lessons.push({ title: "Empty quiz", kind: "quiz", blocks: [{ type: "text", markdown: "Soon." }] });
    const course = await createCourse(harness, outline);
    const all = await harness.call("alice", "validate_course", { courseId: course.id });
    expect(all.counts).toEqual({ error: 1, warning: 1, info: 0 });
    expect(all.publishable).toBe(false);
    expect((all.findings as Finding[]).map((finding) => finding.ruleId)).toEqual(["quiz.no_questions", "course.missing_description"]);
    const errorsOnly = await harness.call("alice", "validate_course", { courseId: course.id, minSeverity: "error" });
    expect((errorsOnly.findings as Finding[]).map((finding) => finding.severity)).toEqual(["error"]);
    const limited = await harness.call("alice", "validate_course", { courseId: course.id, limit: 1 });
    expect(limited).toMatchObject({ truncated: true, counts: { error: 1, warning: 1, info: 0 } });
  });

  test("a viewer can validate; a stranger gets not_found", async () => {
    const course = await createCourse(harness);
    await harness.call("alice", "share_course", { courseId: course.id, sub: "vera", role: "viewer" });
    expect((await harness.call("vera", "validate_course", { courseId: course.id })).publishable).toBe(true);
    expect((await harness.fail("mallory", "validate_course", { courseId: course.id })).code).toBe("not_found");
  });
});
