/**
 * A course IRI the author chooses for the cmi5 and xAPI packages (export_course `courseIri`), and the
 * same IRI given when the learners' statements come back (import_results, connect_lrs `courseIri`), so
 * statements about `{courseIri}/questions/…` count as the course's. An absolute IRI without spaces or the
 * characters IRIs leave out, not ending in "/" (ids are appended after one), at most 500 characters.
 * Described once, on export_course: every tools/list carries the descriptions.
 */
import * as v from "valibot";

const courseIri = v.pipe(
  v.string("must be text"),
  v.maxLength(500, "must be at most 500 characters"),
  v.regex(/^[a-z][a-z0-9+.-]*:[^\s<>"{}|\\^`]+$/i, "must be an absolute IRI (scheme:…, e.g. https://example.org/courses/safety) without spaces"),
  v.check((text) => !text.endsWith("/"), "must not end with /"),
);

/** import_results and connect_lrs: statements under this IRI count too. */
export const courseIriField = v.optional(courseIri);

/** export_course: the IRI the cmi5 and xapi packages name the course and its activities by. */
export const exportCourseIriField = v.optional(v.pipe(courseIri, v.description("cmi5/xapi: course IRI for the statements (default urn:course-authoring-service:course:{courseId}); pass it to import_results/connect_lrs.")));
