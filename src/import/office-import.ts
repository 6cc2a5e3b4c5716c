/**
 * Word and PowerPoint files for import: the uploaded asset read with the person's access to its course
 * (authoring/uploaded-files.ts), its bytes recognised again (formats/office: the stored type is not trusted
 * over the bytes, and the name must agree), then opened as the package the bytes say it is and planned as
 * a draft course.
 */
import { CourseAuthoringError } from "../course-authoring-error.ts";
import { inlineFileName } from "../formats/draft-course.ts";
import { planFromDocx } from "../formats/office/docx.ts";
import type { OfficePlan } from "../formats/office/office-content.ts";
import { OfficePackage, type OfficeKind } from "../formats/office/office-package.ts";
import { planFromPptx } from "../formats/office/pptx.ts";

export { officeKindOf, officeMediaTypes } from "../formats/office/office-package.ts";
export { readUploadedFile, type UploadedFile } from "../authoring/uploaded-files.ts";

export async function planFromOffice(file: { fileName: string; bytes: Uint8Array }, kind: OfficeKind, title: string | undefined): Promise<OfficePlan> {
  const officePackage = await OfficePackage.open(file.bytes, file.fileName, kind);
  const fallbackTitle = file.fileName === inlineFileName ? "Imported course" : file.fileName.replace(/\.[^.]*$/, "").replace(/[_-]+/g, " ").trim() || "Imported course";
  try {
    return kind === "docx" ? await planFromDocx(officePackage, title, fallbackTitle) : await planFromPptx(officePackage, title, fallbackTitle);
  } catch (error) {
    if (error instanceof CourseAuthoringError && error.message.startsWith("content: ")) {
      throw new CourseAuthoringError(error.code, `${file.fileName}: ${error.message.slice("content: ".length)}`, { ...error.details, file: file.fileName });
    }
    throw error;
  }
}
