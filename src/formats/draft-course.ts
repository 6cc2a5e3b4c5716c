/**
 * What every import becomes before anything is written: the course as `create_course`'s nested
 * outline (objectives keyed by their source IDs so modules and questions can name them), the assets
 * to store, and labels that turn an outline path into words an author recognises ("block blk_… in
 * lesson …", "line 12"). Validation runs the domain's own schemas over the outline, so an import
 * accepts exactly what `create_course` would.
 */
import * as v from "valibot";
import { courseFieldEntries, moduleOutlineSchema, objectiveInputSchema } from "../authoring/schemas/course.ts";
import { limits } from "../authoring/schemas/fields.ts";
import { themeSchema } from "../authoring/schemas/theme.ts";
import { describeIssues, CourseAuthoringError } from "../course-authoring-error.ts";
import type { Notice } from "../notice.ts";

export const maxImportedModules = 500;

/** The most an imported file may hold, decoded. */
export const maxImportBytes = 10 * 1024 * 1024;

/** How a file given inline (not as an uploaded asset) is named in errors and reports. */
export const inlineFileName = "the file in contentBase64";

export const importedCourseSchema = v.object({
  ...courseFieldEntries,
  /** A JSON export's theme; its logo and cover image still name the source's asset IDs. */
  theme: v.optional(v.nullable(themeSchema), null),
  objectives: v.optional(
    v.pipe(v.array(objectiveInputSchema), v.maxLength(limits.objectivesPerCourse, `must have at most ${limits.objectivesPerCourse} objectives`)),
    [],
  ),
  modules: v.optional(v.pipe(v.array(moduleOutlineSchema), v.maxLength(maxImportedModules, `must have at most ${maxImportedModules} modules`)), []),
});
export type ImportedCourse = v.InferOutput<typeof importedCourseSchema>;

/** An asset carried by the import, already decoded and recognised from its bytes. */
export interface ImportedAsset {
  /** Its ID in the source; blocks reference it by this until it gets a new one. */
  readonly sourceId: string;
  readonly fileName: string;
  readonly mediaType: string;
  readonly bytes: Uint8Array;
}

export interface ImportPlan {
  /** The course as a nested outline, not yet validated. */
  readonly outline: Record<string, unknown>;
  readonly assets: readonly ImportedAsset[];
  /** Outline paths (`modules[0].lessons[1].blocks[2]`) and how to name them in an error. */
  readonly labels: ReadonlyMap<string, string>;
  /** What the import kept in another form or did not carry, for the author. */
  readonly notices: readonly Notice[];
  /** Outline paths of lessons and the line (paragraph, slide) each starts at, when the plan came from parts. */
  readonly lessonLines?: ReadonlyMap<string, number>;
}

/** The label of the longest labelled prefix of `path`, in parentheses, or "". */
export function labelOf(path: string, labels: ReadonlyMap<string, string>): string {
  let best = "";
  for (const prefix of labels.keys()) {
    const covers = path === prefix || path.startsWith(`${prefix}.`) || path.startsWith(`${prefix}[`);
    if (covers && prefix.length > best.length) best = prefix;
  }
  return best ? ` (${labels.get(best)})` : "";
}

/** Checks the outline with the domain's schemas; every problem is named by path and, where known, by block and lesson. */
export function validateImportedCourse(plan: ImportPlan): ImportedCourse {
  const parsed = v.safeParse(importedCourseSchema, plan.outline);
  if (parsed.success) return parsed.output;
  const { fields } = describeIssues(parsed.issues);
  const described = fields.slice(0, 10).map((field) => `${field.path}${labelOf(field.path, plan.labels)}: ${field.message}`);
  const more = fields.length > 10 ? `; and ${fields.length - 10} more` : "";
  throw new CourseAuthoringError("invalid_arguments", `content: the imported course is not valid, so nothing was imported: ${described.join("; ")}${more}`, {
    field: "content",
    fields: fields.slice(0, 50),
  });
}
