/**
 * Schemas for courses, objectives, modules and lessons: the fields agents send (create and update
 * shapes) and the documents tools return. Blocks live in `blocks.ts`; this file composes them into the
 * nested outline `create_course` accepts in one call.
 */
import * as v from "valibot";
import { courseNumberings, courseStatuses, collaboratorRoles } from "../../store/types.ts";
import { blockSchema, storedBlockSchema } from "./blocks.ts";
import { lessonBannerSchema } from "./content-blocks.ts";
import { themeInputSchema, themeSchema } from "./theme.ts";
import {
  idField,
  languageField,
  levelField,
  limits,
  optionalMarkdownField,
  requiredTextField,
  shortTextField,
  tagsField,
  titleField,
} from "./fields.ts";

export const courseStatusField = v.picklist(courseStatuses, `must be one of ${courseStatuses.join(", ")}`);

export const numberingField = v.pipe(
  v.picklist(courseNumberings, "must be modules or none"),
  v.description('"modules" (default) prefixes "Module N:" to module titles; "none" does not.'),
);
export const targetMinutesField = v.pipe(
  v.nullable(v.pipe(v.number(), v.integer("must be a whole number"), v.minValue(1, "must be at least 1"), v.maxValue(100_000, "must be at most 100000"))),
  v.description("Aimed length in minutes; validate_course warns beyond 25%."),
);

/** Course fields an agent may set; every one optional on update. */
export const courseFieldEntries = {
  title: titleField(),
  description: v.optional(optionalMarkdownField(), ""),
  language: v.optional(languageField, "en"),
  audience: v.optional(shortTextField(500), ""),
  level: v.optional(v.nullable(levelField), null),
  tags: v.optional(tagsField, []),
  numbering: v.optional(numberingField, "modules"),
  targetMinutes: v.optional(targetMinutesField, null),
};

export const courseUpdateEntries = {
  title: v.optional(titleField()),
  description: v.optional(optionalMarkdownField()),
  language: v.optional(languageField),
  audience: v.optional(shortTextField(500)),
  level: v.optional(v.nullable(levelField)),
  tags: v.optional(tagsField),
  numbering: v.optional(numberingField),
  targetMinutes: v.optional(targetMinutesField),
  theme: v.optional(v.nullable(themeInputSchema)),
};

export const objectiveTextField = requiredTextField(500);

export const lessonKinds = ["content", "quiz"] as const;
export const lessonKindField = v.picklist(lessonKinds, "must be content or quiz");
export const passingScoreField = v.pipe(
  v.number(),
  v.minValue(0, "must be between 0 and 100"),
  v.maxValue(100, "must be between 0 and 100"),
  // 0.8 meant as 80 % would pass nearly everyone; refused rather than stored with a warning.
  v.check((score) => !(score > 0 && score < 1), (issue) => `is a percentage: did you mean ${Math.round(Number(issue.input) * 100)}?`),
);
export const maxAttemptsField = v.nullable(
  v.pipe(v.number(), v.integer("must be a whole number"), v.minValue(1, "must be at least 1"), v.maxValue(100, "must be at most 100")),
);
export const estimatedMinutesField = v.nullable(
  v.pipe(v.number(), v.integer("must be a whole number"), v.minValue(0, "must be 0 or more"), v.maxValue(10_000, "must be at most 10000")),
);

export const feedbackModes = ["after_submit", "immediate", "none"] as const;
export type FeedbackMode = (typeof feedbackModes)[number];
export const attemptScorings = ["best", "last"] as const;
export const drawCountField = v.nullable(
  v.pipe(v.number(), v.integer("must be a whole number"), v.minValue(1, "must be at least 1"), v.maxValue(limits.blocksPerCall, `must be at most ${limits.blocksPerCall}`)),
);

