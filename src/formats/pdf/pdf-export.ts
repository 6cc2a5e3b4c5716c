/**
 * The two PDF exports, course in, PDF bytes out: `pdf_handout` (the whole course, written twice so the
 * contents can print the page each heading landed on) and `pdf_job_aid` (the key points on at most two
 * pages, leaving out the last points until they fit and saying so). Pictures are read from the asset
 * source: PNG and JPEG are drawn; others (and pictures at a web address, which are not fetched) are
 * printed as their alt text, and the author is told.
 */
import { defaultThemeColors } from "../../authoring/schemas/theme.ts";
import type { AssetSource, ExportCourse } from "../package/types.ts";
import { handoutNodes } from "./course-handout.ts";
import { jobAidNodes, jobAidPoints } from "./job-aid.ts";
import { pdfLabels } from "./pdf-labels.ts";
import type { PdfNode } from "./pdf-nodes.ts";
import { writePdf, type PdfInput, type PdfWritten } from "./pdf-write.ts";

export const pdfFormats = ["pdf_handout", "pdf_job_aid"] as const;
export type PdfFormat = (typeof pdfFormats)[number];

export interface PdfExportOptions {
  readonly format: PdfFormat;
  /** pdf_handout: the quiz's answers at the end. */
  readonly answerKey?: boolean;
  readonly assets: AssetSource;
  readonly onNotice?: (notice: string) => void;
}

/** Pictures larger than this are printed as their alt text (a handout is not a photo album). */
const pictureByteLimit = 20 * 1024 * 1024;
const jobAidPages = 2;

async function bytesOf(body: Uint8Array | ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return body instanceof Uint8Array ? body : new Uint8Array(await new Response(body).arrayBuffer());
}

/** The PNG and JPEG pictures the nodes place, read once each. */
async function pictures(nodes: readonly PdfNode[], source: AssetSource): Promise<Map<string, Uint8Array>> {
  const found = new Map<string, Uint8Array>();
  for (const node of nodes) {
    const assetId = node.kind === "figure" ? node.picture.assetId : undefined;
    if (!assetId || found.has(assetId)) continue;
    const info = await source.describe(assetId);
    if (!info || !/^image\/(png|jpeg)$/i.test(info.mimeType) || (info.size ?? 0) > pictureByteLimit) continue;
    found.set(assetId, await bytesOf(await source.open(assetId)));
  }
  return found;
}

function tell(written: PdfWritten, options: PdfExportOptions): void {
  if (written.undrawnPictures > 0) {
    options.onNotice?.(`${written.undrawnPictures} picture(s) are printed as their alt text: only uploaded PNG and JPEG pictures are drawn in a PDF (pictures at a web address are not fetched).`);
  }
  if (written.missingCharacters > 0) {
    options.onNotice?.(`${written.missingCharacters} character(s) are printed as "?": the PDF's font (Atkinson Hyperlegible) covers Latin scripts only.`);
  }
}

export async function buildPdfExport(course: ExportCourse, options: PdfExportOptions): Promise<Uint8Array> {
  const language = course.language ?? "en";
  const { labels, own } = pdfLabels(language);
  if (!own) options.onNotice?.(`The PDF's own headings (contents, page numbers, answer key) are in English: there are none in ${language} yet (en, fr, de, es).`);
  const theme = course.theme ?? {};
  const look = { primary: theme.primaryColor ?? defaultThemeColors.primaryColor, accent: theme.accentColor ?? defaultThemeColors.accentColor, text: theme.textColor ?? defaultThemeColors.textColor };
  const base = (nodes: readonly PdfNode[], found: Map<string, Uint8Array>, footerName: string): PdfInput => ({
    title: options.format === "pdf_job_aid" ? `${labels.jobAid}: ${course.title}` : course.title,
    language,
    ...(course.description ? { subject: course.description.replace(/[*_`#>[\]]/g, "").slice(0, 300) } : {}),
    nodes,
    look,
    footer: (page, pages) => `${footerName} · ${labels.page(page, pages)}`,
    pictures: found,
  });
  if (options.format === "pdf_handout") {
    const nodes = handoutNodes(course, { labels, answerKey: options.answerKey === true });
    const found = await pictures(nodes, options.assets);
    const first = await writePdf(base(nodes, found, course.title));
    const written = await writePdf({ ...base(nodes, found, course.title), anchorPages: first.anchorPages });
    tell(written, options);
    return written.bytes;
  }
  const points = jobAidPoints(course, labels);
  let keep = points.length;
  let nodes = jobAidNodes(course, labels, points, keep);
  const found = await pictures(nodes, options.assets);
  let written = await writePdf(base(nodes, found, labels.jobAid));
  // Fewer points until it fits: first by the share that fitted, then one at a time.
  while (written.pages > jobAidPages && keep > 0) {
    keep = Math.min(keep - 1, Math.floor((keep * jobAidPages) / written.pages));
    nodes = jobAidNodes(course, labels, points, Math.max(0, keep));
    written = await writePdf(base(nodes, found, labels.jobAid));
  }
  if (keep < points.length) {
    const left = points.slice(Math.max(0, keep)).map((point) => point.name);
    options.onNotice?.(`The job aid holds ${jobAidPages} pages: ${left.length} part(s) left out: ${left.slice(0, 12).join("; ")}${left.length > 12 ? ` and ${left.length - 12} more` : ""}.`);
  }
  tell(written, options);
  return written.bytes;
}
