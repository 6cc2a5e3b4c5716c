/**
 * Markup for image, video and audio blocks. A source is an uploaded asset (resolved by the caller's
 * `assetUrl`) or an author URL (http(s) only); a source that fails its URL policy is left out rather
 * than rendered. Media get native controls, WebVTT captions as one `<track>` per language, and the transcript in a
 * disclosure under the player.
 */
import type { Block } from "../authoring/schemas/blocks.ts";
import type { RenderContext } from "./context.ts";
import { html, type SafeHtml } from "./html.ts";
import { markdownHtml } from "./markdown.ts";
import { uiText } from "./ui-text.ts";
import { isSafeAssetUrl, isSafeMediaUrl } from "./urls.ts";
import { ClassName, DataName } from "../page-contract/markup-names.ts";

type BlockOf<Type extends Block["type"]> = Extract<Block, { type: Type }>;

interface MediaSource {
  readonly assetId?: string | undefined;
  readonly url?: string | undefined;
}

/** The URL to load, or null when there is none or it is not allowed. */
export function mediaSourceUrl(source: MediaSource | undefined, context: RenderContext): string | null {
  if (source?.assetId !== undefined) {
    const url = context.options.assetUrl(source.assetId);
    return isSafeAssetUrl(url) ? url : null;
  }
  if (source?.url !== undefined) return isSafeMediaUrl(source.url) ? source.url : null;
  return null;
}

export function renderImageBlock(block: BlockOf<"image">, context: RenderContext): SafeHtml {
  const src = mediaSourceUrl(block, context);
  const alt = block.decorative ? "" : (block.alt ?? "");
  const image = src === null ? "" : html`<img src="${src}" alt="${alt}" loading="lazy" decoding="async">`;
  const caption = block.caption ? html`<figcaption>${block.caption}</figcaption>` : "";
  return html`<figure class="${ClassName.block} media image">${image}${caption}</figure>`;
}

/** The language's name in the page's language ("Deutsch", "Englisch"), or the tag when the runtime has no name for it. */
function languageName(tag: string, pageLanguage: string): string {
  try {
    return new Intl.DisplayNames([pageLanguage], { type: "language" }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}

const primary = (tag: string) => tag.toLowerCase().split("-")[0];

/**
 * One `<track>` per caption language, each labelled with its own language; the page language's track
 * (or, failing that, the first) is the default, the others are the player's choices.
 */
function captionsTracks(block: BlockOf<"video"> | BlockOf<"audio">, context: RenderContext, courseLanguage: string): SafeHtml[] {
  const tracks = [
    ...(block.captions ? [{ source: block.captions, language: block.captions.language ?? courseLanguage }] : []),
    ...(block.captionTracks ?? []).map((track) => ({ source: track, language: track.language })),
  ]
    .map((track) => ({ ...track, src: mediaSourceUrl(track.source, context) }))
    .filter((track): track is { source: MediaSource; language: string; src: string } => track.src !== null);
  const exact = tracks.findIndex((track) => track.language.toLowerCase() === courseLanguage.toLowerCase());
  const chosen = exact >= 0 ? exact : Math.max(0, tracks.findIndex((track) => primary(track.language) === primary(courseLanguage)));
  return tracks.map(
    (track, index) =>
      html`<track kind="captions" src="${track.src}" srclang="${track.language}" label="${uiText.captions} (${languageName(track.language, courseLanguage)})"${index === chosen ? html` default` : ""}>`,
  );
}

function transcript(block: BlockOf<"video"> | BlockOf<"audio">): SafeHtml | "" {
  if (!block.transcript) return "";
  const about = block.title ? html`<span class="${ClassName.visuallyHidden}">: ${block.title}</span>` : "";
  return html`<details class="${ClassName.transcript}"><summary>${uiText.transcript}${about}</summary><div class="transcript-body">${markdownHtml(block.transcript)}</div></details>`;
}

function mediaTitle(block: BlockOf<"video"> | BlockOf<"audio">): SafeHtml | "" {
  return block.title ? html`<figcaption>${block.title}</figcaption>` : "";
}

export function renderVideoBlock(block: BlockOf<"video">, context: RenderContext, courseLanguage: string): SafeHtml {
  const src = mediaSourceUrl(block, context);
  const poster = mediaSourceUrl(block.poster, context);
  const label = block.title ? html` aria-label="${block.title}"` : "";
  const player =
    src === null
      ? ""
      : html`<video controls preload="metadata" playsinline src="${src}"${poster === null ? "" : html` poster="${poster}"`}${label} data-${DataName.videoId}="${block.id}">${captionsTracks(block, context, courseLanguage)}<p>${uiText.noMediaSupport}</p></video>`;
  return html`<figure class="${ClassName.block} media video">${player}${mediaTitle(block)}${transcript(block)}</figure>`;
}

export function renderAudioBlock(block: BlockOf<"audio">, context: RenderContext, courseLanguage: string): SafeHtml {
  const src = mediaSourceUrl(block, context);
  const label = block.title ? html` aria-label="${block.title}"` : "";
  const player =
    src === null
      ? ""
      : html`<audio controls preload="metadata" src="${src}"${label}>${captionsTracks(block, context, courseLanguage)}<p>${uiText.noMediaSupport}</p></audio>`;
  return html`<figure class="${ClassName.block} media audio">${player}${mediaTitle(block)}${transcript(block)}</figure>`;
}
