/**
 * The human-readable API documentation served at `/docs/api`: one accessible HTML page, rendered
 * from the OpenAPI document (operations and responses) and the problem catalogue (one section per
 * problem type, anchored by its slug, so every problem `type` URI `{base_url}/docs/api#<slug>`
 * resolves). It also anchors the OAuth error forms of `/mcp`. Self-contained: inline CSS, no scripts,
 * no external requests; every interpolated value is escaped.
 */
import type { OpenAPIV3_1 } from "@scalar/openapi-types";
import { problemTypes, problemTypeUri } from "../http/problem.ts";
import { escapeHtml } from "../render/html.ts";
import { scopeDescriptions, supportedScopes } from "./protected-resource.ts";

export interface ApiDocsPageOptions {
  baseUrl: string;
  authUrl: string;
  document: OpenAPIV3_1.Document;
}


/** Escapes, then turns `code` spans of the document's Markdown-ish descriptions into <code>. */
function prose(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, "<code>$1</code>");
}

/** The OAuth-style error forms of spec 4.4 and 4.2, each with its own anchor. */
export const oauthErrorForms = [
  {
    slug: "missing-token",
    title: "Missing bearer token",
    text: "`POST /mcp` without an `Authorization` header: 401, empty body, no `Content-Type`, `Cache-Control: no-store`, and a `WWW-Authenticate: Bearer` challenge with `resource_metadata` and no `error=`.",
  },
  {
    slug: "invalid-token",
    title: "invalid_token",
    text: 'The bearer token is malformed, expired, or not issued for this resource: 401, `application/json` OAuthError `{"error":"invalid_token"}`, challenge with `error="invalid_token"`.',
  },
  {
    slug: "insufficient-scope",
    title: "insufficient_scope",
    text: 'The bearer token is valid but lacks a required scope: 403, `application/json` OAuthError `{"error":"insufficient_scope"}`, challenge with `error="insufficient_scope"` and the `scope` needed.',
  },
  {
    slug: "temporarily-unavailable",
    title: "temporarily_unavailable",
    text: 'Token verification, or the OAuth configuration behind the protected-resource metadata, is unavailable: 503, `application/json` `{"error":"temporarily_unavailable"}`, `Retry-After: 5`.',
  },
] as const;

const httpMethods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

function isReference(value: unknown): value is OpenAPIV3_1.ReferenceObject {
  return typeof value === "object" && value !== null && "$ref" in value;
}

function resolveResponse(
  document: OpenAPIV3_1.Document,
  response: OpenAPIV3_1.ResponseObject | OpenAPIV3_1.ReferenceObject,
): OpenAPIV3_1.ResponseObject {
  if (!isReference(response)) return response;
  const name = response.$ref.replace("#/components/responses/", "");
  const target = document.components?.responses?.[name];
  return target && !isReference(target) ? target : { description: response.$ref };
}

function renderOperation(document: OpenAPIV3_1.Document, path: string, method: string, operation: OpenAPIV3_1.OperationObject): string {
  const id = operation.operationId ?? `${method}-${path}`;
  const secured = (operation.security ?? []).length > 0;
  const responses = Object.entries(operation.responses ?? {}).map(([status, raw]) => {
    const response = resolveResponse(document, raw);
    const media = Object.keys(response.content ?? {});
    const mediaText = media.length > 0 ? ` <span class="media">${media.map(escapeHtml).join(", ")}</span>` : "";
    return `<li><strong>${escapeHtml(status)}</strong>${mediaText}: ${prose(response.description ?? "")}</li>`;
  });
  return `<section class="operation" id="${escapeHtml(id)}" aria-labelledby="${escapeHtml(id)}-title">
<h3 id="${escapeHtml(id)}-title"><span class="method">${escapeHtml(method.toUpperCase())}</span> <code>${escapeHtml(path)}</code></h3>
<p>${prose(operation.summary ?? "")}</p>
<p>${secured ? 'Requires a bearer token (see <a href="#authentication">Authentication</a>).' : "No authentication."}</p>
${operation.description ? `<p>${prose(operation.description)}</p>` : ""}
<h4>Responses</h4>
<ul>${responses.join("\n")}</ul>
</section>`;
}

function renderOperations(document: OpenAPIV3_1.Document): string {
  const sections: string[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (!item) continue;
    for (const method of httpMethods) {
      const operation = item[method];
      if (operation) sections.push(renderOperation(document, path, method, operation));
    }
  }
  return sections.join("\n");
}

function renderProblemTypes(baseUrl: string): string {
  return Object.values(problemTypes)
    .map(
      (problem) => `<section class="problem" id="${escapeHtml(problem.slug)}" aria-labelledby="${escapeHtml(problem.slug)}-title">
<h3 id="${escapeHtml(problem.slug)}-title">${escapeHtml(problem.title)}</h3>
<dl>
<dt>Type</dt><dd><code>${escapeHtml(problemTypeUri(baseUrl, problem))}</code></dd>
<dt>Status</dt><dd>${problem.status}</dd>
<dt>Code</dt><dd><code>${escapeHtml(problem.code)}</code></dd>
</dl>
<p>${prose(problem.summary)}</p>
</section>`,
    )
    .join("\n");
}

function renderOAuthErrors(): string {
  return oauthErrorForms
    .map(
      (form) => `<section class="problem" id="${form.slug}" aria-labelledby="${form.slug}-title">
<h3 id="${form.slug}-title">${escapeHtml(form.title)}</h3>
<p>${prose(form.text)}</p>
</section>`,
    )
    .join("\n");
}

