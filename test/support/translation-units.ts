/**
 * Reading a translation's units and uploading a course file, as the translation tests do: every page of
 * get_translation_units followed to its end, and upload_asset answered with the new asset's id.
 */
import type { Agent } from "./mcp-client.ts";

export type TranslationUnit = { id: string; source: string; target: string | null; state: string; translatorNote?: string };

export async function allUnits(agent: Agent, courseId: string, language: string): Promise<TranslationUnit[]> {
  const units: TranslationUnit[] = [];
  let cursor: string | undefined;
  do {
    const page = (await agent.call("get_translation_units", { courseId, language, ...(cursor ? { cursor } : {}) })) as { units: TranslationUnit[]; nextCursor: string | null };
    units.push(...page.units);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return units;
}

export async function uploadAsset(agent: Agent, courseId: string, filename: string, dataBase64: string): Promise<string> {
  return ((await agent.call("upload_asset", { courseId, filename, dataBase64 })) as { asset: { id: string } }).asset.id;
}
