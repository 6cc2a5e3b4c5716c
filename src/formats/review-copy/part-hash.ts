/**
 * A short fingerprint of a course part's content (FNV-1a over its canonical JSON: keys sorted, IDs left
 * out by the caller), written into a review copy's bookmark names and computed again when the copy comes
 * back, to say whether the part changed since the copy was made.
 */

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    return `{${Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

export function partHash(content: unknown): string {
  let hash = 0x811c9dc5;
  const text = canonical(content);
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

interface HashableCourse {
  readonly id: string;
  readonly title: string;
  readonly description?: string | null;
  readonly modules: readonly {
    readonly id: string;
    readonly title: string;
    readonly summary?: string | null;
    readonly lessons: readonly { readonly id: string; readonly title: string; readonly blocks?: readonly object[] | null }[];
  }[];
}

/** The hash of each part a review copy anchors, by ID: the course (title, description), modules (title, summary), lessons (title), blocks (all but their ID). */
export function anchorHashes(course: HashableCourse): Map<string, string> {
  const hashes = new Map<string, string>([[course.id, partHash({ title: course.title, description: course.description ?? "" })]]);
  for (const module of course.modules) {
    hashes.set(module.id, partHash({ title: module.title, summary: module.summary ?? "" }));
    for (const lesson of module.lessons) {
      hashes.set(lesson.id, partHash({ title: lesson.title }));
      for (const block of (lesson.blocks ?? []) as Readonly<Record<string, unknown>>[]) {
        const { id, ...content } = block;
        hashes.set(String(id), partHash(content));
      }
    }
  }
  return hashes;
}