const styles = `
body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1b1b1b;background:#fff}
header,main,footer{max-width:52rem;margin:0 auto;padding:1rem 1.5rem}
nav ul{padding-left:1.2rem}
code{font:0.92em ui-monospace,monospace;background:#f1f1f4;padding:0 .2em;border-radius:3px;overflow-wrap:anywhere}
.method{font:700 .85em ui-monospace,monospace;background:#1f4f8f;color:#fff;padding:.1em .45em;border-radius:3px}
.media{color:#4a4a4a;font-size:.9em}
section.operation,section.problem{border-top:1px solid #d6d6de;padding-top:.5rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}
dt{font-weight:600}
dd{margin:0}
a{color:#1f4f8f}
a:focus,a:hover{outline:2px solid #1f4f8f;outline-offset:2px}
`;

export function renderApiDocsPage({ baseUrl, authUrl, document }: ApiDocsPageOptions): string {
  const info = document.info ?? { title: "Course Authoring Service", version: "1.0.0" };
  const title = info.title ?? "Course Authoring Service";
  const version = info.version ?? "1.0.0";
  const scopes = supportedScopes
    .map((scope) => `<li><code>${escapeHtml(scope)}</code>: ${escapeHtml(scopeDescriptions[scope])}</li>`)
    .join("");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} API v1</title>
<style>${styles}</style>
</head>
<body>
<a href="#main">Skip to content</a>
<header>
<h1>${escapeHtml(title)} API v1</h1>
<p>${prose(info.summary ?? "")} Machine-readable description: <a href="${escapeHtml(`${baseUrl}/openapi.json`)}"><code>/openapi.json</code></a> (OpenAPI ${escapeHtml(document.openapi ?? "3.1.0")}, version ${escapeHtml(version)}).</p>
<nav aria-label="Contents">
<ul>
<li><a href="#operations">Operations</a></li>
<li><a href="#authentication">Authentication</a></li>
<li><a href="#versioning">Versioning</a></li>
<li><a href="#problem-types">Problem types</a></li>
<li><a href="#oauth-errors">OAuth errors of <code>/mcp</code></a></li>
</ul>
</nav>
</header>
<main id="main">
<section id="overview" aria-labelledby="overview-title">
<h2 id="overview-title">Overview</h2>
<p>Course authoring happens through the MCP server at <code>POST ${escapeHtml(baseUrl)}/mcp</code> (streamable HTTP). The REST surface is limited to discovery and health. MCP clients find the server's protocol versions in the <a href="${escapeHtml(`${baseUrl}/.well-known/mcp.json`)}">MCP server card</a>.</p>
</section>
<section id="operations" aria-labelledby="operations-title">
<h2 id="operations-title">Operations</h2>
${renderOperations(document)}
</section>
<section id="authentication" aria-labelledby="authentication-title">
<h2 id="authentication-title">Authentication</h2>
<p>Only the <code>/mcp</code> operations require authentication: the OAuth 2.0 authorization code flow, with the access token sent as <code>Authorization: Bearer &lt;ACCESS_TOKEN&gt;</code>.</p>
<dl>
<dt>Authorization endpoint</dt><dd><code>${escapeHtml(`${authUrl}/oauth2/authorize`)}</code></dd>
<dt>Token endpoint</dt><dd><code>${escapeHtml(`${authUrl}/oauth2/token`)}</code></dd>
<dt>Resource metadata</dt><dd><a href="${escapeHtml(`${baseUrl}/.well-known/oauth-protected-resource/mcp`)}"><code>/.well-known/oauth-protected-resource/mcp</code></a></dd>
</dl>
<h3>Scopes</h3>
<ul>${scopes}</ul>
<p>Every <code>WWW-Authenticate</code> challenge carries <code>resource_metadata</code>, pointing at the resource metadata above.</p>
</section>
<section id="versioning" aria-labelledby="versioning-title">
<h2 id="versioning-title">Versioning</h2>
<p>The API version is <code>1</code>. The optional request header <code>Service-Api-Version</code> accepts only <code>1</code>, the default; any other value is refused with 400 (<a href="#unsupported-api-version">unsupported-api-version</a> on REST, a JSON body on <code>/mcp</code>). Successful responses carry <code>Service-Api-Version: 1</code>.</p>
<p>A deprecated operation or representation would answer with <code>Deprecation: @&lt;unix-seconds&gt;</code> (RFC 9745) and <code>Sunset: &lt;HTTP-date&gt;</code> (RFC 8594), announced at least 90 days before the Sunset date. Nothing is deprecated today, so no <code>Deprecation</code> header is sent. Additive, backwards-compatible changes ship in v1.</p>
</section>
<section id="problem-types" aria-labelledby="problem-types-title">
<h2 id="problem-types-title">Problem types</h2>
<p>REST errors are <code>application/problem+json</code> (RFC 9457) with exactly <code>type</code>, <code>title</code>, <code>status</code>, <code>detail</code>, <code>code</code> and optionally <code>instance</code>; <code>status</code> equals the HTTP status.</p>
${renderProblemTypes(baseUrl)}
</section>
<section id="oauth-errors" aria-labelledby="oauth-errors-title">
<h2 id="oauth-errors-title">OAuth errors of <code>/mcp</code> and the metadata endpoint</h2>
<p>These are <code>application/json</code>, never problem+json. A client parses a JSON body only when its <code>Content-Type</code> is <code>application/json</code>.</p>
${renderOAuthErrors()}
</section>
</main>
<footer>
<p>${escapeHtml(title)}, API v1 (document version ${escapeHtml(version)}).</p>
</footer>
</body>
</html>
`;
}
