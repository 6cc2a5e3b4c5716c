/**
 * `cmi5.xml`, the cmi5 course structure: the course, its objectives, and one AU for the course or one
 * per module. An AU with quiz lessons moves on when completed and passed (with the quiz's pass mark as
 * mastery score when it has exactly one quiz); an AU without quizzes moves on when completed.
 */
import { unitMasteryScore, type ScoUnit } from "../package/plan.ts";
import { el, xmlDocument, type XmlElement } from "../../codecs/xml-write.ts";

export const cmi5Namespace = "https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd";

export interface Cmi5Input {
  readonly courseTitle: string;
  readonly courseDescription: string;
  readonly language: string;
  /** The course's IRI; AU and objective IRIs are built under it. */
  readonly courseIri: string;
  readonly objectives: readonly { readonly id: string; readonly text: string }[];
  readonly units: readonly ScoUnit[];
  readonly launchMethod?: "AnyWindow" | "OwnWindow";
}

export function auIri(courseIri: string, unit: ScoUnit): string {
  return `${courseIri}/au/${encodeURIComponent(unit.identifier)}`;
}

function objectiveIri(courseIri: string, objectiveId: string): string {
  return `${courseIri}/objectives/${encodeURIComponent(objectiveId)}`;
}

function text(name: string, language: string, value: string): XmlElement {
  return el(name, {}, el("langstring", { lang: language }, value));
}

/** Objective IDs a unit's modules cover, in course order, limited to objectives that exist. */
function unitObjectiveIds(unit: ScoUnit, known: ReadonlySet<string>): string[] {
  const ids = unit.course.modules.flatMap((module) => module.objectiveIds ?? []);
  return [...new Set(ids)].filter((id) => known.has(id));
}

export function cmi5Manifest(input: Cmi5Input): string {
  const known = new Set(input.objectives.map((objective) => objective.id));
  const description = input.courseDescription.trim() || input.courseTitle;
  const root = el(
    "courseStructure",
    { xmlns: cmi5Namespace },
    el("course", { id: input.courseIri }, text("title", input.language, input.courseTitle), text("description", input.language, description)),
    input.objectives.length > 0 &&
      el(
        "objectives",
        {},
        input.objectives.map((objective) =>
          el("objective", { id: objectiveIri(input.courseIri, objective.id) }, text("title", input.language, objective.text), text("description", input.language, objective.text)),
        ),
      ),
    input.units.map((unit) => {
      const mastery = unitMasteryScore(unit);
      const objectiveIds = unitObjectiveIds(unit, known);
      return el(
        "au",
        {
          id: auIri(input.courseIri, unit),
          moveOn: unit.quizLessons.length > 0 ? "CompletedAndPassed" : "Completed",
          masteryScore: mastery === null ? undefined : String(mastery),
          launchMethod: input.launchMethod ?? "AnyWindow",
        },
        text("title", input.language, unit.title),
        text("description", input.language, unit.lessons.map((lesson) => lesson.title).join(" · ") || unit.title),
        objectiveIds.length > 0 && el("objectives", {}, objectiveIds.map((id) => el("objective", { idref: objectiveIri(input.courseIri, id) }))),
        el("url", {}, unit.href),
      );
    }),
  );
  return xmlDocument(root);
}
