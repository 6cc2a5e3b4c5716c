/**
 * The question-bank formats a course's questions are read from, named apart from their readers
 * (`read-bank.ts`), so listing them loads no reader.
 */
export const bankImportFormats = ["qti3", "qti21", "moodle_xml", "gift"] as const;
export type BankImportFormat = (typeof bankImportFormats)[number];
