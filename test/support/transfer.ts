/**
 * Helpers for the export_course and import_course tests, which run against the real service over MCP:
 * a realistic course built with the authoring tools (objectives, an uploaded image, a quiz), calling
 * export_course with progress, decoding the package from an embedded resource or resources/read, and
 * comparing two course documents apart from IDs, versions and timestamps.
 */
import type { CallToolResult, Progress } from "@modelcontextprotocol/sdk/types.js";
import type { Agent } from "./mcp-client.ts";
import { pixelPng } from "./export-course.ts";

export const pngBase64 = Buffer.from(pixelPng).toString("base64");

export interface ExportedPackage {
  result: CallToolResult;
  structured: Record<string, unknown> & { uri: string; fileName: string; mimeType: string; size: number; delivery: string; exportId: string };
  progress: Progress[];
}

/** Calls export_course, recording progress notifications; throws when the tool fails. */
export async function exportPackage(agent: Agent, args: Record<string, unknown>): Promise<ExportedPackage> {
  const progress: Progress[] = [];
  const result = (await agent.client.callTool({ name: "export_course", arguments: args }, undefined, { onprogress: (event) => progress.push(event) })) as CallToolResult;
  if (result.isError) throw new Error(`export_course failed: ${JSON.stringify(result.content)}`);
  return { result, structured: result.structuredContent as ExportedPackage["structured"], progress };
}

/** The bytes of the package embedded in an export_course result. */
export function embeddedBytes(result: CallToolResult): { bytes: Uint8Array; uri: string; mimeType?: string; fileName?: unknown } {
  const item = result.content.find((content) => content.type === "resource");
  if (!item || item.type !== "resource" || !("blob" in item.resource)) throw new Error("no embedded blob resource in the result");
  return { bytes: new Uint8Array(Buffer.from(item.resource.blob, "base64")), uri: item.resource.uri, mimeType: item.resource.mimeType, fileName: item.resource._meta?.fileName };
}

/** The bytes behind an export URI, via resources/read. */
export async function readExport(agent: Agent, uri: string): Promise<{ bytes: Uint8Array; mimeType?: string; meta?: Record<string, unknown> }> {
  const read = await agent.client.readResource({ uri });
  const content = read.contents[0];
  if (!content || !("blob" in content)) throw new Error("resources/read returned no blob");
  return { bytes: new Uint8Array(Buffer.from(content.blob, "base64")), mimeType: content.mimeType, meta: content._meta };
}

/** A course with objectives, an uploaded image, tags, a set lesson time and a quiz; returns its ID. */
export async function createRichCourse(agent: Agent, title = "Lab safety"): Promise<string> {
  const course = (await agent.call("create_course", {
    title,
    description: "How to work **safely** in a teaching lab.",
    language: "en-GB",
    audience: "New lab assistants",
    level: "beginner",
    tags: ["safety", "lab"],
    objectives: [
      { key: "ppe", text: "Choose the right protective equipment" },
      { key: "spill", text: "Respond to a chemical spill" },
    ],
    modules: [
      {
        title: "Basics",
        summary: "What every assistant needs on day one.",
        objectiveIds: ["ppe"],
        lessons: [
          {
            title: "Welcome",
            estimatedMinutes: 4,
            blocks: [
              { type: "heading", text: "Why safety matters", level: 2 },
              { type: "text", markdown: "Every accident starts with a *small* shortcut." },
              { type: "callout", variant: "warning", title: "Always", markdown: "Wear goggles when pouring." },
              { type: "video", url: "https://example.com/intro.mp4", transcript: "Welcome to the lab.", durationSeconds: 90 },
            ],
          },
        ],
      },
      {
        title: "Spills",
        objectiveIds: ["spill"],
        lessons: [
          { title: "Handling a spill", blocks: [{ type: "text", markdown: "1. Stop.\n2. Warn others.\n3. Contain the spill." }] },
          {
            title: "Check your knowledge",
            kind: "quiz",
            passingScore: 70,
            maxAttempts: 3,
            drawCount: 2,
            drawByObjective: true,
            feedbackMode: "immediate",
            blocks: [
              {
                type: "single_choice",
                prompt: "What do you do first when you see a spill?",
                choices: [
                  { text: "Stop and assess", correct: true, feedback: "Right." },
                  { text: "Mop it up" },
                  { text: "Both of the above", fixed: true },
                ],
                explanation: "Assess before acting.",
                objectiveIds: ["spill"],
              },
              { type: "true_false", prompt: "Goggles are optional when pouring.", answer: false, objectiveIds: ["ppe"] },
            ],
          },
        ],
      },
    ],
  })) as { id: string; modules: { lessons: { id: string }[] }[] };
  const upload = (await agent.call("upload_asset", { courseId: course.id, filename: "goggles.png", dataBase64: pngBase64 })) as { asset: { id: string } };
  const lessonId = course.modules[0]?.lessons[0]?.id;
  await agent.call("add_blocks", { courseId: course.id, lessonId, blocks: [{ type: "image", assetId: upload.asset.id, alt: "A pair of safety goggles" }] });
  return course.id;
}

/**
 * A document with every ID replaced by its kind and order of first appearance (`mod#1`), and the
 * bookkeeping that differs between two copies of a course (timestamps, version) removed.
 */
export function comparable(value: unknown): unknown {
  const labels = new Map<string, string>();
  const counters = new Map<string, number>();
  const bookkeeping = new Set(["createdAt", "updatedAt", "exportedAt", "version", "ownerSub"]);
  const walk = (item: unknown): unknown => {
    if (typeof item === "string" && /^(crs|obj|mod|les|blk|ast)_[0-9a-z]+$/.test(item)) {
      if (!labels.has(item)) {
        const kind = item.slice(0, 3);
        counters.set(kind, (counters.get(kind) ?? 0) + 1);
        labels.set(item, `${kind}#${counters.get(kind)}`);
      }
      return labels.get(item);
    }
    if (Array.isArray(item)) return item.map(walk);
    if (typeof item === "object" && item !== null) {
      return Object.fromEntries(Object.entries(item).filter(([key]) => !bookkeeping.has(key)).map(([key, child]) => [key, walk(child)]));
    }
    return item;
  };
  return walk(value);
}
