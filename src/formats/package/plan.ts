/**
 * Everything decided before the first byte is written: which SCOs (or cmi5 AUs) the package has, which
 * assets the blocks reference and where each lands in the package. A reference to a missing asset fails
 * here, naming the block, so a broken course gives a clear tool error rather than a broken package.
 */
import { packagedAssetName } from "../asset-names.ts";
import { CourseAuthoringError } from "../../course-authoring-error.ts";
import type { RenderableBlock, RenderableLesson, RenderableModule } from "../../render/types.ts";
import type { AssetInfo, AssetSource, ExportCourse, ScoMode } from "./types.ts";
import { xmlId } from "../../codecs/xml-write.ts";
import { themeAssetIds } from "../../render/theme.ts";

/** One launchable unit: the whole course, or one module, rendered as its own page. */
export interface ScoUnit {
  /** Identifier usable in manifests (`xs:ID`). */
  readonly identifier: string;
  readonly title: string;
  /** The page's path in the package. */
  readonly href: string;
  /** The course narrowed to what this unit shows. */
  readonly course: ExportCourse;
  readonly lessons: readonly RenderableLesson[];
  readonly quizLessons: readonly RenderableLesson[];
}

/** The quiz lesson that alone decides the course's success and score, if the course has one. */
export function finalAssessmentOf(course: ExportCourse): RenderableLesson | undefined {
  return course.modules.flatMap((module) => module.lessons).find((lesson) => lesson.kind === "quiz" && lesson.finalAssessment === true);
}

/**
 * The units of a package. With a final assessment, only its unit is graded (the others count towards
 * completion alone), and per-module packages give it a unit of its own after the modules, so SCORM
 * 2004 rollup and cmi5 moveOn take the course's success from it.
 */
export function scoUnits(course: ExportCourse, mode: ScoMode): ScoUnit[] {
  const final = finalAssessmentOf(course);
  const unit = (identifier: string, title: string, href: string, modules: readonly RenderableModule[]): ScoUnit => {
    const lessons = modules.flatMap((module) => module.lessons);
    const quizLessons = lessons.filter((lesson) => (final ? lesson === final : lesson.kind === "quiz"));
    return { identifier, title, href, course: { ...course, modules }, lessons, quizLessons };
  };
  if (mode === "course" || course.modules.length <= 1) return [unit("SCO_course", course.title, "index.html", course.modules)];
  const modules = course.modules
    .map((module) => ({ ...module, lessons: module.lessons.filter((lesson) => lesson !== final) }))
    .filter((module) => module.lessons.length > 0);
  const units = modules.map((module, index) => unit(xmlId("SCO", module.id), module.title, `module-${index + 1}.html`, [module]));
  if (!final) return units;
  const home = course.modules.find((module) => module.lessons.includes(final));
  return [...units, unit(xmlId("SCO", final.id), final.title, "final-assessment.html", [{ ...(home ?? { id: "final", title: final.title }), lessons: [final] }])];
}

/** Pass mark of a unit, 0-1, when it has exactly one quiz with a pass mark (the mastery score an LMS can use). */
export function unitMasteryScore(unit: ScoUnit): number | null {
  const [quiz, ...others] = unit.quizLessons;
  if (!quiz || others.length > 0 || typeof quiz.passingScore !== "number") return null;
  return Math.round(quiz.passingScore) / 100;
}

export interface AssetReference {
  readonly assetId: string;
  readonly blockId: string;
  readonly blockType: string;
  readonly lessonId: string;
  readonly lessonTitle: string;
  /** Where in the block, e.g. `assetId` or `captions.assetId`. */
  readonly field: string;
}

function referencesIn(value: unknown, path: string, found: (assetId: string, field: string) => void): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => referencesIn(item, `${path}[${index}]`, found));
    return;
  }
  if (typeof value !== "object" || value === null) return;
  for (const [key, child] of Object.entries(value)) {
    const field = path ? `${path}.${key}` : key;
    if (key === "assetId" && typeof child === "string") found(child, field);
    else referencesIn(child, field, found);
  }
}

export function assetReferences(course: ExportCourse): AssetReference[] {
  const references: AssetReference[] = [];
  for (const assetId of themeAssetIds(course.theme)) references.push({ assetId, blockId: "", blockType: "theme", lessonId: "", lessonTitle: "(course theme)", field: "theme" });
  for (const module of course.modules) {
    for (const lesson of module.lessons) {
      if (lesson.banner?.assetId) references.push({ assetId: lesson.banner.assetId, blockId: "", blockType: "lesson banner", lessonId: lesson.id, lessonTitle: lesson.title, field: "banner.assetId" });
      for (const block of lesson.blocks ?? ([] as readonly RenderableBlock[])) {
        referencesIn(block, "", (assetId, field) =>
          references.push({ assetId, blockId: block.id, blockType: block.type, lessonId: lesson.id, lessonTitle: lesson.title, field }),
        );
      }
    }
  }
  return references;
}

export interface PackagedAsset {
  readonly assetId: string;
  readonly info: AssetInfo;
  /** Path inside the package, e.g. `assets/ast_1-diagram.png`. */
  readonly path: string;
}

/**
 * `<assetId>-<safe stem>.<extension of the recognised type>`: the author's extension never survives, so
 * a file stored under a hostile name (`evil.html` holding captions) is written as `….vtt`, and only our
 * own pages are HTML in a package.
 */
export function packagedFileName(assetId: string, info: AssetInfo): string {
  return packagedAssetName(assetId, info.fileName, info.mimeType);
}

function brokenReferenceError(broken: readonly AssetReference[]): CourseAuthoringError {
  const [first] = broken;
  const described = broken
    .slice(0, 5)
    .map((reference) => `block ${reference.blockId} (${reference.blockType}, ${reference.field}) in lesson "${reference.lessonTitle}" references asset ${reference.assetId}`)
    .join("; ");
  const more = broken.length > 5 ? ` and ${broken.length - 5} more` : "";
  return new CourseAuthoringError(
    "invalid_state",
    `The course cannot be exported: ${described}${more}, which does not exist. Upload the asset again, or point the block at another asset or URL with update_block, then export again.`,
    { blockId: first?.blockId, lessonId: first?.lessonId, assetId: first?.assetId, brokenReferences: broken.slice(0, 50) },
  );
}

/** Looks up every referenced asset once; throws a tool error naming the blocks whose asset is missing. */
export async function resolveAssets(course: ExportCourse, source: AssetSource): Promise<Map<string, PackagedAsset>> {
  const references = assetReferences(course);
  const resolved = new Map<string, PackagedAsset>();
  const missing = new Set<string>();
  for (const assetId of new Set(references.map((reference) => reference.assetId))) {
    const info = await source.describe(assetId);
    if (info === null) missing.add(assetId);
    else resolved.set(assetId, { assetId, info, path: `assets/${packagedFileName(assetId, info)}` });
  }
  if (missing.size > 0) throw brokenReferenceError(references.filter((reference) => missing.has(reference.assetId)));
  return resolved;
}
