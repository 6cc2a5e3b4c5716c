/**
 * The `Service-Api-Version` rule (spec 2.4 and 9): absent or `1` is served as v1; anything else is
 * refused. Callers choose the error form, since REST answers problem+json and /mcp never does.
 */
export const apiVersion = "1";

/** Undefined when the request may be served, else the offending header value. */
export function unsupportedApiVersion(request: Request): string | undefined {
  const requested = request.headers.get("service-api-version");
  if (requested === null || requested.trim() === apiVersion) return undefined;
  return requested;
}
