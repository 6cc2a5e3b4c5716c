/**
 * A realistic course document for the export tests, shaped as `get_course` returns it (blocks
 * included): two modules, content lessons with an uploaded image, and a quiz lesson with a pass mark and
 * limited attempts. Also an in-memory `AssetSource`, a course generator for size tests, and helpers to
 * read a built package into memory or onto disk.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unzipSync } from "fflate";
import type { AssetInfo, AssetSource, ExportCourse } from "../../src/formats/package/types.ts";

/** A 1×1 transparent PNG. */
export const pixelPng = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="),
  (character) => character.charCodeAt(0),
);

export const quizLessonId = "les_quiz";

export function sampleCourse(): ExportCourse & Record<string, unknown> {
  return {
    id: "crs_sample1",
    title: "Safe Lab Practice & <Handling>",
    description: "How to work **safely** in a teaching lab.",
    language: "en",
    audience: "New lab assistants",
    level: "beginner",
    tags: ["safety", "lab"],
    status: "published",
    version: 7,
    ownerSub: "user-1",
    role: "owner",
    collaborators: [],
    createdAt: "2025-01-01T10:00:00.000Z",
    updatedAt: "2025-01-02T10:00:00.000Z",
    objectives: [
      { id: "obj_ppe", text: "Choose the right protective equipment" },
      { id: "obj_spill", text: "Respond to a chemical spill" },
    ],
    modules: [
      {
        id: "mod_basics",
        title: "Basics",
        summary: "What every assistant needs on day one.",
        objectiveIds: ["obj_ppe"],
        lessons: [
          {
            id: "les_welcome",
            title: "Welcome to the lab",
            kind: "content",
            passingScore: null,
            maxAttempts: null,
            estimatedMinutes: 3,
            blocks: [
              { id: "blk_w1", type: "heading", text: "Why safety matters", level: 2 },
              { id: "blk_w2", type: "text", markdown: "Every accident starts with a *small* shortcut." },
              { id: "blk_w3", type: "image", assetId: "ast_goggles", alt: "A pair of safety goggles", decorative: false },
            ],
          },
          {
            id: "les_ppe",
            title: "Protective equipment",
            kind: "content",
            passingScore: null,
            maxAttempts: null,
            estimatedMinutes: 5,
            blocks: [
              { id: "blk_p1", type: "callout", variant: "warning", title: "Always", markdown: "Wear goggles when pouring." },
              { id: "blk_p2", type: "accordion", items: [{ title: "Gloves", markdown: "Nitrile for most solvents." }] },
            ],
          },
        ],
      },
      {
        id: "mod_spills",
        title: "Spills",
        summary: "",
        objectiveIds: ["obj_spill"],
        lessons: [
          {
            id: "les_spill",
            title: "Handling a spill",
            kind: "content",
            passingScore: null,
            maxAttempts: null,
            estimatedMinutes: 4,
            blocks: [{ id: "blk_s1", type: "text", markdown: "1. Stop.\n2. Warn others.\n3. Contain the spill." }],
          },
          {
            id: quizLessonId,
            title: "Check your knowledge",
            kind: "quiz",
            passingScore: 70,
            maxAttempts: 3,
            estimatedMinutes: 5,
            blocks: [
              {
                id: "blk_q1",
                type: "single_choice",
                prompt: "What do you do first when you see a spill?",
                points: 1,
                choices: [
                  { text: "Stop and assess", correct: true, feedback: "Right." },
                  { text: "Mop it up", correct: false },
                ],
                explanation: "Assess before acting.",
                objectiveIds: ["obj_spill"],
              },
              { id: "blk_q2", type: "true_false", prompt: "Goggles are optional when pouring.", points: 1, answer: false, objectiveIds: ["obj_ppe"] },
              {
                id: "blk_q3",
                type: "multiple_choice",
                prompt: "Which are protective equipment?",
                points: 1,
                choices: [
                  { text: "Goggles", correct: true },
                  { text: "Gloves", correct: true },
                  { text: "Sandals", correct: false },
                ],
                objectiveIds: [],
              },
              {
                id: "blk_q4",
                type: "fill_in_blank",
                prompt: "Complete the sentence.",
                points: 1,
                text: "Stop, warn others, then {{1}} the spill.",
                blanks: [{ answers: ["contain"], caseSensitive: false }],
                objectiveIds: [],
              },
            ],
          },
        ],
      },
    ],
  };
}

/** A course of `lessonCount` text lessons in modules of 10, for size and memory tests. */
export function generatedCourse(lessonCount: number): ExportCourse {
  const modules = Array.from({ length: Math.ceil(lessonCount / 10) }, (_, moduleIndex) => ({
    id: `mod_m${moduleIndex}`,
    title: `Module ${moduleIndex + 1}`,
    summary: "",
    objectiveIds: [],
    lessons: Array.from({ length: Math.min(10, lessonCount - moduleIndex * 10) }, (_, lessonIndex) => ({
      id: `les_m${moduleIndex}l${lessonIndex}`,
      title: `Lesson ${moduleIndex * 10 + lessonIndex + 1}`,
      kind: "content" as const,
      blocks: [
        { id: `blk_m${moduleIndex}l${lessonIndex}a`, type: "heading", text: "Overview", level: 2 },
        { id: `blk_m${moduleIndex}l${lessonIndex}b`, type: "text", markdown: "Some **text** that explains the idea in a few sentences. ".repeat(8) },
      ],
    })),
  }));
  return { id: "crs_big", title: `Course of ${lessonCount} lessons`, description: "", language: "en", objectives: [], modules };
}

/** Assets held in memory; `describe` answers null for anything not in the map. */
export function memoryAssets(files: Record<string, { bytes: Uint8Array; info: AssetInfo }> = { ast_goggles: { bytes: pixelPng, info: { mimeType: "image/png", fileName: "goggles.png" } } }): AssetSource {
  return {
    describe: async (assetId) => files[assetId]?.info ?? null,
    open: async (assetId) => {
      const file = files[assetId];
      if (!file) throw new Error(`no asset ${assetId}`);
      return file.bytes;
    },
  };
}

export async function streamBytes(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The package's files by path. */
export async function unzipPackage(stream: ReadableStream<Uint8Array>): Promise<Record<string, Uint8Array>> {
  return unzipSync(await streamBytes(stream));
}

/** Writes the zip to a fresh temporary directory and unpacks it there with the `unzip` tool. */
export async function unpackToDirectory(stream: ReadableStream<Uint8Array>, label: string): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), `export-${label}-`));
  const zipPath = join(directory, "package.zip");
  await Bun.write(zipPath, await streamBytes(stream));
  const unzip = Bun.spawnSync(["unzip", "-q", zipPath, "-d", join(directory, "package")]);
  if (unzip.exitCode !== 0) throw new Error(`unzip failed: ${unzip.stderr.toString()}`);
  return join(directory, "package");
}
