/**
 * Every fixed string the rendered course shows or announces, in one place so a translation can replace
 * the set as a whole. Functions build the sentences that carry numbers or author text. English is the
 * base; `uiText` and `runtimeText` read the course language's strings (ui-text-translations.ts) while
 * a render runs inside `inInterfaceLanguage`, English wherever a language has no string.
 */
import type { AdapterText } from "../page-contract/text.ts";
import { englishInteractionRuntimeText, englishInteractionText, type InteractionRuntimeText, type InteractionText } from "./interaction-text.ts";
import { englishAdapterText, englishReviewText, englishRuntimeText, englishUiText, type RuntimeText, type UiText } from "./ui-text-english.ts";
import type { ReviewText } from "../page-contract/review.ts";
import { interfaceTranslations, type InterfaceLanguage, type InterfaceStrings } from "./ui-text-translations.ts";

export type { RuntimeText, UiText };


let current: InterfaceStrings = {};

/** An object with the English keys whose values are read at access time, translated when one exists. */
function localisedView<T extends object>(english: T, translated: () => Partial<T> | undefined): T {
  const view = {} as T;
  for (const key of Object.keys(english) as (keyof T)[]) {
    Object.defineProperty(view, key, { enumerable: true, get: () => translated()?.[key] ?? english[key] });
  }
  return view;
}

export const uiText: UiText = localisedView(englishUiText, () => current.ui);
export const runtimeText: RuntimeText = localisedView(englishRuntimeText, () => current.runtime);
export const interactionText: InteractionText = localisedView(englishInteractionText, () => current.interaction);
export const interactionRuntimeText: InteractionRuntimeText = localisedView(englishInteractionRuntimeText, () => current.interactionRuntime);
export const adapterText: AdapterText = localisedView(englishAdapterText, () => current.adapter);
export const reviewText: ReviewText = localisedView(englishReviewText, () => current.review);

/** Every pack's English base, by section: what a language pack must fill in to be complete. */
export const englishPacks = { ui: englishUiText, runtime: englishRuntimeText, interaction: englishInteractionText, interactionRuntime: englishInteractionRuntimeText, adapter: englishAdapterText, review: englishReviewText } as const;

/**
 * The strings a language shows in English, as `section.key`: all of them for a language without a pack,
 * the keys its pack leaves out otherwise; none for English.
 */
export function fallbackStrings(language: string): string[] {
  const chosen = interfaceLanguage(language);
  if (chosen === "en") return [];
  const pack: InterfaceStrings = chosen === null ? {} : interfaceTranslations[chosen];
  return Object.entries(englishPacks).flatMap(([section, english]) => {
    const translated = (pack as Record<string, object | undefined>)[section] ?? {};
    return Object.keys(english).filter((key) => !Object.hasOwn(translated, key)).map((key) => `${section}.${key}`);
  });
}

/** The interface language for a course language ("fr-CA" → "fr"), or null when the player has none and shows English. */
export function interfaceLanguage(language: string): InterfaceLanguage | "en" | null {
  const base = language.toLowerCase().split("-")[0] ?? "";
  if (base === "en") return "en";
  return Object.hasOwn(interfaceTranslations, base) ? (base as InterfaceLanguage) : null;
}

/**
 * Runs each step of a lazy render with the interface strings of `language`. Steps are synchronous, so
 * setting the strings around each one keeps two renders in different languages apart even when their
 * pieces interleave (two exports streaming at once).
 */
export function* inInterfaceLanguage<T>(language: string, pieces: Iterable<T>): Generator<T> {
  const chosen = interfaceLanguage(language);
  const strings = chosen && chosen !== "en" ? interfaceTranslations[chosen] : {};
  const iterator = pieces[Symbol.iterator]();
  for (;;) {
    const previous = current;
    current = strings;
    let step: IteratorResult<T>;
    try {
      step = iterator.next();
    } finally {
      current = previous;
    }
    if (step.done) return;
    yield step.value;
  }
}

/** A true/false question's two answers in `language`, for packages whose questions an LMS shows itself (QTI). */
export function trueFalseWords(language: string): { true: string; false: string } {
  return withInterfaceLanguage(language, () => ({ true: uiText.trueLabel, false: uiText.falseLabel }));
}

/** `compute`'s result with the interface strings of `language` (for what is read outside a render, like an LMS report's labels). */
export function withInterfaceLanguage<T>(language: string, compute: () => T): T {
  function* once(): Generator<T> {
    yield compute();
  }
  const step = inInterfaceLanguage(language, once()).next();
  return step.value as T;
}
