/**
 * MCP tools for quality and publishing: validate_course (findings with rule IDs, locations and fixes)
 * and set_status (the review workflow, with publishing gated on validation).
 */
import * as v from "valibot";
import { readAs, writeAs, type AuthoringServices } from "../../authoring/services.ts";
import { setStatus, setStatusArguments, setStatusResultEntries } from "../../review/status.ts";
import { findingLine, ruleIds, validateCourseArguments, validateOpenedCourse, validationResultEntries } from "../../review/validation/index.ts";
import { setAccessibilityReview, setAccessibilityReviewArguments, setAccessibilityReviewResultEntries } from "../../review/accessibility/set-review.ts";
import { defineTool, type ToolDefinition } from "../registry.ts";
import { confirmField } from "../confirmations.ts";
import { getCourse } from "../../authoring/courses.ts";
import { behindLine } from "../../authoring/translation/translations.ts";
import { translationOfSchema } from "../../authoring/translation/arguments.ts";

const findingsInSummary = 20;

const validateCourseTool = defineTool<AuthoringServices, typeof validateCourseArguments>({
  name: "validate_course",
  toolset: "review",
  title: "Validate course",
  description:
    "Checks the draft for accessibility, quiz, structure and pacing problems. Findings, errors first (errors block publishing), each carry " +
    `ruleId, location (IDs, field, path) and a fix naming the tool. ${ruleIds.length} rules, by family: ${[...new Set(ruleIds.map((id) => id.split(".")[0]))].join(", ")} (e.g. image.missing_alt). ` +
    "text.reading_level: Flesch-Kincaid grade (English) against level and audience. Run it before set_status published. A translation reports its untranslated and outdated units.",
  input: validateCourseArguments,
  output: v.object({
    ...validationResultEntries,
    translationOf: v.optional(translationOfSchema),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async handler(args, { user, services }) {
    const result = await readAs(services, user, async (session) => {
      const { validation, translationOf } = await validateOpenedCourse(session, args);
      return translationOf ? { ...validation, translationOf } : validation;
    });
    const translated =
      "translationOf" in result && result.translationOf
        ? ` Translation of ${result.translationOf.courseId} (follows its version ${result.translationOf.sourceVersion} of ${result.translationOf.currentSourceVersion}): ${result.translationOf.untranslated} unit(s) untranslated, ${result.translationOf.outdated} outdated.${behindLine(result.translationOf)}`
        : "";
    const { error, warning, info } = result.counts;
    const lines = result.findings.slice(0, findingsInSummary).map((finding) => `- ${findingLine(finding)}`);
    const more = result.findings.length > findingsInSummary || result.truncated ? "\n- … (see structuredContent.findings)" : "";
    const blocking = result.conformance.flatMap((group) => group.failing).slice(0, 10);
    const waiting = result.conformance.reduce((sum, group) => sum + group.waitingForPerson.length, 0);
    const conformance = `\nWCAG 2.2 A/AA: ${result.conformance.reduce((sum, group) => sum + group.supports, 0)} supported, ${blocking.length ? `failing ${blocking.join("; ")}` : "none failing"}, ${waiting} waiting for a person (set_accessibility_review).`;
    const verdict = result.publishable ? "no errors: it can be published" : "errors block publishing";
    return {
      structuredContent: result,
      summary: `Course ${result.courseId} v${result.version}: ${error} error(s), ${warning} warning(s), ${info} info — ${verdict}.${translated}${conformance}${lines.length ? `\n${lines.join("\n")}${more}` : ""}`,
    };
  },
});

const setStatusInput = v.object({ ...setStatusArguments.entries, confirm: confirmField });

const setStatusTool = defineTool<AuthoringServices, typeof setStatusInput>({
  name: "set_status",
  toolset: "review",
  title: "Set course status",
  description:
    "Moves a course through review and publishing. draft ⇄ in_review, and draft or in_review → published, are for editors and owners; published only when " +
    "validate_course finds no errors, else invalid_state lists the blocking findings with their fixes. Publishing stores an immutable snapshot used by " +
    "get_course { variant: \"published\" }, previews and exports of the published course. Editing continues on the draft; " +
    "publication.hasUnpublishedChanges tells when it differs, and set_status published again publishes it. Any status → archived and archived → draft " +
    "are the owner's; archived courses are read-only. Each change is a revision and a new version.",
  input: setStatusInput,
  output: v.object(setStatusResultEntries),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async confirm(args, { user, services }) {
    if (args.status !== "archived") return undefined;
    const course = await readAs(services, user, (session) => getCourse(session, { courseId: args.courseId, includeBlocks: false }));
    if (course.status === "archived") return undefined;
    return `Archive course "${course.title}" (${course.id}, now ${course.status})? It becomes read-only for everyone until its owner moves it back to draft.`;
  },
  async handler(args, { user, services }) {
    const result = await writeAs(services, user, (session) => setStatus(session, args));
    const what = result.changed
      ? result.status === "published"
        ? `Published course ${result.courseId} as version ${result.version}`
        : `Course ${result.courseId} moved from ${result.previousStatus} to ${result.status} (version ${result.version})`
      : `Course ${result.courseId} is already ${result.status}${result.status === "published" ? " with no unpublished changes" : ""}; nothing changed`;
    const notes = [
      result.warnings > 0 ? `${result.warnings} warning(s) remain (validate_course lists them)` : "",
      result.openComments > 0 ? `${result.openComments} open comment(s) (list_comments)` : "",
    ].filter(Boolean);
    return { structuredContent: result, summary: `${what}.${notes.length ? ` ${notes.join("; ")}.` : ""}` };
  },
});

const setAccessibilityReviewTool = defineTool<AuthoringServices, typeof setAccessibilityReviewArguments>({
  name: "set_accessibility_review",
  toolset: "review",
  title: "Record an accessibility answer",
  description:
    "Records a person's answer for one WCAG 2.2 criterion in the course's accessibility report (export_course acr): level, remarks (plain text), who and when. " +
    "It decides the level while the blocks it covers stay unchanged; after a change it shows as stale.",
  input: setAccessibilityReviewArguments,
  output: v.object(setAccessibilityReviewResultEntries),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler(args, { user, services }) {
    const result = await writeAs(services, user, (session) => setAccessibilityReview(session, args));
    return { structuredContent: result, summary: `Recorded ${result.criterion} ${result.handle}: ${result.level} (by ${result.by}, ${result.at}); course version ${result.version}.` };
  },
});

export const reviewTools: ToolDefinition<AuthoringServices>[] = [validateCourseTool, setStatusTool, setAccessibilityReviewTool];
