/** Where a finding is, for people (`path`) and for the fix tool calls (the ids and the field). */
import * as v from "valibot";

export const findingLocationSchema = v.object({
  path: v.pipe(v.string(), v.description('Where, for people: Module 2 "Safety" › Lesson 2.1 "Fire drills" › Block 3 (image).')),
  moduleId: v.optional(v.string()),
  lessonId: v.optional(v.string()),
  blockId: v.optional(v.string()),
  objectiveId: v.optional(v.string()),
  field: v.optional(v.pipe(v.string(), v.description("The field to change, e.g. alt, choices[2].text, captions."))),
});
export type FindingLocation = v.InferOutput<typeof findingLocationSchema>;
