/**
 * Course-level operations: updating the course's own fields, and replacing its list of learning
 * objectives. Objectives that disappear are unlinked from the modules and questions that named them,
 * so no reference ever dangles.
 */
import * as v from "valibot";
import type { ObjectiveRow } from "../../store/types.ts";
import { roleOnCourse } from "../access.ts";
import type { CourseEdit } from "../course-edit.ts";
import { invalidArgument } from "../errors.ts";
import { resolveTheme } from "../theme.ts";
import { positionGap } from "../ordering.ts";
import { courseSummary } from "../read-model.ts";
import { courseSummarySchema, courseUpdateEntries, objectiveSchema, objectiveTextField } from "../schemas/course.ts";
import { idField, limits } from "../schemas/fields.ts";
import { defineOperation, findInCourse } from "./operation.ts";

export const updateCourse = defineOperation({
  name: "update_course",
  arguments: v.object(courseUpdateEntries),
  result: { course: courseSummarySchema },
  async apply(edit, args) {
    const { theme: themeInput, ...fields } = args;
    const resolved = themeInput === undefined ? null : await resolveTheme(edit, themeInput);
    await edit.update("course", edit.course, resolved ? { ...fields, theme: resolved.theme } : fields);
    const role = (await roleOnCourse(edit.session, edit.course)) ?? edit.role;
    const changed = Object.keys(args).filter((key) => args[key as keyof typeof args] !== undefined);
    return { result: { course: courseSummary(edit.course, role) }, summary: `Updated course ${changed.join(", ") || "(nothing)"}${resolved?.note ?? ""}` };
  },
});

export const setObjectives = defineOperation({
  name: "set_objectives",
  arguments: v.object({
    objectives: v.pipe(
      v.array(
        v.object({
          id: v.optional(v.pipe(idField("objective"), v.description("Keep an existing objective (and its links) by giving its ID; omit for a new one."))),
          text: objectiveTextField,
        }),
      ),
      v.maxLength(limits.objectivesPerCourse, `must have at most ${limits.objectivesPerCourse} objectives`),
      v.description("The complete, ordered list. Existing objectives left out are deleted and unlinked from modules and questions."),
    ),
  }),
  result: { objectives: v.array(objectiveSchema), unlinked: v.object({ modules: v.number(), blocks: v.number() }) },
  async apply(edit, args) {
    const existing = await edit.tx.listChildren("objective", edit.course.id);
    const kept = new Set<string>();
    const objectives: ObjectiveRow[] = [];
    for (const [index, input] of args.objectives.entries()) {
      const position = (index + 1) * positionGap;
      if (input.id === undefined) {
        objectives.push(await edit.insert("objective", { id: edit.session.newId("objective"), courseId: edit.course.id, position, text: input.text }));
        continue;
      }
      if (kept.has(input.id)) throw invalidArgument(`objectives[${index}].id`, `${input.id} is listed twice; list each objective once`);
      const current = await findInCourse(edit, "objective", input.id, `objectives[${index}].id`);
      kept.add(current.id);
      objectives.push(await edit.update("objective", current, { position, text: input.text }));
    }
    const removed = new Set(existing.filter((objective) => !kept.has(objective.id)).map((objective) => objective.id));
    for (const objective of existing) if (removed.has(objective.id)) await edit.remove("objective", objective);
    const unlinked = removed.size > 0 ? await unlinkObjectives(edit, removed) : { modules: 0, blocks: 0 };
    return {
      result: { objectives: objectives.map((objective) => ({ id: objective.id, text: objective.text })), unlinked },
      summary: `Set ${objectives.length} objective(s); removed ${removed.size}`,
    };
  },
});

async function unlinkObjectives(edit: CourseEdit, removed: ReadonlySet<string>): Promise<{ modules: number; blocks: number }> {
  let modules = 0;
  let blocks = 0;
  for (const module of await edit.tx.listChildren("module", edit.course.id)) {
    if (!module.objectiveIds.some((id) => removed.has(id))) continue;
    await edit.update("module", module, { objectiveIds: module.objectiveIds.filter((id) => !removed.has(id)) });
    modules++;
  }
  for (const block of await edit.tx.listInCourse("block", edit.course.id)) {
    const linked = block.body.objectiveIds;
    if (!Array.isArray(linked) || !linked.some((id) => typeof id === "string" && removed.has(id))) continue;
    await edit.update("block", block, { body: { ...block.body, objectiveIds: linked.filter((id) => !(typeof id === "string" && removed.has(id))) } });
    blocks++;
  }
  return { modules, blocks };
}

export const courseOperations = [updateCourse, setObjectives];
