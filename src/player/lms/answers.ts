/**
 * Question-level reporting in the browser: `createAnswerTools` turns one `QuestionAnswer` plus the
 * export's facts about the question (see `export/runtime/question-facts.ts`) into SCORM 1.2 and SCORM
 * 2004 `cmi.interactions.n.*` values, each in the format its version requires, and into an xAPI
 * `answered` statement's object and result (a `cmi.interaction` activity, as cmi5 allows). Every right
 * response is listed (a fill-in's other accepted answers as further correct response patterns). An
 * answer outside a quiz counts for no score: it has no weighting (xAPI: no score), and a scenario played
 * for practice, whose success path stays sealed, is `neutral` (SCORM's result for a response neither
 * correct nor incorrect; xAPI: no success).
 */
import type { InteractionKind, QuestionFacts } from "../../page-contract/config.ts";
import type { QuestionAnswer } from "../../page-contract/course-runtime.ts";
import { activityIri } from "../../page-contract/xapi-ids.ts";

export type { InteractionKind, QuestionFacts };

/** One interaction record, ready to be written element by element. */
export interface InteractionRecord {
  readonly id: string;
  readonly type: string;
  readonly description: string;
  /** Empty for an ungraded answer: it counts for nothing, so no weight is written. */
  readonly weighting: string;
  readonly learnerResponse: string;
  /** Every right response's pattern, the first authored one first (SCORM `correct_responses.n.pattern`). */
  readonly correctPatterns: readonly string[];
  readonly result: string;
  readonly latency: string;
  readonly timestamp: string;
  readonly objectiveIds: readonly string[];
}

export interface AnswerTools {
  /** Usually one record; a likert scale gives one per statement. */
  scorm2004(answer: QuestionAnswer, latencySeconds: number): InteractionRecord[];
  scorm12(answer: QuestionAnswer, latencySeconds: number): InteractionRecord[];
  /** The `answered` statements' objects (a `cmi.interaction` activity under `baseIri`, the course's) and results; one per likert statement. */
  xapi(answer: QuestionAnswer, baseIri: string, latencySeconds: number): { object: Record<string, unknown>; result: Record<string, unknown> }[];
}

const letters = "abcdefghijklmnopqrstuvwxyz0123456789";

/** An open answer's text: the page keeps its spaces as no-break spaces, the report as spaces. */
const openText = (response: readonly string[]): string => response.join(" ").replace(/\u00a0/g, " ");

