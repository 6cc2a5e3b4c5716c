/**
 * Toolsets: named groups of tools a host chooses per connection, as GitHub's MCP server does, so an
 * agent's context holds only the tools it needs. The host names them in the `/mcp` URL
 * (`/mcp?toolsets=courses,review`) or in an `X-MCP-Toolsets` header; `all` lists every tool. A
 * toolset decides what `tools/list` shows, not what may be called: a tool outside the chosen sets
 * still answers when called by name (scripts written against the full catalogue keep working), and
 * access rules are the domain's, unchanged.
 */

export const toolsets = {
  courses: "find, read, create (with a whole outline), batch-edit, delete and duplicate courses; the block types",
  edits: "one tool per edit (update_course, set_objectives, add/update/move/remove for modules, lessons, blocks): the same operations edit_course applies in batches",
  assets: "upload and list images, audio, video and captions; the files view and its chunked uploads",
  history: "revisions: list, read as of, restore",
  sharing: "share and unshare a course",
  review: "validate, status workflow and publishing, comments, preview",
  exchange: "export packages (SCORM, cmi5, Common Cartridge, HTML, JSON) and import",
  translation: "language versions linked to their source: create, units as JSON, XLIFF 2.0/1.2 export and import",
  results: "what learners did: xAPI statements in (file or LRS), item statistics, diagnoses with proposed edits, delete",
} as const;

export type ToolsetName = keyof typeof toolsets;
export const toolsetNames = Object.keys(toolsets) as ToolsetName[];

/** Everything an agent needs for the whole authoring flow; `edits` repeats what edit_course does. */
export const defaultToolsets: readonly ToolsetName[] = ["courses", "assets", "history", "sharing", "review", "exchange", "results"];

export const toolsetsHeader = "x-mcp-toolsets";

export class UnknownToolsetError extends Error {
  constructor(readonly names: string[]) {
    super(`unknown toolset ${names.join(", ")}; choose from ${toolsetNames.join(", ")}, all or default (in ?toolsets= or the X-MCP-Toolsets header)`);
  }
}

/** The toolsets a request asks for: `?toolsets=` wins over the header; neither means the default. */
export function requestedToolsets(request: Request | undefined): ReadonlySet<ToolsetName> {
  const fromUrl = request ? new URL(request.url).searchParams.get("toolsets") : null;
  const header = request?.headers.get(toolsetsHeader);
  const raw = fromUrl ?? header;
  if (raw === undefined || raw === null || raw.trim() === "") return new Set(defaultToolsets);
  const names = raw.split(",").map((name) => name.trim()).filter(Boolean);
  const chosen = new Set<ToolsetName>();
  const unknown: string[] = [];
  for (const name of names) {
    if (name === "all") toolsetNames.forEach((toolset) => chosen.add(toolset));
    else if (name === "default") defaultToolsets.forEach((toolset) => chosen.add(toolset));
    else if (name in toolsets) chosen.add(name as ToolsetName);
    else unknown.push(name);
  }
  if (unknown.length > 0) throw new UnknownToolsetError(unknown);
  return chosen;
}
