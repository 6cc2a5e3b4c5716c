/**
 * Zip entries of the packages whose learner page is the rendered course: SCORM 1.2, SCORM 2004, cmi5
 * and the plain HTML site. Each unit's page is rendered only when the zip reaches it (lesson by lesson
 * with a chunked renderer), and each asset is opened only when its entry is written, so memory holds
 * one lesson's markup or one asset at a time.
 */
import { cmi5Manifest } from "../formats/cmi5/cmi5-manifest.ts";
import { scorm12Manifest, scorm2004Manifest, type ManifestInput } from "../formats/scorm/scorm-manifest.ts";
import type { PackagedAsset, ScoUnit } from "../formats/package/plan.ts";
import { cmi5Adapter, reviewLayer, scormAdapter, tinCanAdapter, type LmsAdapter } from "./runtime/adapters.ts";
import { questionFacts } from "./runtime/question-facts.ts";
import { tinCanManifest } from "../formats/xapi/tincan-manifest.ts";
import { unitMasteryScore } from "../formats/package/plan.ts";
import type { ReviewRoundInfo } from "../page-contract/review.ts";
import { schemaEntries, scorm12SchemaFiles, scorm2004SchemaFiles } from "../formats/package/schemas.ts";
import type { AssetSource, CourseRenderer, ExportCourse } from "../formats/package/types.ts";
import type { ZipEntry } from "../codecs/zip-write.ts";
import { declaredImageOrigins } from "../render/index.ts";
import { toBase64 } from "../bytes.ts";

export interface WebPackageInput {
  readonly course: ExportCourse;
  readonly units: readonly ScoUnit[];
  readonly assets: ReadonlyMap<string, PackagedAsset>;
  readonly source: AssetSource;
  readonly renderer: CourseRenderer;
}

type AssetUrl = (assetId: string) => string;

function pageEntries(
  input: WebPackageInput,
  lmsAdapter: LmsAdapter | undefined,
  connectSources?: readonly string[],
  inlined?: () => Promise<ReadonlyMap<string, string>>,
  reviewAnchors?: boolean,
): ZipEntry[] {
  const packagePath: AssetUrl = (assetId) => input.assets.get(assetId)?.path ?? "";
  return input.units.map((unit) => ({
    path: unit.href,
    body: async () => {
      const dataUrls = inlined ? await inlined() : new Map<string, string>();
      const assetUrl: AssetUrl = (assetId) => dataUrls.get(assetId) ?? packagePath(assetId);
      return input.renderer(unit.course, {
        assetUrl,
        mode: "package",
        imageOrigins: declaredImageOrigins(unit.course),
        ...(lmsAdapter === undefined ? {} : { lmsAdapter }),
        ...(connectSources === undefined ? {} : { connectSources }),
        ...(reviewAnchors ? { reviewAnchors } : {}),
      });
    },
  }));
}

/** Captions files larger than this stay a file beside the page (they still work when served over HTTP). */
const inlineCaptionsLimit = 512 * 1024;

async function bytesOf(body: Uint8Array | ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return body instanceof Uint8Array ? body : new Uint8Array(await new Response(body).arrayBuffer());
}

/**
 * WebVTT captions as `data:` URLs. A page opened from disk (`file://`) may not fetch a `<track>` file
 * beside it (browsers treat every file as its own origin and text tracks need a same-origin or CORS
 * load), so the HTML export carries the captions inside the page. Read once, on the first page.
 */
function inlinedCaptions(input: WebPackageInput): () => Promise<ReadonlyMap<string, string>> {
  let loaded: Promise<Map<string, string>> | null = null;
  const load = async (): Promise<Map<string, string>> => {
    const urls = new Map<string, string>();
    for (const asset of input.assets.values()) {
      const isCaptions = asset.info.mimeType.toLowerCase() === "text/vtt";
      if (!isCaptions || (asset.info.size !== undefined && asset.info.size > inlineCaptionsLimit)) continue;
      const bytes = await bytesOf(await input.source.open(asset.assetId));
      if (bytes.byteLength <= inlineCaptionsLimit) urls.set(asset.assetId, `data:text/vtt;base64,${toBase64(bytes)}`);
    }
    return urls;
  };
  return () => (loaded ??= load());
}

