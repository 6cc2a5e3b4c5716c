/**
 * A review copy's bytes read into its notes: recognised as a Word document by its bytes, opened as the
 * bounded Office package, and read by `readReviewCopy`. Pure work on the file, with no store, so it
 * runs as a heavy-work job before the import's transaction opens.
 */
import { officeKindOf } from "../../import/office-import.ts";
import { OfficePackage, officeError } from "../../formats/office/office-package.ts";
import { readReviewCopy, type ReviewCopy } from "../../formats/review-copy/read-review-copy.ts";

export async function readReviewCopyFile(file: { fileName: string; bytes: Uint8Array }): Promise<ReviewCopy> {
  if ((await officeKindOf(file)) !== "docx") throw officeError(file.fileName, "is not a Word document (.docx); a review copy is the .docx export_course format docx_review made");
  return readReviewCopy(await OfficePackage.open(file.bytes, file.fileName, "docx"));
}
