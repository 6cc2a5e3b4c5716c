/**
 * A review copy's bytes read into its notes: recognised as a Word document by its bytes, opened as the
 * bounded Office package, and read by `readReviewCopy`. Pure work on the file, with no store, so it
 * runs as a heavy-work job before the import's transaction opens.
 */
import { CourseAuthoringError } from "../course-authoring-error.ts";
import { OfficePackage, officeError, officeKindOf } from "../formats/office/office-package.ts";
import { readReviewCopy, type ReviewCopy } from "../formats/review-copy/read-review-copy.ts";

/** `courseId`: the course the copy must be of; a copy of another is refused from its properties, before its document is read. */
export async function readReviewCopyFile(file: { fileName: string; bytes: Uint8Array; courseId?: string | undefined }): Promise<ReviewCopy> {
  if ((await officeKindOf(file)) !== "docx") throw officeError(file.fileName, "is not a Word document (.docx); a review copy is the .docx export_course format docx_review made");
  return readReviewCopy(await OfficePackage.open(file.bytes, file.fileName, "docx"), (identity) => {
    if (file.courseId !== undefined && identity.courseId !== file.courseId) throw copyOfAnotherCourse(file.fileName, identity.courseId, file.courseId);
  });
}

function copyOfAnotherCourse(fileName: string, copyOf: string, courseId: string): CourseAuthoringError {
  return new CourseAuthoringError("invalid_arguments", `assetId: ${fileName} is a review copy of course ${copyOf}, not of ${courseId}; its comments can only go to the course it was made from. Nothing was imported.`, {
    field: "assetId",
    file: fileName,
    copyOf,
  });
}