const fillInText = (text: string): string => text.replace(/\[[,.]\]/g, " ").replace(/^\{/, "(").slice(0, 250);

/** SCORM 2004 `learner_response` / `correct_responses.n.pattern` syntax (RTE 4.2.9). */
function pattern2004(facts: QuestionFacts, response: readonly string[], isPattern: boolean): string {
  const id = (prefix: string, index: string): string => `${prefix}_${Number(index) + 1}`;
  switch (facts.kind) {
    case "true-false":
      return response[0] === "0" ? "true" : response[0] === "1" ? "false" : "";
    case "choice":
      return response.map((index) => id("choice", index)).join("[,]");
    case "fill-in": {
      const body = response.map(fillInText).join("[,]");
      return isPattern ? `{case_matters=${facts.caseMatters}}${response.length > 1 ? "{order_matters=true}" : ""}${body}` : body;
    }
    case "matching":
      return response.flatMap((target, row) => (target === "" ? [] : [`${id("item", String(row))}[.]${id("target", target)}`])).join("[,]");
    case "sequencing":
      return response.map((position) => id("item", position)).join("[,]");
    case "performance": {
      // A scenario: one step per scene visited, named by its place in the path, its answer the scene id.
      if (!facts.steps) return response.map((scene, index) => `step_${index + 1}[.]${scene}`).join("[,]");
      // Labels on zones, choices in gaps: `label_1[.]zone_2`; a step left empty is left out.
      const [step, value] = facts.steps;
      return response.flatMap((answer, index) => (answer === "" ? [] : [`${id(step, String(index))}[.]${id(value, answer)}`])).join("[,]");
    }
    case "numeric":
      // A right response is the accepted range [low, high]: `low[:]high` (RTE 4.2.9.1); the learner's is the number.
      return isPattern ? `${response[0] ?? ""}[:]${response[1] ?? response[0] ?? ""}` : (response[0] ?? "");
    case "long-fill-in":
      return openText(response).slice(0, 4000);
    case "likert":
      return response[0] === undefined || response[0] === "" ? "" : id("scale", response[0]);
  }
}

/** SCORM 1.2 `student_response` / `correct_responses.n.pattern` syntax (single characters, commas). */
function pattern12(facts: QuestionFacts, response: readonly string[]): string {
  const letter = (index: string): string => letters.charAt(Number(index)) || "z";
  switch (facts.kind) {
    case "true-false":
      return response[0] === "0" ? "t" : response[0] === "1" ? "f" : "";
    case "choice":
    case "sequencing":
      return response.map(letter).join(",");
    case "fill-in":
      return response.join(" ").replace(/,/g, " ").slice(0, 255);
    case "matching":
      return response.flatMap((target, row) => (target === "" ? [] : [`${letter(String(row))}.${letter(target)}`])).join(",");
    case "performance":
      if (!facts.steps) return response.join(",").slice(0, 255);
      return response.flatMap((answer, index) => (answer === "" ? [] : [`${index + 1}.${Number(answer) + 1}`])).join(",").slice(0, 255);
    case "numeric": {
      // SCORM 1.2 holds one number: a range's middle (the value itself for an answer with a tolerance).
      if (response.length < 2) return response[0] ?? "";
      const [low, high] = response.map(Number) as [number, number];
      return String(Math.round(((low + high) / 2) * 1e7) / 1e7);
    }
    case "long-fill-in":
      // SCORM 1.2 has no long fill-in: a fill-in of at most 255 characters; the 2004 report keeps 4000.
      return openText(response).slice(0, 255);
    case "likert":
      return response[0] === undefined || response[0] === "" ? "" : String(Number(response[0]) + 1);
  }
}

export function createAnswerTools(questions: Readonly<Record<string, QuestionFacts>>): AnswerTools {

  function isoDuration(seconds: number): string {
    return `PT${Math.max(0, Math.round(seconds * 100) / 100)}S`;
  }

  function timespan12(seconds: number): string {
    const whole = Math.max(0, seconds);
    const pad = (value: number): string => String(value).padStart(2, "0");
    const hundredths = Math.floor((whole % 1) * 100);
    return `${String(Math.min(9999, Math.floor(whole / 3600))).padStart(4, "0")}:${pad(Math.floor((whole % 3600) / 60))}:${pad(Math.floor(whole % 60))}.${pad(hundredths)}`;
  }

  /** The right responses: the first authored one, then the others, each once; none when the page revealed none. */
  function rightResponses(answer: QuestionAnswer): (readonly string[])[] {
    return answer.correctResponse.length === 0 ? [] : [answer.correctResponse, ...(answer.otherCorrectResponses ?? [])];
  }

  function patterns(responses: (readonly string[])[], format: (response: readonly string[]) => string): string[] {
    return [...new Set(responses.map(format))].filter((pattern) => pattern !== "");
  }

  /** Open answers and opinions are never scored, in a quiz or not: no weight, no score, a neutral result. */
  const unscored = (facts: QuestionFacts): boolean => facts.kind === "likert" || facts.kind === "long-fill-in";

  /** Whether the answer is judged right or wrong: graded, or a check whose right answer the page revealed. */
  const judged = (answer: QuestionAnswer): boolean => (answer.graded !== false || answer.correctResponse.length > 0) && !unscored(questions[answer.questionId] as QuestionFacts);

  /** The answers a record is made of: one per statement of a likert scale (`<id>_<n>`), the answer itself otherwise. */
  function perStatement(answer: QuestionAnswer): { answer: QuestionAnswer; description?: string }[] {
    const facts = questions[answer.questionId];
    if (facts?.kind !== "likert") return [{ answer }];
    return facts.targets.map((statement, index) => ({ answer: { ...answer, questionId: `${answer.questionId}_${index + 1}`, response: [answer.response[index] ?? ""].filter((point) => point !== "" && point !== "-") }, description: statement }));
  }

  function record(answer: QuestionAnswer, facts: QuestionFacts, latency: string, learnerResponse: string, correctPatterns: string[], result: string, type: string, description = facts.description): InteractionRecord {
    return {
      id: answer.questionId,
      type,
      description,
      weighting: answer.graded === false || unscored(facts) ? "" : String(facts.weighting),
      learnerResponse,
      correctPatterns,
      result,
      latency,
      timestamp: new Date().toISOString(),
      objectiveIds: facts.objectiveIds,
    };
  }

  return {
    scorm2004(answer, latencySeconds) {
      const facts = questions[answer.questionId];
      if (!facts) return [];
      const result = !judged(answer) ? "neutral" : answer.correct ? "correct" : "incorrect";
      const correct = patterns(rightResponses(answer), (response) => pattern2004(facts, response, true));
      return perStatement(answer).map((part) => record(part.answer, facts, isoDuration(latencySeconds), pattern2004(facts, part.answer.response, false), correct, result, facts.kind, part.description));
    },
    scorm12(answer, latencySeconds) {
      const facts = questions[answer.questionId];
      if (!facts) return [];
      const result = !judged(answer) ? "neutral" : answer.correct ? "correct" : "wrong";
      const correct = patterns(rightResponses(answer), (response) => pattern12(facts, response));
      // SCORM 1.2 has no long-fill-in: an open answer is a fill-in there.
      const type = facts.kind === "long-fill-in" ? "fill-in" : facts.kind;
      return perStatement(answer).map((part) => record(part.answer, facts, timespan12(latencySeconds), pattern12(facts, part.answer.response), correct, result, type, part.description));
    },
    xapi(answer, baseIri, latencySeconds) {
      const facts = questions[answer.questionId];
      if (!facts) return [];
      const component = (prefix: string, labels: readonly string[]): Record<string, unknown>[] =>
        labels.map((label, index) => ({ id: `${prefix}_${index + 1}`, description: { "en-US": label } }));
      const correct = patterns(rightResponses(answer), (response) => pattern2004(facts, response, true));
      const scored = judged(answer);
      return perStatement(answer).map(({ answer: part, description }) => {
        const definition: Record<string, unknown> = {
          type: "http://adlnet.gov/expapi/activities/cmi.interaction",
          description: { "en-US": description ?? facts.description },
          interactionType: facts.kind,
        };
        if (correct.length > 0) definition.correctResponsesPattern = correct;
        if (facts.kind === "choice") definition.choices = component("choice", facts.labels);
        if (facts.kind === "sequencing") definition.choices = component("item", facts.labels);
        if (facts.kind === "likert") definition.scale = component("scale", facts.labels);
        if (facts.kind === "performance" && facts.steps) definition.steps = component(facts.steps[0], facts.labels);
        if (facts.kind === "matching") {
          definition.source = component("item", facts.labels);
          definition.target = component("target", facts.targets);
        }
        return {
          object: { id: activityIri(baseIri, "question", part.questionId), objectType: "Activity", definition },
          result: {
            response: pattern2004(facts, part.response, false),
            ...(scored ? { success: answer.correct } : {}),
            ...(answer.graded === false || unscored(facts)
              ? {}
              : { score: { scaled: Math.round(answer.scoreFraction * 1000) / 1000, raw: Math.round(answer.scoreFraction * facts.weighting * 100) / 100, min: 0, max: facts.weighting } }),
            duration: isoDuration(latencySeconds),
          },
        };
      });
    },
  };
}
