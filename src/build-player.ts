/**
 * Builds the player (`src/player`, browser code only) into minified bundles in `src/player/dist`, one
 * per feature set a page needs and one per LMS adapter. The server embeds them with
 * `import … with { type: "text" }`, so `bun build --compile` carries them into the binary, where
 * `Bun.build` does not exist. Run by `npm install` (prepare), `bun run start`, the test preload and the
 * Dockerfile; the output is generated, never committed.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const playerEntries = ["course-base", "course-quiz", "course-interactions", "course-full", "scorm", "cmi5", "lesson-launch"] as const;

const playerFolder = join(import.meta.dir, "player");
export const playerOutputFolder = join(playerFolder, "dist");

export async function buildPlayer(): Promise<void> {
  const result = await Bun.build({
    entrypoints: playerEntries.map((name) => join(playerFolder, "entries", `${name}.ts`)),
    target: "browser",
    format: "iife",
    minify: true,
    splitting: false,
    sourcemap: "none",
  });
  if (!result.success) throw new AggregateError(result.logs, "the player did not build");
  mkdirSync(playerOutputFolder, { recursive: true });
  for (const output of result.outputs) {
    const name = output.path.split(/[\\/]/).at(-1)!.replace(/\.js$/, "");
    // `.js.txt`: a text import that `player-bundles.d.ts` types, never a module TypeScript resolves.
    const target = join(playerOutputFolder, `${name}.js.txt`);
    const text = (await output.text()).trim();
    if (existsSync(target) && readFileSync(target, "utf8") === text) continue;
    // Written beside and renamed, so a server starting meanwhile reads the old bundle or the new, never half of one.
    const partial = `${target}.${process.pid}.partial`;
    writeFileSync(partial, text);
    renameSync(partial, target);
  }
}

if (import.meta.main) await buildPlayer();
