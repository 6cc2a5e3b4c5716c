/**
 * Everything `import_course` does to the bytes before anything is written: the source decoded and
 * recognised (text, base64, a zip holding one document, Word or PowerPoint), planned as a course and
 * validated with `create_course`'s schemas. Pure work on the input, with no store and no session, so
 * it runs as a heavy-work job off the request loop; the result is plain data the write then stores.
 */
import type { Notice } from "../notice.ts";
import { planFromJsonExport } from "../formats/course-json/json-read.ts";
import { planFromMarkdown } from "../formats/markdown/markdown-outline.ts";
import type { OfficeReport } from "../formats/office/office-content.ts";
import { officeKindOf, planFromOffice } from "./office-import.ts";
import { validateImportedCourse, type ImportedAsset, type ImportedCourse as ValidatedOutline, type ImportPlan } from "../formats/draft-course.ts";
import { readImportSource, type ImportSource } from "./source.ts";
import { pictureThumbnail, type Thumbnail } from "../codecs/thumbnail.ts";
import { planFromPdf } from "../formats/pdf/pdf-read.ts";
import { inlineFileName } from "../formats/draft-course.ts";

export interface PlannedImport {
  readonly importedFrom: "json" | "markdown" | "docx" | "pptx" | "pdf";
  readonly archiveEntry?: string;
  readonly sourceName: string;
  readonly validated: ValidatedOutline;
  readonly assets: readonly ImportedAsset[];
  readonly labels: ReadonlyMap<string, string>;
  readonly notices: readonly Notice[];
  readonly officeReport?: OfficeReport & { speakerNotes: number };
  readonly lessonNotes: readonly { path: string; text: string }[];
  /** The pictures the model is shown once, small, so it can write their alt text (the first few; the rest named). */
  readonly pictures: readonly PlannedPicture[];
}

export interface PlannedPicture {
  readonly sourceId: string;
  readonly fileName: string;
  readonly thumbnail: Thumbnail | null;
}

/** Pictures shown to the model per import; the rest are named without a thumbnail. */
export const picturesShown = 8;

/** The import's pictures, the first `picturesShown` with a thumbnail each. */
async function plannedPictures(assets: readonly ImportedAsset[]): Promise<PlannedPicture[]> {
  const pictures: PlannedPicture[] = [];
  for (const asset of assets.filter((candidate) => candidate.mediaType.startsWith("image/"))) {
    const thumbnail = pictures.length < picturesShown ? await pictureThumbnail(asset.bytes, asset.mediaType) : null;
    pictures.push({ sourceId: asset.sourceId, fileName: asset.fileName, thumbnail });
  }
  return pictures;
}

/** The planned, validated course from one import's source (its `file` already read from the store when given). */
export async function planImport(input: ImportSource & { title?: string | undefined }): Promise<PlannedImport> {
  const document = await readImportSource(input, officeKindOf);
  if (document.kind === "pdf") {
    const fallbackTitle = document.fileName === inlineFileName ? "Imported course" : document.fileName.replace(/\.[^.]*$/, "").replace(/[_-]+/g, " ").trim() || "Imported course";
    const pdf = await planFromPdf(document, input.title, fallbackTitle);
    return { ...planned(pdf), pictures: await plannedPictures(pdf.assets), importedFrom: "pdf", sourceName: `the PDF ${document.fileName}`, officeReport: { ...pdf.report, speakerNotes: 0 }, lessonNotes: [] };
  }
  if (document.kind === "office") {
    const office = await planFromOffice(document, document.officeKind, input.title);
    return {
      ...planned(office),
      pictures: await plannedPictures(office.assets),
      importedFrom: document.officeKind,
      sourceName: `${document.officeKind === "docx" ? "the Word document" : "the PowerPoint deck"} ${document.fileName}`,
      officeReport: { ...office.report, speakerNotes: office.lessonNotes.length },
      lessonNotes: office.lessonNotes,
    };
  }
  const plan = document.kind === "json" ? await planFromJsonExport(document.text, input.title) : await planFromMarkdown(document.text, input.title);
  return {
    ...planned(plan),
    pictures: await plannedPictures(plan.assets),
    importedFrom: document.kind,
    ...(document.entry ? { archiveEntry: document.entry } : {}),
    sourceName: document.container === "zip" ? `${document.kind} in a zip archive (${document.entry})` : document.kind === "json" ? "a JSON export" : "a Markdown outline",
    lessonNotes: [],
  };
}

/** Only the plan's data: a plan may be a class instance, which does not cross to another thread whole. */
function planned(plan: ImportPlan): Pick<PlannedImport, "validated" | "assets" | "labels" | "notices"> {
  return { validated: validateImportedCourse(plan), assets: [...plan.assets], labels: new Map(plan.labels), notices: [...plan.notices] };
}
