/**
 * The activity ids and extensions our xAPI statements use, shared by the player (which sends them) and the
 * statements reader (`formats/xapi/`, which brings them back): ids under the course's IRI name the thing they
 * are about by its stable id, so the results of two versions of a course, or of its cmi5 and xAPI packages, join.
 */

/** `{courseIri}/questions/{blockId}`, `{courseIri}/lessons/{lessonId}`, `{courseIri}/videos/{blockId}`. */
export const activityPaths = { question: "questions", lesson: "lessons", video: "videos" } as const;

export type ActivityKind = keyof typeof activityPaths;

export function activityIri(courseIri: string, kind: ActivityKind, id: string): string {
  return `${courseIri}/${activityPaths[kind]}/${encodeURIComponent(id)}`;
}

/** The attempt at a quiz ("Try again" starts the next), 1 for the first (TinCan registry's attempt-id). */
export const attemptExtension = "http://id.tincanapi.com/extension/attempt-id";
/** The course version the package was exported from. */
export const courseVersionExtension = "urn:course-authoring-service:xapi:course-version";

export const xapiVerbs = {
  initialized: "http://adlnet.gov/expapi/verbs/initialized",
  launched: "http://adlnet.gov/expapi/verbs/launched",
  attempted: "http://adlnet.gov/expapi/verbs/attempted",
  experienced: "http://adlnet.gov/expapi/verbs/experienced",
  answered: "http://adlnet.gov/expapi/verbs/answered",
  completed: "http://adlnet.gov/expapi/verbs/completed",
  passed: "http://adlnet.gov/expapi/verbs/passed",
  failed: "http://adlnet.gov/expapi/verbs/failed",
  terminated: "http://adlnet.gov/expapi/verbs/terminated",
  voided: "http://adlnet.gov/expapi/verbs/voided",
  played: "https://w3id.org/xapi/video/verbs/played",
} as const;
