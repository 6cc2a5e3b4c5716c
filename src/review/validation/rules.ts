/**
 * The validation rules by stable ID, each with its severity and what it checks, and the shape of a
 * finding. Rule IDs are part of the interface: agents and tests switch on them, so an ID is never
 * renamed or reused. `error` findings block publishing; warnings and infos are advice.
 */
import * as v from "valibot";
import { withFixCalls } from "./fix-calls.ts";

export const severities = ["error", "warning", "info"] as const;
export type Severity = (typeof severities)[number];

export const validationRules = {
  "course.missing_description": { severity: "warning", checks: "the course has a description" },
  "course.missing_language": { severity: "error", checks: "the course has a valid BCP 47 language" },
  "course.no_objectives": { severity: "info", checks: "the course states learning objectives" },
  "structure.empty_course": { severity: "error", checks: "the course has at least one module" },
  "structure.empty_module": { severity: "error", checks: "every module has at least one lesson" },
  "structure.empty_lesson": { severity: "error", checks: "every lesson has at least one block" },
  "quiz.no_questions": { severity: "error", checks: "every quiz lesson has at least one question" },
  "quiz.pool_too_small": { severity: "error", checks: "a quiz lesson holds at least as many questions as it draws (drawCount)" },
  "question.no_feedback": { severity: "warning", checks: "every graded question has an explanation or feedback for the learner" },
  "quiz.passing_score_fraction": { severity: "warning", checks: "a quiz's passing score is a percentage, not a fraction below 1" },
  "module.no_knowledge_check": { severity: "warning", checks: "every module asks at least one question" },
  "objective.unassessed": { severity: "warning", checks: "every learning objective is assessed by a question" },
  "lesson.too_long": { severity: "warning", checks: "no lesson is much longer than the course's pacing" },
  "text.reading_level": { severity: "warning", checks: "lesson text reads at a level fit for the audience (English)" },
  "heading.skipped_level": { severity: "warning", checks: "heading levels within a lesson do not skip" },
  "image.missing_alt": { severity: "error", checks: "images have alt text unless marked decorative" },
  "image.unhelpful_alt": { severity: "warning", checks: "alt text describes the image rather than naming the file" },
  "media.missing_captions": { severity: "error", checks: "video and audio have captions or a transcript" },
  "asset.broken_reference": { severity: "error", checks: "every asset a block uses exists in the course and has a fitting type" },
  "question.no_correct_answer": { severity: "error", checks: "every question has a correct answer" },
  "question.several_correct_single_choice": { severity: "error", checks: "a single-choice question has exactly one correct choice" },
  "question.duplicate_options": { severity: "error", checks: "no question offers the same option twice" },
} as const satisfies Record<string, { severity: Severity; checks: string }>;

export type RuleId = keyof typeof validationRules;
export const ruleIds = Object.keys(validationRules) as RuleId[];

export const findingLocationSchema = v.object({
  path: v.pipe(v.string(), v.description('Where, for people: Module 2 "Safety" › Lesson 2.1 "Fire drills" › Block 3 (image).')),
  moduleId: v.optional(v.string()),
  lessonId: v.optional(v.string()),
  blockId: v.optional(v.string()),
  objectiveId: v.optional(v.string()),
  field: v.optional(v.pipe(v.string(), v.description("The field to change, e.g. alt, choices[2].text, captions."))),
});
export type FindingLocation = v.InferOutput<typeof findingLocationSchema>;

export const findingSchema = v.object({
  ruleId: v.picklist(ruleIds),
  severity: v.picklist(severities),
  message: v.string(),
  location: findingLocationSchema,
  fix: v.pipe(v.string(), v.description("What to do about it, naming the tool to use.")),
});
export type Finding = v.InferOutput<typeof findingSchema>;

/** Collects findings; the severity always comes from the rule, never from the check. */
export class FindingList {
  readonly findings: Finding[] = [];

  /** `courseId` makes each fix a call that can be sent as written. */
  constructor(private readonly courseId?: string) {}

  report(ruleId: RuleId, location: FindingLocation, message: string, fix: string): void {
    const callable = this.courseId ? withFixCalls(fix, this.courseId, location) : fix;
    this.findings.push({ ruleId, severity: validationRules[ruleId].severity, message, location, fix: callable });
  }
}

const severityRank: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

export function atLeast(severity: Severity, minimum: Severity): boolean {
  return severityRank[severity] <= severityRank[minimum];
}

/** Errors first, then warnings, then infos; within a severity, course order is kept (the sort is stable). */
export function bySeverity(findings: readonly Finding[]): Finding[] {
  return [...findings].sort((a, b) => severityRank[a.severity] - severityRank[b.severity]);
}
