/**
 * The start-up banner: where the API, the MCP endpoint and the identity provider are, and how to
 * connect MCP Inspector and Claude Code. Printed on stderr so stdout stays a clean JSON log.
 */
import type { RunningService } from "./service.ts";

export function startupBanner(service: RunningService): string {
  const mcp = `${service.url}/mcp`;
  const lines = [
    "",
    "Course Authoring Service is running",
    `  MCP endpoint        ${mcp}`,
    `  Health              ${service.url}/api/health`,
    `  OpenAPI             ${service.url}/openapi.json`,
    `  API documentation   ${service.url}/docs/api`,
    `  Identity provider   ${service.authUrl}${service.devProvider ? "  (embedded, development only)" : ""}`,
    "",
    "Connect an MCP host:",
    `  MCP Inspector   npx @modelcontextprotocol/inspector  → Transport "Streamable HTTP", URL ${mcp}, then "Open Auth Settings" → Quick OAuth Flow`,
    `  Claude Code     claude mcp add --transport http course-authoring ${mcp}   then /mcp in Claude Code to sign in`,
  ];
  if (service.devProvider) {
    lines.push(`  Scripts         TOKEN=$(bun run token) && curl -H "Authorization: Bearer $TOKEN" ...   (sign-in name: any, e.g. dev-user)`);
  }
  lines.push("");
  return lines.join("\n");
}
