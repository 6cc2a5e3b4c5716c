/**
 * The statements reader as a heavy-work job: the file's bytes (or text) decoded and read off the request
 * loop. Plain input and output, so it crosses a worker thread's boundary.
 */
import { CourseAuthoringError } from "../../course-authoring-error.ts";
import { maxStatementsFileBytes, readStatements, type ReadStatementsResult } from "./statements-read.ts";

export interface ReadStatementsJobInput {
  readonly bytes?: Uint8Array;
  readonly text?: string;
  readonly courseIris: readonly string[];
  readonly salt: string;
  readonly field: string;
  readonly alreadyRead?: number;
}

export async function readStatementsJob(input: ReadStatementsJobInput): Promise<ReadStatementsResult> {
  if (input.bytes && input.bytes.byteLength > maxStatementsFileBytes) {
    throw new CourseAuthoringError("limit_exceeded", `${input.field}: the statements file is ${input.bytes.byteLength} bytes; at most ${maxStatementsFileBytes} are read.`, { field: input.field, limit: maxStatementsFileBytes });
  }
  let text = input.text ?? "";
  if (input.bytes) {
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(input.bytes).replace(/^\uFEFF/, "");
    } catch {
      throw new CourseAuthoringError("invalid_arguments", `${input.field}: is not UTF-8 text; expected an xAPI statements file (JSON).`, { field: input.field });
    }
  }
  return readStatements({ text, courseIris: input.courseIris, salt: input.salt, field: input.field, ...(input.alreadyRead !== undefined ? { alreadyRead: input.alreadyRead } : {}) });
}
