/**
 * A question bank as a QTI 3.0 or 2.1 content package: one item file per question, one test per lesson
 * (a section whose selection and ordering carry the lesson's draw, an outcome processing that sums the
 * score and, with a pass mark, sets PASS), the pictures as package files under `images/`, the manifest
 * and `NOTICES.txt` naming what QTI could not carry.
 */
import type { PackagedAsset } from "../package/plan.ts";
import type { AssetSource } from "../package/types.ts";
import { el, xmlId, type XmlElement } from "../../codecs/xml-write.ts";
import type { ZipEntry } from "../../codecs/zip-write.ts";
import { BankNotices, commonNotices, notCarriedYet, type BankPool, type QuestionBank } from "../question-bank/bank.ts";
import { isCarriedByQti, qtiItem } from "./qti-items.ts";
import { itemIdentifier, qtiDialects, qtiDocument, type QtiVersion } from "./qti-names.ts";

export interface QtiPackageInput {
  readonly bank: QuestionBank;
  readonly version: QtiVersion;
  readonly assets: ReadonlyMap<string, PackagedAsset>;
  readonly source: AssetSource;
}

const imagePath = (asset: PackagedAsset): string => asset.path.replace(/^assets\//, "images/");
const itemFile = (blockId: string): string => `items/${itemIdentifier(blockId)}.xml`;
const testFile = (pool: BankPool): string => `tests/${xmlId("T", pool.lessonId)}.xml`;

const variable = (identifier: string): XmlElement => el("variable", { identifier });

function assessmentTest(pool: BankPool): XmlElement {
  const sumOf = (identifier: string): XmlElement => el("setOutcomeValue", { identifier }, el("sum", {}, el("testVariables", { variableIdentifier: identifier })));
  return el(
    "assessmentTest",
    { identifier: xmlId("T", pool.lessonId), title: pool.title, toolName: "Course Authoring Service", toolVersion: "1" },
    el("outcomeDeclaration", { identifier: "SCORE", cardinality: "single", baseType: "float" }, el("defaultValue", {}, el("value", {}, "0"))),
    el("outcomeDeclaration", { identifier: "MAXSCORE", cardinality: "single", baseType: "float" }, el("defaultValue", {}, el("value", {}, "0"))),
    pool.passingScore === null ? null : el("outcomeDeclaration", { identifier: "PASS", cardinality: "single", baseType: "boolean" }),
    el(
      "testPart",
      { identifier: "P1", navigationMode: "nonlinear", submissionMode: "simultaneous" },
      el("itemSessionControl", { maxAttempts: 1, showFeedback: "true", showSolution: "true" }),
      el(
        "assessmentSection",
        { identifier: xmlId("S", pool.lessonId), title: pool.title, visible: "true" },
        pool.drawCount === null ? null : el("selection", { select: pool.drawCount }),
        // Drawn questions come in a new order each attempt, as the player draws them.
        pool.drawCount === null ? null : el("ordering", { shuffle: "true" }),
        pool.questions.map((question) => el("assessmentItemRef", { identifier: itemIdentifier(question.id), href: `../${itemFile(question.id)}` })),
      ),
    ),
    el(
      "outcomeProcessing",
      {},
      sumOf("SCORE"),
      sumOf("MAXSCORE"),
      pool.passingScore === null
        ? null
        : el("setOutcomeValue", { identifier: "PASS" }, el("gte", {}, el("divide", {}, variable("SCORE"), variable("MAXSCORE")), el("baseValue", { baseType: "float" }, String(pool.passingScore / 100)))),
    ),
  );
}

function qtiNotices(bank: QuestionBank, notices: BankNotices, version: QtiVersion): void {
  commonNotices(bank, notices);
  for (const pool of bank.pools) {
    if (pool.maxAttempts !== null) notices.pool(pool, `the ${pool.maxAttempts} allowed attempt(s) are for the delivery system to set; the test allows one submission.`);
    for (const question of pool.questions) {
      if (!isCarriedByQti(question)) notCarriedYet(question, pool, notices, "QTI");
      if (question.type === "fill_in_blank") notices.question(question, pool, "typed answers are compared as typed; the player also ignores extra spaces.");
      if (question.type === "open_response") notices.question(question, pool, "the item sets no score: a grader scores the answer in the delivery system, with the model answer and rubric shown to scorers.");
      if (question.type === "likert") notices.question(question, pool, "an opinion scale: the item has no right answer and a maximum score of 0.");
      if (question.type === "numeric") notices.question(question, pool, "the delivery system reads the typed number; whether it accepts a decimal comma is its own.");
      if (question.type === "drag_onto_image" && question.labels.some((label) => label.image === undefined) && version === "qti21") {
        notices.question(question, pool, "QTI 2.1 labels are pictures: each text label is written as a picture of its text (QTI 3.0 keeps it as text).");
      }
    }
  }
}

export function qtiPackageEntries(input: QtiPackageInput): ZipEntry[] {
  const { bank, version } = input;
  const dialect = qtiDialects[version];
  const notices = new BankNotices();
  qtiNotices(bank, notices, version);
  const pictureHref = (picture: { assetId?: string | undefined; url?: string | undefined }): string => {
    const asset = picture.assetId ? input.assets.get(picture.assetId) : undefined;
    return asset ? `../${imagePath(asset)}` : (picture.url ?? "");
  };
  const namespaces = (root: XmlElement): XmlElement => ({
    ...root,
    attributes: { xmlns: dialect.namespace, "xmlns:xsi": "http://www.w3.org/2001/XMLSchema-instance", "xsi:schemaLocation": dialect.schemaLocation, ...root.attributes },
  });
  const entries: ZipEntry[] = [];
  const resources: XmlElement[] = [];
  for (const bankPool of bank.pools) {
    const pool = { ...bankPool, questions: bankPool.questions.filter(isCarriedByQti) };
    pool.questions.forEach((question, index) => {
      const path = itemFile(question.id);
      const item = qtiItem(question, { title: `${pool.title} ${index + 1}`, language: bank.language, shuffle: pool.shuffleChoices, pictureHref, version });
      entries.push({ path, body: qtiDocument(namespaces(item), dialect) });
      const pictures = assetIdsIn(question);
      const pictureFiles = [...new Set(pictures)].flatMap((assetId) => {
        const asset = input.assets.get(assetId);
        return asset ? [el("file", { href: imagePath(asset) })] : [];
      });
      resources.push(el("resource", { identifier: xmlId("RES", itemIdentifier(question.id)), type: dialect.itemResourceType, href: path }, el("file", { href: path }), pictureFiles));
    });
    const path = testFile(pool);
    entries.push({ path, body: qtiDocument(namespaces(assessmentTest(pool)), dialect) });
    resources.push(
      el(
        "resource",
        { identifier: xmlId("RES", xmlId("T", pool.lessonId)), type: dialect.testResourceType, href: path },
        el("file", { href: path }),
        pool.questions.map((question) => el("dependency", { identifierref: xmlId("RES", itemIdentifier(question.id)) })),
      ),
    );
  }
  const assets = [...input.assets.values()];
  const manifest = el(
    "manifest",
    { xmlns: dialect.manifestNamespace, "xmlns:xsi": "http://www.w3.org/2001/XMLSchema-instance", "xsi:schemaLocation": dialect.manifestSchemaLocation, identifier: xmlId("MANIFEST", bank.courseId) },
    el("metadata", {}, el("schema", {}, "QTI Package"), el("schemaversion", {}, dialect.schemaVersion)),
    el("organizations"),
    el("resources", {}, resources, assets.length > 0 ? el("resource", { identifier: "RES_images", type: "webcontent" }, assets.map((asset) => el("file", { href: imagePath(asset) }))) : null),
  );
  const formatName = version === "qti3" ? "QTI 3.0" : "QTI 2.1";
  return [
    { path: "imsmanifest.xml", body: qtiDocument(manifest, qtiDialects.qti21) },
    { path: "NOTICES.txt", body: notices.text(formatName) },
    ...entries,
    ...assets.map((asset) => ({ path: imagePath(asset), body: () => input.source.open(asset.assetId) })),
  ];
}

export function qtiPackageNotices(bank: QuestionBank, version: QtiVersion): readonly string[] {
  const notices = new BankNotices();
  qtiNotices(bank, notices, version);
  return notices.all;
}

/** Every asset a question names (a choice's, a hotspot's or a label's picture), wherever it sits. */
function assetIdsIn(value: unknown, found: string[] = [], depth = 0): string[] {
  if (depth > 8 || value === null || typeof value !== "object") return found;
  if (Array.isArray(value)) {
    for (const item of value) assetIdsIn(item, found, depth + 1);
    return found;
  }
  for (const [key, item] of Object.entries(value)) {
    if (key === "assetId" && typeof item === "string") found.push(item);
    else assetIdsIn(item, found, depth + 1);
  }
  return found;
}
