/**
 * What a read of a recently read course needs besides the course row — its content rows (objectives,
 * modules, lessons, blocks), its collaborators and its publication summary — kept per course and keyed
 * by the course row's `version` and `updatedAt`: every content change, share and publish goes through
 * `commitCourseEdit`, which steps both in the same transaction, so what is remembered for a version is
 * that version's on any replica. A read first loads the course row (it must, for access),
 * and reuses the rows only when that row still names the remembered version; otherwise it loads them
 * and remembers them. Only read transactions use it (`readAs`), and callers treat the rows as
 * read-only, as they already must. Bounded by rows in all, least recently used first out.
 */
import type { CollaboratorRow, CourseRow } from "../store/types.ts";
import type { CourseDocument, PublicationSummary } from "./schemas/course.ts";
import type { CourseRows } from "./read-model.ts";

type ContentRows = Omit<CourseRows, "course">;

/** Built documents, with and without blocks; `role` in them is the first reader's and is replaced per read. */
export interface BuiltDocuments {
  withBlocks?: CourseDocument;
  outline?: CourseDocument;
}

/** One course's remembered state; `publication` and `documents` are filled by the first read that computes them. */
export interface CourseReadState {
  rows: CourseRows;
  collaborators: readonly CollaboratorRow[];
  publication?: PublicationSummary | null;
  documents?: BuiltDocuments;
}

interface Entry {
  version: number;
  updatedAt: string;
  rows: ContentRows;
  collaborators: readonly CollaboratorRow[];
  publication?: PublicationSummary | null;
  documents: BuiltDocuments;
  size: number;
}

export class CourseRowsCache {
  private readonly entries = new Map<string, Entry>();
  private rowsHeld = 0;

  /** `maxRows`: rows held in all (a 10,000-block course is ~10,000); a larger course is not kept. */
  constructor(private readonly maxRows = 50_000) {}

  /** What is remembered of `course`, when it is of its current version. */
  get(course: CourseRow): CourseReadState | undefined {
    const entry = this.entries.get(course.id);
    if (entry === undefined) return undefined;
    if (entry.version !== course.version || entry.updatedAt !== course.updatedAt) {
      this.drop(course.id, entry);
      return undefined;
    }
    // Re-inserted: Map order is recency order, so eviction takes the least recently read.
    this.entries.delete(course.id);
    this.entries.set(course.id, entry);
    return { rows: { course, ...entry.rows }, collaborators: entry.collaborators, publication: entry.publication, documents: entry.documents };
  }

  /** Remembers the publication summary computed for `course` at its current version. */
  setPublication(course: CourseRow, publication: PublicationSummary | null): void {
    const entry = this.entries.get(course.id);
    if (entry && entry.version === course.version && entry.updatedAt === course.updatedAt) entry.publication = publication;
  }

  set(state: CourseReadState): void {
    const { course, ...content } = state.rows;
    const size = 1 + content.objectives.length + content.modules.length + content.lessons.length + content.blocks.length;
    if (size > this.maxRows) return;
    const previous = this.entries.get(course.id);
    if (previous) this.drop(course.id, previous);
    while (this.rowsHeld + size > this.maxRows) {
      const [oldestId, oldest] = this.entries.entries().next().value as [string, Entry];
      this.drop(oldestId, oldest);
    }
    this.entries.set(course.id, { version: course.version, updatedAt: course.updatedAt, rows: content, collaborators: state.collaborators, publication: state.publication, documents: state.documents ?? {}, size });
    this.rowsHeld += size;
  }

  private drop(id: string, entry: Entry): void {
    this.entries.delete(id);
    this.rowsHeld -= entry.size;
  }
}