function assetEntries(input: WebPackageInput): ZipEntry[] {
  return [...input.assets.values()].map((asset) => ({ path: asset.path, body: () => input.source.open(asset.assetId) }));
}

function manifestInput(input: WebPackageInput): ManifestInput {
  return {
    courseId: input.course.id,
    courseTitle: input.course.title,
    version: input.course.version ?? 1,
    units: input.units,
    assetPaths: [...input.assets.values()].map((asset) => asset.path),
  };
}

export function scorm12Entries(input: WebPackageInput): ZipEntry[] {
  return [
    { path: "imsmanifest.xml", body: scorm12Manifest(manifestInput(input)) },
    ...schemaEntries(scorm12SchemaFiles),
    ...pageEntries(input, scormAdapter("1.2", input.course)),
    ...assetEntries(input),
  ];
}

export function scorm2004Entries(input: WebPackageInput): ZipEntry[] {
  return [
    { path: "imsmanifest.xml", body: scorm2004Manifest(manifestInput(input)) },
    ...schemaEntries(scorm2004SchemaFiles),
    ...pageEntries(input, scormAdapter("2004", input.course)),
    ...assetEntries(input),
  ];
}

export interface Cmi5Options {
  /** The course's IRI, under which AU and objective IRIs are minted. */
  readonly courseIri: string;
  /** Origins the AU may send statements to (the LRS is only named at launch). */
  readonly lrsOrigins: readonly string[];
}

export function cmi5Entries(input: WebPackageInput, options: Cmi5Options): ZipEntry[] {
  const manifest = cmi5Manifest({
    courseTitle: input.course.title,
    courseDescription: input.course.description ?? "",
    language: input.course.language ?? "en",
    courseIri: options.courseIri,
    objectives: input.course.objectives,
    units: input.units,
  });
  return [{ path: "cmi5.xml", body: manifest }, ...pageEntries(input, cmi5Adapter(input.course, options.courseIri), options.lrsOrigins), ...assetEntries(input)];
}

/**
 * The xAPI (Tin Can) package: `tincan.xml` and one page for the whole course, launched with the Tin Can
 * parameters (endpoint, auth, actor, registration); it sends what the cmi5 AU sends, with the same ids.
 */
export function xapiEntries(input: WebPackageInput, options: Cmi5Options): ZipEntry[] {
  const [unit] = input.units;
  const lessons = input.course.modules.flatMap((module) => module.lessons.map((lesson) => ({ id: lesson.id, title: lesson.title })));
  const questions = Object.entries(questionFacts(input.course)).map(([id, facts]) => ({ id, title: facts.description }));
  const manifest = tinCanManifest({
    courseIri: options.courseIri,
    title: input.course.title,
    description: input.course.description ?? "",
    language: input.course.language ?? "en",
    launch: unit?.href ?? "index.html",
    lessons,
    questions,
  });
  const adapter = tinCanAdapter(input.course, options.courseIri, unit ? unitMasteryScore(unit) : null);
  return [{ path: "tincan.xml", body: manifest }, ...pageEntries(input, adapter, options.lrsOrigins), ...assetEntries(input)];
}

export function htmlSiteEntries(input: WebPackageInput): ZipEntry[] {
  return [...pageEntries(input, undefined, undefined, inlinedCaptions(input)), ...assetEntries(input)];
}

/**
 * The review package: the HTML site (it works from `file://`) whose page also carries the comment layer,
 * a bundle of its own run after the player, so learner pages never carry it.
 */
export function htmlReviewEntries(input: WebPackageInput, round: ReviewRoundInfo): ZipEntry[] {
  return [...pageEntries(input, reviewLayer(input.course, round), undefined, inlinedCaptions(input), true), ...assetEntries(input)];
}
