/**
 * Numbers, percentages and plural forms as a locale writes them, from `Intl`, for the language packs
 * (ui-text-translations.ts): "80 %" in French, German and Spanish, "1,5" for one and a half, and the
 * singular where the locale's plural rules say so (French "0 point", "1,5 point").
 */
export interface LocaleFormat {
  number(value: number): string;
  /** `percent` is 0–100, as scores and pass marks are stored. */
  percent(percent: number): string;
  /**
   * A percentage for the player to fill at run time: `{placeholder}` where the number goes, the sign
   * and its space where the locale puts them ("{score}\u00a0%").
   */
  percentTemplate(placeholder: string): string;
  /** The form the locale's plural rules pick for `count` (`one` for its singular category, else `other`). */
  plural<T>(count: number, forms: { one: T; other: T }): T;
}

export function localeFormat(locale: string): LocaleFormat {
  const numbers = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
  const percents = new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 2 });
  const plurals = new Intl.PluralRules(locale);
  return {
    number: (value) => numbers.format(value),
    percent: (percent) => percents.format(percent / 100),
    percentTemplate: (placeholder) =>
      percents
        .formatToParts(0.5)
        .map((part) => (part.type === "integer" ? `{${placeholder}}` : part.value))
        .join(""),
    plural: (count, forms) => (plurals.select(count) === "one" ? forms.one : forms.other),
  };
}
