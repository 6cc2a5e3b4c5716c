/**
 * JSON responses with the exact media type `application/json` (no charset parameter): the spec says
 * clients parse a body only when its Content-Type is `application/json`, so we send precisely that.
 */
export function jsonResponse(body: unknown, init: { status?: number; headers?: HeadersInit } = {}): Response {
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "application/json");
  return new Response(JSON.stringify(body), { status: init.status ?? 200, headers });
}
