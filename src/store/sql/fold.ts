/**
 * The caseless form `list_courses` searches: both stores keep it beside the title (`title_folded`,
 * computed here rather than by the database, whose lower() depends on its locale and is ASCII-only on
 * SQLite), so one search finds the same courses on either.
 *
 * Canonical composition first, so a decomposed "é" equals the composed one; then lower-, upper- and
 * lower-casing again, which approximates Unicode full case folding: "ß" and "ẞ" become "ss" ("ẞ"
 * upper-cases to itself, hence the first lowering), and "K" (Kelvin) becomes "k". Lower-casing alone
 * would leave "Straße" unfindable as "STRASSE". A final sigma ("ς") folds to "σ" as in Unicode's
 * folding, so a word's form does not depend on where it ends. Every other character, NUL, `%` and
 * `_` included, stays itself.
 */
export function foldCase(text: string): string {
  return text.normalize("NFC").toLowerCase().toUpperCase().toLowerCase().replace(/ς/g, "σ");
}
