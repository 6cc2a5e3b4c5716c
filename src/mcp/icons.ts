/**
 * The server's icons and one icon per toolset, which every tool of that toolset shows. They are inline
 * SVG `data:` URIs, so a host needs no request (and no origin to trust) to draw them, and small: every
 * tool repeats its toolset's icon in `tools/list`, so each is one filled path on a 16×16 grid in a blue
 * that reads on light and dark backgrounds alike.
 */
import type { Icon } from "@modelcontextprotocol/server";
import type { ToolsetName } from "./toolsets.ts";

/** A `data:` URI of an SVG: percent-encoding only what a URI cannot carry, which is shorter than base64. */
export function svgDataUri(svg: string): string {
  return `data:image/svg+xml,${svg.replace(/[%<>#"\s{}|\\^`]/g, (character) => encodeURIComponent(character))}`;
}

function icon(path: string, full = false): Icon[] {
  const svg = `<svg xmlns='http://www.w3.org/2000/svg' viewBox='0,0,16,16' fill='#27b'><path d='${path}'/></svg>`;
  // A tool's icon names neither type nor sizes: its `data:` URI says the type, an SVG scales to any size,
  // and every tool repeats its toolset's icon in tools/list. The server's own icon says both.
  return [{ src: svgDataUri(svg), ...(full ? { mimeType: "image/svg+xml", sizes: ["any"] } : {}) }];
}

/** A mortarboard: the service itself. */
export const serverIcons: Icon[] = icon("M8,2,0,6l8,4,8-4zM3,8.5V12c0,2,10,2,10,0V8.5L8,11z", true);

export const toolsetIcons: Record<ToolsetName, Icon[]> = {
  // Stacked modules.
  courses: icon("M1,2h14v3H1zm0,4.5h14v3H1zM1,11h14v3H1z"),
  // A pencil.
  edits: icon("M11,1l4,4-9,9H2v-4z"),
  // Hills under a sun.
  assets: icon("M0,14l5-7,3,4,2-2,5,5zM12,1a2,2,0,1,0,0,4,2,2,0,0,0,0-4z"),
  // An hourglass.
  history: icon("M3,1h10v2L9,8l4,5v2H3v-2l4-5-4-5z"),
  // A person and a plus.
  sharing: icon("M6,1a3,3,0,1,0,0,6,3,3,0,0,0,0-6zM1,15a5,5,0,0,1,10,0zM13,6V4h-2v2H9v2h2v2h2V8h2V6z"),
  // A check mark.
  review: icon("M1,8l2-2,3,3,7-7,2,2-9,9z"),
  // Out and in.
  exchange: icon("M4,1,0,5h3v6h2V5h3zM12,15l4-4h-3V5h-2v6H8z"),
  // A speech bubble.
  translation: icon("M1,2h14v9H7l-4,4v-4H1z"),
  // A chart's axes.
  results: icon("M0,16V0h3v13h13v3z"),
};
