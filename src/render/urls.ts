/**
 * Which URLs the renderer lets into `href` and `src` attributes. Browsers ignore tabs and newlines
 * inside a URL and trim control characters around it, so the scheme is read the way a browser would
 * before it is compared with an allow-list; anything without a recognised safe scheme is dropped.
 */

/** The scheme as a browser parses it (lower case, no colon), or null for a relative URL. */
export function urlScheme(url: string): string | null {
  // The lookbehind starts a trailing run only at its first character (a bare run-then-$ rescans it from each one).
  const normalised = url.replace(/[\t\n\r]/g, "").replace(/^[\u0000-\u0020]+|(?<![\u0000-\u0020])[\u0000-\u0020]+$/g, "");
  const match = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(normalised);
  return match?.[1] ? match[1].toLowerCase() : null;
}

function hasNoControlCharacters(url: string): boolean {
  return !/[\u0000-\u001F\u007F]/.test(url);
}

const rasterDataImage = /^data:image\/(?:png|jpeg|gif|webp|avif);base64,[A-Za-z0-9+/=\s]*$/i;

/** Links: http(s), mailto, and relative URLs (including `#fragment`). */
export function isSafeLinkUrl(url: string): boolean {
  if (!hasNoControlCharacters(url)) return false;
  const scheme = urlScheme(url);
  return scheme === null || scheme === "http" || scheme === "https" || scheme === "mailto";
}

/** Images written by authors: http(s), relative, or a base64 raster `data:` image (never SVG). */
export function isSafeImageUrl(url: string): boolean {
  if (!hasNoControlCharacters(url)) return false;
  const scheme = urlScheme(url);
  if (scheme === "data") return rasterDataImage.test(url.trim());
  return scheme === null || scheme === "http" || scheme === "https";
}

/** Media URLs typed by authors (image, video, audio, captions): http(s) or relative. */
export function isSafeMediaUrl(url: string): boolean {
  if (!hasNoControlCharacters(url)) return false;
  const scheme = urlScheme(url);
  return scheme === null || scheme === "http" || scheme === "https";
}

const scriptCapableSchemes = new Set(["javascript", "vbscript", "livescript", "file", "filesystem"]);
const scriptCapableDataTypes = /^data:(?:text\/html|application\/xhtml|text\/xml|application\/xml|text\/javascript|application\/javascript)/i;

/**
 * URLs from the caller's `assetUrl` (our own code: `data:` URLs, relative package paths, resource
 * URIs). Any scheme is accepted except those that can run script when loaded or navigated to.
 */
export function isSafeAssetUrl(url: string): boolean {
  if (!hasNoControlCharacters(url)) return false;
  const scheme = urlScheme(url);
  if (scheme === null) return true;
  if (scriptCapableSchemes.has(scheme)) return false;
  return scheme !== "data" || !scriptCapableDataTypes.test(url.trim());
}

/** True for absolute http(s) links, which open in a new tab with `rel="noopener noreferrer"`. */
export function isExternalUrl(url: string): boolean {
  const scheme = urlScheme(url);
  return scheme === "http" || scheme === "https" || url.trim().startsWith("//");
}

/**
 * The origin a picture at `url` is fetched from when it is not the page's own: `https://host[:port]` for
 * an absolute http(s) URL; "//" for a URL that names a host without a scheme (`//host/p.gif`, and
 * `\\host/p.gif`, which browsers read the same way), which no policy lists; null for a relative path or a
 * `data:` URL, which stay on the page.
 */
export function remotePictureOrigin(url: string): string | null {
  const scheme = urlScheme(url);
  const trimmed = url.replace(/[\t\n\r]/g, "").replace(/^[\u0000-\u0020]+/, "");
  if (scheme === null) return /^[/\\]{2}/.test(trimmed) ? "//" : null;
  if (scheme !== "http" && scheme !== "https") return null;
  try {
    return new URL(trimmed).origin.toLowerCase();
  } catch {
    return "//";
  }
}
