/**
 * Accessibility checks the conformance report needs beyond alt text and captions: captions in the
 * course's language, pictures that look like pictures of text (the alt text or the file name says
 * so), instructions that lean on colour alone, and passages in another language than the course's
 * that nothing marks as such. They are heuristics: each finding names the words that raised it.
 */
import { atField, type WalkedBlock, type WalkedCourse } from "./course-walk.ts";
import { markdownFields, plainText } from "./markdown-text.ts";
import type { FindingList } from "./rules.ts";

const primary = (tag: string): string => tag.split("-")[0]?.toLowerCase() ?? "";

export function checkAccessibilityBlock(walked: WalkedBlock, course: WalkedCourse, findings: FindingList): void {
  checkCaptionLanguage(walked, course, findings);
  checkTextPicture(walked, course, findings);
  const language = primary(course.course.language);
  for (const { field, markdown } of markdownFields(walked.block)) {
    const text = plainText(markdown);
    checkColourCue(walked, field, text, findings);
    // A translation's untranslated block is rendered in its source's language, marked (`lang`).
    if ((walked.block as { lang?: unknown }).lang === undefined) checkUnmarkedLanguage(walked, field, text, language, findings);
  }
}

function checkCaptionLanguage({ block, location }: WalkedBlock, course: WalkedCourse, findings: FindingList): void {
  if (block.type !== "video") return;
  const tracks = [...(block.captions ? [block.captions.language ?? course.course.language] : []), ...(block.captionTracks ?? []).map((track) => track.language)];
  if (tracks.length === 0) return;
  const language = primary(course.course.language);
  if (tracks.some((track) => primary(track) === language)) return;
  findings.report(
    "media.captions_language",
    atField(location, "captionTracks"),
    `The video has captions in ${tracks.join(", ")} but none in the course's language (${course.course.language}).`,
    `Upload WebVTT captions in ${course.course.language} with upload_asset and add them with update_block (captions: { assetId, language: "${course.course.language}" } or a captionTracks entry).`,
  );
}

const textPictureWords = /\b(?:screenshot|screen shot|scan(?:ned)?|slide|poster|flyer|quote|quotation|text|infographic|handout|letter|page of|table of|menu|sign reading|says|reads|heading|title card|certificate|form)\b/i;

function checkTextPicture({ block, location }: WalkedBlock, course: WalkedCourse, findings: FindingList): void {
  if (block.type !== "image" || block.decorative) return;
  const fileName = block.assetId ? (course.assets.get(block.assetId)?.filename ?? "") : (block.url ?? "").split("/").pop() ?? "";
  const alt = block.alt ?? "";
  const inAlt = textPictureWords.exec(alt);
  const inName = textPictureWords.exec(fileName.replace(/[-_.]+/g, " "));
  const found = inAlt ?? inName;
  if (!found) return;
  findings.report(
    "image.text_picture",
    atField(location, inAlt ? "alt" : block.assetId ? "assetId" : "url"),
    `The picture may show text (its ${inAlt ? "alt text" : "file name"} says "${found[0]}"): text in a picture cannot be resized, recoloured or read by every screen reader.`,
    "Write the text as text with update_block (a text or quote block), keeping the picture only for what is not text; if it is a logo or the text is not needed, leave it and say so with set_accessibility_review (1.4.5).",
  );
}

const colourWords = "red|green|blue|yellow|orange|purple|pink|grey|gray|rouge|vert|verte|bleu|bleue|jaune|rot|grün|blau|gelb|rojo|roja|verde|azul|amarillo";
const colourCue = new RegExp(
  `\\b(?:(?:in|marked|highlighted|shown|coloured|colored|en|in)\\s+(?:${colourWords})\\b|(?:the|die|der|das|les|le|la|los|las)\\s+(?:${colourWords})\\s+(?:ones?|items?|words?|boxes?|box|fields?|buttons?|parts?|rows?|areas?|lines?|text|answers?)\\b)`,
  "i",
);

function checkColourCue({ location }: WalkedBlock, field: string, text: string, findings: FindingList): void {
  const found = colourCue.exec(text);
  if (!found) return;
  findings.report(
    "text.colour_only_cue",
    atField(location, field),
    `"${found[0]}" points learners at something by its colour; learners who do not see colours cannot follow it.`,
    "Call update_block and name the thing by its label, position in a list or a symbol as well as its colour (\"the items marked ✓ (green)\").",
  );
}

/** The commonest short words of the languages we meet most, enough to tell a paragraph's language. */
const stopWords: Record<string, ReadonlySet<string>> = {
  en: new Set("the and of to is in that it for was with as on are be this by you not or have from at which they".split(" ")),
  fr: new Set("le la les et des est une un du que qui dans pour pas sur au avec ce il elle sont nous vous par".split(" ")),
  de: new Set("der die das und ist nicht ein eine zu den mit sich des auf für dem im sie wir ich auch es".split(" ")),
  es: new Set("el la los las y de que en un una es por con para no se del al lo su como más pero".split(" ")),
  it: new Set("il lo la gli le e di che è un una per non con del della sono si nel alla ma come".split(" ")),
  pt: new Set("o a os as e de que em um uma é para com não do da dos das no na se por".split(" ")),
  nl: new Set("de het een en van is dat op te in niet zijn met voor er ook aan maar om".split(" ")),
};

/** The paragraph's language by its short words, when it clearly is one (at least 8 words, 3 hits, twice the runner-up). */
export function paragraphLanguage(paragraph: string): string | null {
  const words = paragraph.toLowerCase().match(/\p{L}+/gu) ?? [];
  if (words.length < 8) return null;
  const scores = Object.entries(stopWords)
    .map(([language, set]) => [language, words.filter((word) => set.has(word)).length] as const)
    .sort((a, b) => b[1] - a[1]);
  const [best, second] = scores;
  if (!best || best[1] < 3 || best[1] < 2 * (second?.[1] ?? 0)) return null;
  return best[0];
}

function checkUnmarkedLanguage({ location }: WalkedBlock, field: string, text: string, language: string, findings: FindingList): void {
  if (!(language in stopWords)) return;
  for (const paragraph of text.split(/\n\s*\n|\n/)) {
    const found = paragraphLanguage(paragraph);
    if (!found || found === language) continue;
    findings.report(
      "text.unmarked_language",
      atField(location, field),
      `A passage reads as ${found}, not the course's ${language}, and nothing marks its language ("${paragraph.trim().slice(0, 60)}…"): screen readers speak it with the wrong voice.`,
      `Move the passage into its own block and call update_block with lang: "${found}" on it, or write it in the course's language.`,
    );
    return;
  }
}
