/**
 * The one rule for an asset's file name, run by upload_asset and import_course alike: a plain name
 * (no folders, no control characters, not only dots) whose extension, when it has one, honestly
 * describes the bytes. Packages never trust even an accepted name: they name each file from its
 * recognised type (`packagedAssetName`), so a name stored before this rule existed is harmless too.
 */
import { acceptedMediaTypes, type MediaType } from "../codecs/media-types.ts";

export const assetFileNameMaxLength = 200;
/** Folders, backslashes and control characters; the JSON Schema of upload_asset shows the same pattern. */
export const assetFileNamePattern = /^[^/\\\u0000-\u001f\u007f]+$/;

/** Why `name` (already trimmed) cannot name an asset whose bytes are `type`, saying what is allowed; null when it can. */
export function assetFileNameProblem(name: string, type: MediaType): string | null {
  if (name.length === 0) return "must not be empty";
  if (name.length > assetFileNameMaxLength) return `must be at most ${assetFileNameMaxLength} characters`;
  if (!assetFileNamePattern.test(name)) return "must be a plain file name without folders or control characters";
  if (name.endsWith(".")) return `must not end in a dot; name it like "name.${type.extensions[0]}"`;
  const extension = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase();
  if (extension !== undefined && !type.extensions.includes(extension)) {
    return `ends in .${extension} but the content is ${type.mediaType}; use .${type.extensions.join(" or .")}`;
  }
  return null;
}

/** The extension a file of this media type gets in a package; `bin` (never served as a page) for a type we do not accept. */
export function packagedExtension(mediaType: string): string {
  const normalised = mediaType.split(";")[0]?.trim().toLowerCase();
  return acceptedMediaTypes.find((type) => type.mediaType === normalised)?.extensions[0] ?? "bin";
}

/**
 * The name without its last extension, reduced to letters, digits, `_` and `-`: no dot survives, so
 * no server can read an inner extension (`x.html.vtt`) as a handler.
 */
export function safeFileStem(name: string): string {
  const stem = name
    .replace(/\.[^.]*$/, "")
    .replace(/[^A-Za-z0-9_-]+/g, "_")
    // The lookbehind starts a trailing run only at its first character: /[_-]+$/ rescans a long run from each of its characters.
    .replace(/^[_-]+|(?<![_-])[_-]+$/g, "")
    .slice(0, 60);
  return stem || "file";
}

/** `<assetId>-<safe stem>.<extension of the recognised type>`: the name every package gives an asset. */
export function packagedAssetName(assetId: string, storedName: string, mediaType: string): string {
  return `${assetId.replace(/[^A-Za-z0-9_-]/g, "_")}-${safeFileStem(storedName)}.${packagedExtension(mediaType)}`;
}

/** The stored name when the rule accepts it, else its safe stem with the type's extension (for names stored before the rule). */
export function honestAssetFileName(storedName: string, mediaType: string): string {
  const type = acceptedMediaTypes.find((candidate) => candidate.mediaType === mediaType.toLowerCase());
  if (type && assetFileNameProblem(storedName.trim(), type) === null) return storedName.trim();
  return `${safeFileStem(storedName)}.${packagedExtension(mediaType)}`;
}