/** Quiz-lesson settings for pools, shuffling, feedback and the final assessment (issue 21). */
export const quizOptionEntries = {
  drawCount: v.optional(v.pipe(drawCountField, v.description("Quiz: questions drawn per attempt (null: all)."))),
  drawByObjective: v.optional(v.boolean()),
  shuffleChoices: v.optional(v.pipe(v.boolean(), v.description("Quiz: shuffle choices (default true); fixed choices stay."))),
  feedbackMode: v.optional(v.picklist(feedbackModes, "must be after_submit, immediate or none")),
  finalAssessment: v.optional(v.pipe(v.boolean(), v.description("Quiz: alone decides success; one per course."))),
  oneQuestionAtATime: v.optional(v.boolean()),
  attemptScoring: v.optional(v.picklist(attemptScorings, "must be best or last")),
};

/** Lesson fields shared by create and update; quiz settings are checked against the kind in the domain. */
export const lessonUpdateEntries = {
  title: v.optional(titleField()),
  kind: v.optional(lessonKindField),
  passingScore: v.optional(v.pipe(passingScoreField, v.description("Quiz: percentage needed to pass (0-100)."))),
  maxAttempts: v.optional(v.pipe(maxAttemptsField, v.description("Quiz: allowed attempts (null: unlimited)."))),
  estimatedMinutes: v.optional(v.pipe(estimatedMinutesField, v.description("Overrides the estimate from the content; null derives it."))),
  banner: v.optional(v.pipe(v.nullable(lessonBannerSchema), v.description("Image atop the lesson; null removes."))),
  ...quizOptionEntries,
};

export const moduleUpdateEntries = {
  title: v.optional(titleField()),
  summary: v.optional(optionalMarkdownField()),
  objectiveIds: v.optional(v.pipe(v.array(v.string()), v.maxLength(limits.objectivesPerCourse), v.description("IDs of course objectives this module covers."))),
};

/** A lesson inside a nested outline (create_course, add_module, add_lesson). */
export const lessonOutlineSchema = v.object({
  ...lessonUpdateEntries,
  title: titleField(),
  blocks: v.optional(v.pipe(v.array(blockSchema), v.maxLength(limits.blocksPerCall, `must have at most ${limits.blocksPerCall} blocks per call`)), []),
});

export const moduleOutlineSchema = v.object({
  ...moduleUpdateEntries,
  title: titleField(),
  lessons: v.optional(v.pipe(v.array(lessonOutlineSchema), v.maxLength(limits.lessonsPerModule)), []),
});

export const objectiveInputSchema = v.object({
  key: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^[A-Za-z0-9_.-]{1,64}$/, "must be 1-64 letters, digits, _ . or -"),
      v.description("Your own label for this objective, so modules and questions in the same call can reference it before it has an ID."),
    ),
  ),
  text: objectiveTextField,
});

export type LessonOutline = v.InferOutput<typeof lessonOutlineSchema>;
export type ModuleOutline = v.InferOutput<typeof moduleOutlineSchema>;
export type ObjectiveInput = v.InferOutput<typeof objectiveInputSchema>;

/* ---------- What tools return ---------- */

/** Quiz settings as returned: present on quiz lessons only. */
export const quizOptionsDocumentEntries = {
  drawCount: v.optional(v.nullable(v.number())),
  drawByObjective: v.optional(v.boolean()),
  shuffleChoices: v.optional(v.boolean()),
  feedbackMode: v.optional(v.picklist(feedbackModes)),
  finalAssessment: v.optional(v.boolean()),
  oneQuestionAtATime: v.optional(v.boolean()),
  attemptScoring: v.optional(v.picklist(attemptScorings)),
};

/** A lesson's banner as returned: present when the lesson has one. */
const lessonBannerDocumentSchema = v.object({ assetId: v.optional(v.string()), url: v.optional(v.string()), alt: v.optional(v.string()), decorative: v.boolean() });

export const objectiveSchema = v.object({ id: idField("objective"), text: v.string() });

export const collaboratorSchema = v.object({
  sub: v.optional(v.string()),
  email: v.optional(v.string()),
  role: v.picklist(collaboratorRoles),
});

