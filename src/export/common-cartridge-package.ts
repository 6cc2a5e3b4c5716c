/**
 * Zip entries of an IMS Common Cartridge 1.3: the manifest, one rendered page per content lesson (the
 * LMS shows each as its own item, and the page opens on that lesson), one QTI 1.2 assessment per quiz lesson, and the media under
 * `web_resources/`. Pages and assets are produced one at a time as the zip is written.
 */
import { ccManifest, type CartridgeLesson } from "../formats/common-cartridge/imscc-manifest.ts";
import { qtiAssessment } from "../formats/qti/qti-manifest.ts";
import type { PackagedAsset } from "../formats/package/plan.ts";
import { lessonLaunchAdapter } from "./runtime/adapters.ts";
import type { AssetSource, CourseRenderer, ExportCourse } from "../formats/package/types.ts";
import type { ZipEntry } from "../codecs/zip-write.ts";
import { declaredImageOrigins, withPictureOrigins } from "../render/index.ts";

export interface CartridgeOptions {
  readonly course: ExportCourse;
  readonly assets: ReadonlyMap<string, PackagedAsset>;
  readonly source: AssetSource;
  readonly renderer: CourseRenderer;
  /** Told about quiz questions the CC QTI profile cannot carry (matching, ordering, several blanks). */
  /** `asWebContent`: the lesson also went in as a web page that holds the left-out blocks. */
  readonly onSkippedQuestions?: (lessonId: string, blockIds: readonly string[], asWebContent: boolean) => void;
  /** Told about a quiz setting QTI 1.2 in a cartridge cannot carry (the draw, the pass mark). */
  readonly onNotice?: (notice: string) => void;
}

function webResourcePath(asset: PackagedAsset): string {
  return asset.path.replace(/^assets\//, "web_resources/");
}

/** Blocks QTI 1.2 cannot express; a quiz lesson holding any also goes in as a web page beside its QTI. */
const teachingBlockTypes = new Set(["scenario", "sorting", "labeled_graphic", "process", "timeline", "attachment", "continue"]);

function safeSegment(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, "_");
}

export function cartridgeEntries(options: CartridgeOptions): ZipEntry[] {
  const { course } = options;
  const lessons = new Map<string, CartridgeLesson>();
  const lessonEntries: ZipEntry[] = [];
  const assetUrl = (assetId: string): string => {
    const asset = options.assets.get(assetId);
    return asset ? `../${webResourcePath(asset)}` : "";
  };
  // Pictures on choices: `$IMS-CC-FILEBASE$` is the cartridge's web_resources folder.
  const pictureHref = (picture: { assetId?: string; url?: string }): string => {
    const asset = picture.assetId ? options.assets.get(picture.assetId) : undefined;
    return asset ? `$IMS-CC-FILEBASE$/${webResourcePath(asset).replace(/^web_resources\//, "")}` : (picture.url ?? "");
  };
  for (const module of course.modules) {
    for (const lesson of module.lessons) {
      // A quiz with no question the CC QTI profile can carry stays a page, so the cartridge never has an empty assessment.
      // The platform shows the assessment's HTML without our page's policy, so Markdown pictures keep to the declared hosts here.
      const assessment = lesson.kind === "quiz" ? withPictureOrigins(declaredImageOrigins(course), () => qtiAssessment(lesson, { pictureHref, language: course.language ?? "en" })) : null;
      const webPath = `lessons/${safeSegment(lesson.id)}.html`;
      const single: ExportCourse = { ...course, modules: [{ ...module, lessons: [lesson] }] };
      // Each page also holds the introduction; the launch script opens it on its own lesson.
      const webEntry: ZipEntry = { path: webPath, body: () => Promise.resolve(options.renderer(single, { assetUrl, mode: "package", imageOrigins: declaredImageOrigins(single), lmsAdapter: lessonLaunchAdapter(lesson.id) })) };
      if (assessment && assessment.includedQuestions > 0) {
        const path = `assessments/${safeSegment(lesson.id)}/assessment.xml`;
        const beyondQti = (lesson.blocks ?? []).filter((block) => teachingBlockTypes.has(block.type)).map((block) => block.id);
        lessons.set(lesson.id, { lesson, path, isAssessment: true, ...(beyondQti.length > 0 ? { webPath } : {}) });
        const skipped = [...new Set([...assessment.skippedBlockIds, ...beyondQti])];
        if (skipped.length > 0) options.onSkippedQuestions?.(lesson.id, skipped, beyondQti.length > 0);
        lessonEntries.push({ path, body: assessment.xml });
        if (typeof lesson.drawCount === "number") {
          options.onNotice?.(`Quiz lesson ${lesson.id}: the draw of ${lesson.drawCount} question(s) per attempt${lesson.drawByObjective ? " by objective" : ""} is not carried (the cartridge's QTI 1.2 profile has no selection); learners get all ${assessment.includedQuestions} question(s).`);
        }
        if (typeof lesson.passingScore === "number") options.onNotice?.(`Quiz lesson ${lesson.id}: the pass mark of ${lesson.passingScore}% is not carried (the cartridge's QTI 1.2 profile has none); set it in the LMS.`);
        if (beyondQti.length > 0) lessonEntries.push(webEntry);
        continue;
      }
      lessons.set(lesson.id, { lesson, path: webPath, isAssessment: false });
      lessonEntries.push(webEntry);
    }
  }
  const assets = [...options.assets.values()];
  return [
    { path: "imsmanifest.xml", body: ccManifest({ course, lessons, assetPaths: assets.map(webResourcePath) }) },
    ...lessonEntries,
    ...assets.map((asset) => ({ path: webResourcePath(asset), body: () => options.source.open(asset.assetId) })),
  ];
}
