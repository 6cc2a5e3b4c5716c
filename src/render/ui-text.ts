/**
 * Every fixed string the rendered course shows or announces, in one place so a translation can replace
 * the set as a whole. Functions build the sentences that carry numbers or author text. English is the
 * base; `uiText` and `runtimeText` read the course language's strings (ui-text-translations.ts) while
 * a render runs inside `inInterfaceLanguage`, English wherever a language has no string.
 */
import { englishRuntimeText, englishUiText, type RuntimeText, type UiText } from "./ui-text-english.ts";
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