export const courseRoleField = v.picklist(["owner", ...collaboratorRoles]);

export const courseSummarySchema = v.object({
  id: idField("course"),
  title: v.string(),
  description: v.string(),
  language: v.string(),
  audience: v.string(),
  level: v.nullable(v.string()),
  tags: v.array(v.string()),
  status: courseStatusField,
  version: v.number(),
  ownerSub: v.string(),
  role: v.pipe(courseRoleField, v.description("Your role on this course.")),
  createdAt: v.string(),
  updatedAt: v.string(),
});

export const lessonDocumentSchema = v.object({
  id: idField("lesson"),
  title: v.string(),
  kind: lessonKindField,
  passingScore: v.nullable(v.number()),
  maxAttempts: v.nullable(v.number()),
  estimatedMinutes: v.number(),
  estimatedMinutesIsSet: v.pipe(v.boolean(), v.description("True when an author set the estimate; false when it is derived from the content.")),
  derivedMinutes: v.pipe(v.number(), v.description("The estimate derived from the content, shown beside any value set.")),
  ...quizOptionsDocumentEntries,
  banner: v.optional(lessonBannerDocumentSchema),
  blockCount: v.number(),
  blocks: v.optional(v.array(storedBlockSchema)),
});

export const moduleDocumentSchema = v.object({
  id: idField("module"),
  title: v.string(),
  summary: v.string(),
  objectiveIds: v.array(v.string()),
  lessons: v.array(lessonDocumentSchema),
});

/** The latest publish of a course, as get_course and set_status report it. */
export const publicationSchema = v.object({
  version: v.pipe(v.number(), v.description("The course version that was published.")),
  publishedAt: v.string(),
  publishedBy: v.string(),
  hasUnpublishedChanges: v.pipe(
    v.boolean(),
    v.description("True when the draft's content differs from the published snapshot; set_status published again to publish it."),
  ),
});

export const courseDocumentSchema = v.object({
  ...courseSummarySchema.entries,
  objectives: v.array(objectiveSchema),
  collaborators: v.array(collaboratorSchema),
  numbering: v.picklist(courseNumberings),
  targetMinutes: v.nullable(v.number()),
  estimatedMinutes: v.pipe(v.number(), v.description("The course's length: its lessons' minutes (set or derived) summed.")),
  theme: v.nullable(themeSchema),
  modules: v.array(moduleDocumentSchema),
  publication: v.optional(
    v.pipe(publicationSchema, v.description("The latest published snapshot; get_course includes it once the course has been published.")),
  ),
});

export type CourseSummary = v.InferOutput<typeof courseSummarySchema>;
export type LessonDocument = v.InferOutput<typeof lessonDocumentSchema>;
export type ModuleDocument = v.InferOutput<typeof moduleDocumentSchema>;
export type CourseDocument = v.InferOutput<typeof courseDocumentSchema>;
export type PublicationSummary = v.InferOutput<typeof publicationSchema>;

/** A module's own fields, as module writes return them. */
export const moduleFieldsSchema = v.object({
  id: idField("module"),
  title: v.string(),
  summary: v.string(),
  objectiveIds: v.array(v.string()),
});

/** A lesson's own fields, as lesson writes return them; the estimate has the same shape as in get_course. */
export const lessonFieldsSchema = v.object({
  id: idField("lesson"),
  moduleId: idField("module"),
  title: v.string(),
  kind: lessonKindField,
  passingScore: v.nullable(v.number()),
  maxAttempts: v.nullable(v.number()),
  estimatedMinutes: v.number(),
  estimatedMinutesIsSet: v.boolean(),
  ...quizOptionsDocumentEntries,
  banner: v.optional(lessonBannerDocumentSchema),
});

export type ModuleFields = v.InferOutput<typeof moduleFieldsSchema>;
export type LessonFields = v.InferOutput<typeof lessonFieldsSchema>;
