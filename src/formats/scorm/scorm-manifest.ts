/**
 * `imsmanifest.xml` for SCORM 1.2 (IMS CP 1.1.2 + ADL CP 1.2) and SCORM 2004 4th Edition (IMS CP 1.1.4 +
 * ADL CP/SEQ/NAV 1.3 + IMS Simple Sequencing). One item and one SCO resource per unit (the course, or
 * each module); the media every page uses is one shared `asset` resource the SCOs depend on.
 */
import type { ScoUnit } from "../package/plan.ts";
import { el, xmlDocument, xmlId, type XmlElement } from "../../codecs/xml-write.ts";

export interface ManifestInput {
  readonly courseId: string;
  readonly courseTitle: string;
  readonly version: number;
  readonly units: readonly ScoUnit[];
  /** Package paths of the shared media, in a stable order. */
  readonly assetPaths: readonly string[];
}

const sharedAssetsId = "RES_shared_assets";

function resourceFiles(unit: ScoUnit): XmlElement[] {
  return [el("file", { href: unit.href })];
}

function assetResource(input: ManifestInput, scormTypeAttribute: string): XmlElement | null {
  if (input.assetPaths.length === 0) return null;
  return el(
    "resource",
    { identifier: sharedAssetsId, type: "webcontent", [scormTypeAttribute]: "asset" },
    input.assetPaths.map((path) => el("file", { href: path })),
  );
}

function dependencies(input: ManifestInput): XmlElement[] {
  return input.assetPaths.length === 0 ? [] : [el("dependency", { identifierref: sharedAssetsId })];
}

export function scorm12Manifest(input: ManifestInput): string {
  const organizationId = xmlId("ORG", input.courseId);
  const root = el(
    "manifest",
    {
      identifier: xmlId("MANIFEST", input.courseId),
      version: String(input.version),
      xmlns: "http://www.imsproject.org/xsd/imscp_rootv1p1p2",
      "xmlns:adlcp": "http://www.adlnet.org/xsd/adlcp_rootv1p2",
      "xmlns:xsi": "http://www.w3.org/2001/XMLSchema-instance",
      "xsi:schemaLocation":
        "http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.imsglobal.org/xsd/imsmd_rootv1p2p1 imsmd_rootv1p2p1.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd",
    },
    el("metadata", {}, el("schema", {}, "ADL SCORM"), el("schemaversion", {}, "1.2")),
    el(
      "organizations",
      { default: organizationId },
      el(
        "organization",
        { identifier: organizationId },
        el("title", {}, input.courseTitle),
        input.units.map((unit) =>
          el("item", { identifier: `ITEM_${unit.identifier}`, identifierref: `RES_${unit.identifier}`, isvisible: "true" }, el("title", {}, unit.title)),
        ),
      ),
    ),
    el(
      "resources",
      {},
      input.units.map((unit) =>
        el(
          "resource",
          { identifier: `RES_${unit.identifier}`, type: "webcontent", "adlcp:scormtype": "sco", href: unit.href },
          resourceFiles(unit),
          dependencies(input),
        ),
      ),
      assetResource(input, "adlcp:scormtype"),
    ),
  );
  return xmlDocument(root);
}

/**
 * Sequencing: the learner may choose any unit and flow forward; each unit's own SCO reports completion
 * and success, which the default rollup (SN 4.6.5: all children satisfied → satisfied, any not
 * satisfied → not satisfied; the same for completion) carries to the course.
 */
function organizationSequencing(): XmlElement {
  return el("imsss:sequencing", {}, el("imsss:controlMode", { choice: "true", flow: "true" }));
}

/**
 * Which items count, said in each item's rollup controls. Every unit counts towards completion. Only a
 * graded unit (one with a quiz lesson) counts towards the course's success and score: an ungraded one
 * never reports success (`unknown`), and if it took part in satisfaction rollup the course could never
 * be satisfied. Content sets both statuses (`*SetByContent`), so the LMS never marks a unit passed or
 * completed on its own when the learner merely exits.
 */
function itemSequencing(unit: ScoUnit): XmlElement {
  const graded = unit.quizLessons.length > 0;
  return el(
    "imsss:sequencing",
    {},
    el("imsss:rollupRules", { rollupObjectiveSatisfied: graded ? "true" : "false", rollupProgressCompletion: "true", objectiveMeasureWeight: graded ? "1" : "0" }),
    graded && el("imsss:objectives", {}, el("imsss:primaryObjective", { objectiveID: `PRIMARY_${unit.identifier}`, satisfiedByMeasure: "false" })),
    el("imsss:deliveryControls", { tracked: "true", completionSetByContent: "true", objectiveSetByContent: "true" }),
  );
}

export function scorm2004Manifest(input: ManifestInput): string {
  const organizationId = xmlId("ORG", input.courseId);
  const root = el(
    "manifest",
    {
      identifier: xmlId("MANIFEST", input.courseId),
      version: String(input.version),
      xmlns: "http://www.imsglobal.org/xsd/imscp_v1p1",
      "xmlns:adlcp": "http://www.adlnet.org/xsd/adlcp_v1p3",
      "xmlns:adlseq": "http://www.adlnet.org/xsd/adlseq_v1p3",
      "xmlns:adlnav": "http://www.adlnet.org/xsd/adlnav_v1p3",
      "xmlns:imsss": "http://www.imsglobal.org/xsd/imsss",
      "xmlns:xsi": "http://www.w3.org/2001/XMLSchema-instance",
      "xsi:schemaLocation":
        "http://www.imsglobal.org/xsd/imscp_v1p1 imscp_v1p1.xsd http://www.adlnet.org/xsd/adlcp_v1p3 adlcp_v1p3.xsd http://www.adlnet.org/xsd/adlseq_v1p3 adlseq_v1p3.xsd http://www.adlnet.org/xsd/adlnav_v1p3 adlnav_v1p3.xsd http://www.imsglobal.org/xsd/imsss imsss_v1p0.xsd",
    },
    el("metadata", {}, el("schema", {}, "ADL SCORM"), el("schemaversion", {}, "2004 4th Edition")),
    el(
      "organizations",
      { default: organizationId },
      el(
        "organization",
        { identifier: organizationId, "adlseq:objectivesGlobalToSystem": "false" },
        el("title", {}, input.courseTitle),
        input.units.map((unit) => el("item", { identifier: `ITEM_${unit.identifier}`, identifierref: `RES_${unit.identifier}` }, el("title", {}, unit.title), itemSequencing(unit))),
        organizationSequencing(),
      ),
    ),
    el(
      "resources",
      {},
      input.units.map((unit) =>
        el(
          "resource",
          { identifier: `RES_${unit.identifier}`, type: "webcontent", "adlcp:scormType": "sco", href: unit.href },
          resourceFiles(unit),
          dependencies(input),
        ),
      ),
      assetResource(input, "adlcp:scormType"),
    ),
  );
  return xmlDocument(root);
}
