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
  "lesson.minutes_mismatch": { severity: "warning", checks: "a lesson's set minutes are within half to twice what its content derives" },
  "course.length_off_target": { severity: "warning", checks: "the course's length is within 25% of its targetMinutes" },
  "title.numbered_twice": { severity: "warning", checks: "module and lesson titles do not carry a number the learner pages already add" },
  "scenario.unreachable_scene": { severity: "error", checks: "every scenario scene is reachable from the start and can reach an ending" },
  "labeled_graphic.marker_without_text": { severity: "warning", checks: "every marker of a labeled graphic has text" },
  "continue.last_block": { severity: "warning", checks: "a continue block is not a lesson's last block" },
  "media.captions_language": { severity: "warning", checks: "a captioned video has captions in the course's language" },
  "image.text_picture": { severity: "warning", checks: "a picture does not show text that could be text (its alt text or file name suggests it)" },
  "text.colour_only_cue": { severity: "warning", checks: "text does not point at things by colour alone" },
  "text.unmarked_language": { severity: "warning", checks: "a passage in another language than the course's is marked with its language (lang)" },
  "theme.low_contrast": { severity: "error", checks: "the theme's colours meet WCAG 2.2 AA contrast" },
  "translation.behind_source": { severity: "warning", checks: "a translation has taken every change of its source" },
  "translation.outdated_units": { severity: "warning", checks: "no translated unit's source changed since it was translated" },
} as const satisfies Record<string, { severity: Severity; checks: string }>;

export type RuleId = keyof typeof validationRules;
export const ruleIds = Object.keys(validationRules) as RuleId[];

export { findingLocationSchema, type FindingLocation } from "./finding-location.ts";
import { findingLocationSchema, type FindingLocation } from "./finding-location.ts";

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
