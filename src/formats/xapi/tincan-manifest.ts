/**
 * `tincan.xml`, the Tin Can package description LRS-based platforms import (the convention Articulate,
 * Storyline and Adapt follow): the course activity with its launch page, then each lesson and question
 * as an activity under the course's IRI, with the ids the player's statements use
 * (`page-contract/xapi-ids.ts`), so a platform can name them in its reports.
 */
import { el, xmlDocument, type XmlElement } from "../../codecs/xml-write.ts";
import { activityIri } from "../../page-contract/xapi-ids.ts";

export const tinCanNamespace = "http://projecttincan.com/tincan.xsd";

export interface TinCanInput {
  readonly courseIri: string;
  readonly title: string;
  readonly description: string;
  readonly language: string;
  readonly launch: string;
  readonly lessons: readonly { readonly id: string; readonly title: string }[];
  readonly questions: readonly { readonly id: string; readonly title: string }[];
}

function activity(id: string, type: string, language: string, name: string, ...more: (XmlElement | false)[]): XmlElement {
  return el("activity", { id, type }, el("name", { lang: language }, name || id), ...more);
}

export function tinCanManifest(input: TinCanInput): string {
  const { language } = input;
  const root = el(
    "tincan",
    { xmlns: tinCanNamespace },
    el(
      "activities",
      {},
      activity(
        input.courseIri,
        "http://adlnet.gov/expapi/activities/course",
        language,
        input.title,
        el("description", { lang: language }, input.description.trim() || input.title),
        el("launch", { lang: language }, input.launch),
      ),
      input.lessons.map((lesson) => activity(activityIri(input.courseIri, "lesson", lesson.id), "http://adlnet.gov/expapi/activities/lesson", language, lesson.title)),
      input.questions.map((question) => activity(activityIri(input.courseIri, "question", question.id), "http://adlnet.gov/expapi/activities/cmi.interaction", language, question.title)),
    ),
  );
  return xmlDocument(root);
}
