/**
 * `imsmanifest.xml` for an IMS Common Cartridge 1.3: course metadata in the CC LOM profile, one
 * rooted-hierarchy organization (module folders holding one item per lesson), a `webcontent` resource
 * per content lesson, a QTI `assessment` resource per quiz lesson, and the shared media as a webcontent
 * resource the lesson pages depend on.
 */
import type { RenderableLesson } from "../../render/types.ts";
import type { ExportCourse } from "../package/types.ts";
import { el, xmlDocument, xmlId, type XmlElement } from "../../codecs/xml-write.ts";

export const ccNamespace = "http://www.imsglobal.org/xsd/imsccv1p3/imscp_v1p1";
export const ccLomManifestNamespace = "http://ltsc.ieee.org/xsd/imsccv1p3/LOM/manifest";
export const assessmentResourceType = "imsqti_xmlv1p2/imscc_xmlv1p3/assessment";

/** Where one lesson lives in the cartridge. */
export interface CartridgeLesson {
  readonly lesson: RenderableLesson;
  /** The lesson page (content lessons) or the QTI file (quiz lessons). */
  readonly path: string;
  readonly isAssessment: boolean;
  /** A quiz lesson's web page beside its QTI, holding the blocks QTI 1.2 cannot express (a scenario, a sorting…). */
  readonly webPath?: string;
}

export interface CartridgeInput {
  readonly course: ExportCourse;
  readonly lessons: ReadonlyMap<string, CartridgeLesson>;
  readonly assetPaths: readonly string[];
}

const sharedResourceId = "RES_web_resources";

function lessonResource(entry: CartridgeLesson, hasAssets: boolean): XmlElement[] {
  const identifier = xmlId("RES", entry.lesson.id);
  const web = (id: string, path: string): XmlElement =>
    el("resource", { identifier: id, type: "webcontent", href: path }, el("file", { href: path }), hasAssets && el("dependency", { identifierref: sharedResourceId }));
  if (!entry.isAssessment) return [web(identifier, entry.path)];
  // The assessment's pictured choices name files of the shared web resources.
  const assessment = el("resource", { identifier, type: assessmentResourceType }, el("file", { href: entry.path }), hasAssets && el("dependency", { identifierref: sharedResourceId }));
  return entry.webPath ? [assessment, web(xmlId("RES", `${entry.lesson.id}_web`), entry.webPath)] : [assessment];
}

function lessonItems(entry: CartridgeLesson | undefined): XmlElement[] {
  if (!entry) return [];
  const { lesson } = entry;
  const item = el("item", { identifier: xmlId("ITEM", lesson.id), identifierref: xmlId("RES", lesson.id) }, el("title", {}, lesson.title));
  if (!entry.webPath) return [item];
  return [item, el("item", { identifier: xmlId("ITEM", `${lesson.id}_web`), identifierref: xmlId("RES", `${lesson.id}_web`) }, el("title", {}, `${lesson.title} (interactive activities)`))];
}

export function ccManifest(input: CartridgeInput): string {
  const { course } = input;
  const language = course.language ?? "en";
  const hasAssets = input.assetPaths.length > 0;
  const description = (course.description ?? "").trim();
  const root = el(
    "manifest",
    {
      identifier: xmlId("MANIFEST", course.id),
      xmlns: ccNamespace,
      "xmlns:lomimscc": ccLomManifestNamespace,
      "xmlns:xsi": "http://www.w3.org/2001/XMLSchema-instance",
      "xsi:schemaLocation": `${ccNamespace} http://www.imsglobal.org/profile/cc/ccv1p3/ccv1p3_imscp_v1p2_v1p0.xsd ${ccLomManifestNamespace} http://www.imsglobal.org/profile/cc/ccv1p3/LOM/ccv1p3_lommanifest_v1p0.xsd`,
    },
    el(
      "metadata",
      {},
      el("schema", {}, "IMS Common Cartridge"),
      el("schemaversion", {}, "1.3.0"),
      el(
        "lomimscc:lom",
        {},
        el(
          "lomimscc:general",
          {},
          el("lomimscc:title", {}, el("lomimscc:string", { language }, course.title)),
          description ? el("lomimscc:description", {}, el("lomimscc:string", { language }, description)) : null,
        ),
      ),
    ),
    el(
      "organizations",
      {},
      el(
        "organization",
        { identifier: xmlId("ORG", course.id), structure: "rooted-hierarchy" },
        el(
          "item",
          { identifier: "ITEM_root" },
          course.modules.map((module) =>
            el(
              "item",
              { identifier: xmlId("ITEM", module.id) },
              el("title", {}, module.title),
              module.lessons.flatMap((lesson) => lessonItems(input.lessons.get(lesson.id))),
            ),
          ),
        ),
      ),
    ),
    el(
      "resources",
      {},
      [...input.lessons.values()].flatMap((entry) => lessonResource(entry, hasAssets)),
      hasAssets && el("resource", { identifier: sharedResourceId, type: "webcontent" }, input.assetPaths.map((path) => el("file", { href: path }))),
    ),
  );
  return xmlDocument(root);
}
