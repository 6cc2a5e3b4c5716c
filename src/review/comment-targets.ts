/**
 * What a comment is attached to: the course, a module, a lesson or a block, named by ID (the prefix
 * says which). Resolving a target finds where it is now — so a comment follows its block through
 * edits and moves — or reports it gone. A resolver caches modules and lessons, so listing a page of
 * comments reads each parent once.
 */
import type { CommentTargetKind, CourseRow, JsonValue, LessonRow, ModuleRow } from "../store/types.ts";
import type { AuthoringSession } from "../authoring/context.ts";
import { idPattern } from "../authoring/ids.ts";

export const targetIdPattern = idPattern("course", "module", "lesson", "block");

const kindByPrefix: Record<string, CommentTargetKind> = { crs: "course", mod: "module", les: "lesson", blk: "block" };

export function targetKindOf(targetId: string): CommentTargetKind {
  return kindByPrefix[targetId.slice(0, 3)] ?? "block";
}

export interface ResolvedTarget {
  kind: CommentTargetKind;
  id: string;
  moduleId?: string;
  lessonId?: string;
  /** Where it is, for people: Module "Safety" › Lesson "Fire drills" › Block blk_… (image). */
  path: string;
  /** The target's own text, to find a quoted passage in. */
  text: string;
}

export class TargetResolver {
  private readonly modules = new Map<string, ModuleRow | undefined>();
  private readonly lessons = new Map<string, LessonRow | undefined>();

  constructor(
    private readonly session: AuthoringSession,
    private readonly course: CourseRow,
  ) {}

  /** Where the target is now, or null when it is not (or no longer) part of this course. */
  async resolve(kind: CommentTargetKind, id: string): Promise<ResolvedTarget | null> {
    if (kind === "course") return id === this.course.id ? { kind, id, path: "Course", text: `${this.course.title}\n${this.course.description}` } : null;
    if (kind === "module") {
      const module = await this.module(id);
      return module ? { kind, id, moduleId: module.id, path: moduleLabel(module), text: `${module.title}\n${module.summary}` } : null;
    }
    if (kind === "lesson") {
      const lesson = await this.lesson(id);
      const module = lesson && (await this.module(lesson.moduleId));
      return lesson && module ? { kind, id, moduleId: module.id, lessonId: lesson.id, path: lessonLabel(module, lesson), text: lesson.title } : null;
    }
    const block = await this.session.tx.find("block", id);
    const lesson = block && block.courseId === this.course.id ? await this.lesson(block.lessonId) : undefined;
    const module = lesson && (await this.module(lesson.moduleId));
    if (!block || !lesson || !module) return null;
    return { kind, id, moduleId: module.id, lessonId: lesson.id, path: `${lessonLabel(module, lesson)} › Block ${block.id} (${block.type})`, text: stringsOf(block.body).join("\n") };
  }

  private async module(id: string): Promise<ModuleRow | undefined> {
    if (!this.modules.has(id)) {
      const row = await this.session.tx.find("module", id);
      this.modules.set(id, row?.courseId === this.course.id ? row : undefined);
    }
    return this.modules.get(id);
  }

  private async lesson(id: string): Promise<LessonRow | undefined> {
    if (!this.lessons.has(id)) {
      const row = await this.session.tx.find("lesson", id);
      this.lessons.set(id, row?.courseId === this.course.id ? row : undefined);
    }
    return this.lessons.get(id);
  }
}

function moduleLabel(module: ModuleRow): string {
  return `Module "${module.title}"`;
}

function lessonLabel(module: ModuleRow, lesson: LessonRow): string {
  return `${moduleLabel(module)} › Lesson "${lesson.title}"`;
}

function stringsOf(value: JsonValue): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(stringsOf);
  return [];
}

/** Case, spacing and Markdown emphasis are ignored, so a passage copied from the rendered page matches. */
function comparable(text: string): string {
  return text.replace(/[*_`~]/g, "").replace(/\s+/g, " ").trim().toLowerCase();
}

export function containsQuote(text: string, quote: string): boolean {
  return comparable(text).includes(comparable(quote));
}
