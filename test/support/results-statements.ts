/**
 * Scripted learners for the results tests (issue 43): a course with two content lessons and a quiz whose
 * questions each show one thing (a key that looks wrong, a dead distractor, a question everyone gets
 * right, two that discriminate), and the xAPI statements 30 learners leave in it.
 */
type Json = Record<string, unknown>;
type Course = Json & { id: string; version: number; modules: (Json & { id: string; lessons: (Json & { id: string; blocks: (Json & { id: string })[] })[] })[] };

export const verb = (name: string) => ({ id: `http://adlnet.gov/expapi/verbs/${name}`, display: { "en-US": name } });

export function learnerActor(index: number): Json {
  return { objectType: "Agent", name: `Learner Number${index}`, mbox: `mailto:learner${index}@school.example` };
}

export const quizCourse = {
  title: "Results course",
  modules: [
    {
      title: "Only module",
      lessons: [
        { title: "Intro", blocks: [{ type: "text", markdown: "Welcome." }] },
        { title: "Middle", blocks: [{ type: "text", markdown: "More." }] },
        {
          title: "Quiz",
          kind: "quiz",
          passingScore: 50,
          blocks: [
            { type: "single_choice", prompt: "Key looks wrong", choices: [{ text: "Alpha", correct: true }, { text: "Beta" }, { text: "Gamma" }] },
            { type: "single_choice", prompt: "Has a dead distractor", choices: [{ text: "Right", correct: true }, { text: "Wrong one" }, { text: "Wrong two" }, { text: "Nobody picks me" }] },
            { type: "true_false", prompt: "Everyone knows this", answer: true },
            { type: "single_choice", prompt: "Discriminates well", choices: [{ text: "Good", correct: true }, { text: "Bad" }, { text: "Worse" }] },
            { type: "multiple_choice", prompt: "Strong learners know", choices: [{ text: "One", correct: true }, { text: "Two", correct: true }, { text: "Three" }] },
          ],
        },
      ],
    },
  ],
};

/** The statements 30 learners leave: 12 stop after Middle, 18 take the quiz (six of them twice). */
export function scriptedStatements(course: Course, iri = `urn:course-authoring-service:course:${course.id}`): Json[] {
  const lessons = course.modules[0]!.lessons;
  const [q1, q2, q3, q4, q5] = lessons[2]!.blocks.map((block) => block.id) as [string, string, string, string, string];
  const statements: Json[] = [];
  let clock = Date.parse("2026-10-01T08:00:00Z");
  const at = () => new Date((clock += 30_000)).toISOString();
  const add = (learner: number, name: string, objectId: string, result?: Json, attempt?: number): Json => {
    const statement: Json = {
      id: crypto.randomUUID(),
      actor: learnerActor(learner),
      verb: verb(name),
      object: { objectType: "Activity", id: objectId },
      timestamp: at(),
      context: { registration: "7c9e6679-7425-40de-944b-e07fc1f90ae7", extensions: { "urn:course-authoring-service:xapi:course-version": 3, ...(attempt ? { "http://id.tincanapi.com/extension/attempt-id": attempt } : {}) } },
      ...(result ? { result } : {}),
    };
    statements.push(statement);
    return statement;
  };
  const answer = (learner: number, question: string, response: string, correct: boolean, attempt: number) =>
    add(learner, "answered", `${iri}/questions/${question}`, { response, success: correct, score: { scaled: correct ? 1 : 0, raw: correct ? 1 : 0, min: 0, max: 1 }, duration: "PT12.5S" }, attempt);
  for (let learner = 0; learner < 30; learner++) {
    add(learner, "experienced", `${iri}/lessons/${lessons[0]!.id}`);
    add(learner, "experienced", `${iri}/lessons/${lessons[1]!.id}`);
    if (learner >= 18) continue;
    add(learner, "experienced", `${iri}/lessons/${lessons[2]!.id}`);
    const strong = learner >= 9;
    const attempts = learner % 3 === 0 ? 2 : 1;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      answer(learner, q1, strong ? "choice_2" : "choice_1", !strong, attempt);
      answer(learner, q2, strong ? "choice_1" : learner % 2 === 0 ? "choice_2" : "choice_3", strong, attempt);
      answer(learner, q3, "true", true, attempt);
      answer(learner, q4, strong || learner % 4 === 0 ? "choice_1" : "choice_3", strong || learner % 4 === 0, attempt);
      answer(learner, q5, strong ? "choice_1[,]choice_2" : "choice_3", strong, attempt);
    }
    const score = strong ? 0.75 : 0.25;
    add(learner, strong ? "passed" : "failed", `${iri}/au/course`, { score: { scaled: score }, success: strong, duration: "PT5M" });
    if (strong) add(learner, "completed", `${iri}/au/course`, { completion: true });
  }
  return statements;
}

