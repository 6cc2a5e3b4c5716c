/**
 * RFC 9457 problem details for every REST error. The catalogue below is the one source of each
 * problem type: its slug (the `#anchor` on /docs/api), title, status and machine-readable code.
 * The body shape is closed: only type, title, status, detail, code and instance.
 */

export interface ProblemType {
  slug: string;
  title: string;
  status: number;
  code: string;
  /** One sentence for the documentation page. */
  summary: string;
}

export const problemTypes = {
  badRequest: { slug: "bad-request", title: "Bad Request", status: 400, code: "bad_request", summary: "The request was not valid." },
  unsupportedApiVersion: {
    slug: "unsupported-api-version",
    title: "Unsupported API Version",
    status: 400,
    code: "unsupported_api_version",
    summary: "The Service-Api-Version request header named a version other than 1, the only version served.",
  },
  unauthorized: { slug: "unauthorized", title: "Unauthorized", status: 401, code: "unauthorized", summary: "Authentication is required or the credential is invalid." },
  forbidden: { slug: "forbidden", title: "Forbidden", status: 403, code: "forbidden", summary: "The credential is not allowed to call this resource." },
  notFound: { slug: "not-found", title: "Not Found", status: 404, code: "not_found", summary: "The URL does not name a resource of this API." },
  methodNotAllowed: {
    slug: "method-not-allowed",
    title: "Method Not Allowed",
    status: 405,
    code: "method_not_allowed",
    summary: "The resource exists but does not support the request method; the Allow header lists the methods it does.",
  },
  rateLimited: {
    slug: "rate-limited",
    title: "Too Many Requests",
    status: 429,
    code: "rate_limited",
    summary:
      "The client has been rate limited (REST routes: per client address); retry after the seconds in Retry-After. " +
      "`/mcp` answers the same status per user with a JSON-RPC error, and the protected-resource metadata with `temporarily_unavailable`.",
  },
  internalError: { slug: "internal-error", title: "Internal Server Error", status: 500, code: "internal_error", summary: "An unexpected server error occurred." },
  serviceUnavailable: {
    slug: "service-unavailable",
    title: "Service Unavailable",
    status: 503,
    code: "service_unavailable",
    summary: "The service, or the part of it needed for this request, is temporarily unavailable.",
  },
} as const satisfies Record<string, ProblemType>;

export type ProblemTypeName = keyof typeof problemTypes;

export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  instance?: string;
}

export function problemTypeUri(baseUrl: string, problem: ProblemType): string {
  return `${baseUrl}/docs/api#${problem.slug}`;
}

export function problemDetails(baseUrl: string, problem: ProblemType, detail: string, instance?: string): ProblemDetails {
  const body: ProblemDetails = {
    type: problemTypeUri(baseUrl, problem),
    title: problem.title,
    status: problem.status,
    detail,
    code: problem.code,
  };
  if (instance !== undefined) body.instance = instance;
  return body;
}

export function problemResponse(
  baseUrl: string,
  problem: ProblemType,
  detail: string,
  options: { instance?: string; headers?: HeadersInit } = {},
): Response {
  const headers = new Headers(options.headers);
  headers.set("Content-Type", "application/problem+json");
  headers.set("Cache-Control", "no-store");
  return new Response(JSON.stringify(problemDetails(baseUrl, problem, detail, options.instance)), {
    status: problem.status,
    headers,
  });
}
