/**
 * What a learner can see or hear on a rendered page, one string each: the text, the attributes that are
 * read or shown (labels, titles, alternatives, placeholders), and the string values of the player's and
 * adapter's JSON configuration. Never the running code, class names or JSON keys.
 */
const spokenAttributes = ["aria-label", "aria-description", "aria-roledescription", "aria-valuetext", "title", "alt", "placeholder", "label", "value", "content"];

export function learnerFacingStrings(page: string): string[] {
  const strings: string[] = [];
  let json: string | null = null;
  let skipped = 0;
  const collect = (value: unknown): void => {
    if (typeof value === "string") strings.push(value);
    else if (value && typeof value === "object") Object.values(value).forEach(collect);
  };
  new HTMLRewriter()
    .on("*", {
      element(element) {
        for (const name of spokenAttributes) {
          const value = element.getAttribute(name);
          if (value) strings.push(value);
        }
        const tag = element.tagName.toLowerCase();
        if (tag === "script" && element.getAttribute("type") === "application/json") {
          json = "";
          element.onEndTag(() => {
            collect(JSON.parse(json ?? "null"));
            json = null;
          });
        } else if (tag === "script" || tag === "style") {
          skipped++;
          element.onEndTag(() => void skipped--);
        }
      },
      text(chunk) {
        if (json !== null) json += chunk.text;
        else if (skipped === 0) strings.push(chunk.text);
      },
    })
    .transform(page);
  return strings.map((text) => text.replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'"));
}
