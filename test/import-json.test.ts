/**
 * import_course of our own JSON export through the real service: export → import → export gives the
 * same document apart from IDs, versions and timestamps, whether the export arrives as text, as base64
 * or zipped; the copy is a new draft with new IDs, owned by whoever imported it, made in one revision.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { zipSync } from "fflate";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { comparable, createRichCourse, embeddedBytes, exportPackage } from "./support/transfer.ts";

let service: TestService;
let alice: Agent;
let bob: Agent;
let sourceId: string;
let exported: Uint8Array;

interface ImportResult {
  importedFrom: string;
  archiveEntry?: string;
  course: { id: string; title: string; status: string; version: number; ownerSub: string; role: string };
}

beforeAll(async () => {
  service = await startTestService();
  alice = await connectAgent(service, await devAccessToken(service, "alice"));
  bob = await connectAgent(service, await devAccessToken(service, "bob"));
  sourceId = await createRichCourse(alice);
  exported = embeddedBytes((await exportPackage(alice, { delivery: "embedded", courseId: sourceId, format: "json" })).result).bytes;
});

afterAll(async () => {
  await alice?.close();
  await bob?.close();
  await service?.dispose();
});

async function exportJson(agent: Agent, courseId: string): Promise<Record<string, unknown>> {
  const { result } = await exportPackage(agent, { delivery: "embedded", courseId, format: "json" });
  return JSON.parse(new TextDecoder().decode(embeddedBytes(result).bytes)) as Record<string, unknown>;
}

function idsIn(value: unknown, found = new Set<string>()): Set<string> {
  if (typeof value === "string" && /^(crs|obj|mod|les|blk|ast)_/.test(value)) found.add(value);
  else if (Array.isArray(value)) value.forEach((item) => idsIn(item, found));
  else if (typeof value === "object" && value !== null) Object.values(value).forEach((item) => idsIn(item, found));
  return found;
}

describe("JSON round trip", () => {
  test("export → import → export gives the same document apart from IDs and timestamps", async () => {
    const imported = (await alice.call("import_course", { format: "json", content: new TextDecoder().decode(exported) })) as unknown as ImportResult;
    expect(imported.importedFrom).toBe("json");
    expect(imported.course.id).not.toBe(sourceId);
    const original = JSON.parse(new TextDecoder().decode(exported)) as Record<string, unknown>;
    const copy = await exportJson(alice, imported.course.id);
    expect(comparable(copy)).toEqual(comparable(original));
    // Quiz settings (issue 21) travel too: the comparison above covers them only if the export has them.
    const quiz = JSON.stringify(copy).match(/"drawCount":2,"drawByObjective":true,"shuffleChoices":true,"feedbackMode":"immediate","finalAssessment":false/);
    expect(quiz).not.toBeNull();
    expect(JSON.stringify(copy)).toContain('"fixed":true');
    // Every ID is new.
    const originalIds = idsIn(original);
    const copiedIds = idsIn(copy);
    expect(copiedIds.size).toBeGreaterThan(0);
    for (const id of copiedIds) expect(originalIds.has(id)).toBe(false);
  });

  test("base64 and a zip archive holding the export import the same course", async () => {
    const original = comparable(JSON.parse(new TextDecoder().decode(exported)));
    const viaBase64 = (await alice.call("import_course", { contentBase64: Buffer.from(exported).toString("base64") })) as unknown as ImportResult;
    expect(comparable(await exportJson(alice, viaBase64.course.id))).toEqual(original);

    const archive = zipSync({ "lab-safety/lab-safety.json": exported, "lab-safety/README.txt": new TextEncoder().encode("Exported course.") });
    const viaZip = (await alice.call("import_course", { format: "zip", contentBase64: Buffer.from(archive).toString("base64") })) as unknown as ImportResult;
    expect(viaZip).toMatchObject({ importedFrom: "json", archiveEntry: "lab-safety/lab-safety.json" });
    expect(comparable(await exportJson(alice, viaZip.course.id))).toEqual(original);
  });

  test("a theme (logo and cover image remapped to the imported assets), numbering none and targetMinutes round-trip", async () => {
    // A themed course of its own, so the other tests' source stays as it was.
    const themed = (await alice.call("import_course", { format: "json", content: new TextDecoder().decode(exported) })) as unknown as ImportResult;
    const [goggles] = ((await alice.call("list_assets", { courseId: themed.course.id })).assets as { id: string }[]).map((asset) => asset.id);
    const theme = {
      primaryColor: "#7c2d12",
      accentColor: "#c2410c",
      backgroundColor: "#fffbf5",
      textColor: "#1c1917",
      font: "atkinson-hyperlegible",
      corners: "square",
      logo: { assetId: goggles, alt: "Acme Safety" },
      coverImage: { assetId: goggles, alt: "A teaching lab" },
    };
    await alice.call("update_course", { courseId: themed.course.id, theme, numbering: "none", targetMinutes: 45 });
    const original = await exportJson(alice, themed.course.id);
    expect(original.course).toMatchObject({ theme, numbering: "none", targetMinutes: 45 });

    const imported = (await alice.call("import_course", { format: "json", content: JSON.stringify(original) })) as unknown as ImportResult;
    const copy = await exportJson(alice, imported.course.id);
    expect(comparable(copy)).toEqual(comparable(original));
    const [copiedAsset] = ((await alice.call("list_assets", { courseId: imported.course.id })).assets as { id: string }[]).map((asset) => asset.id);
    expect(copiedAsset).not.toBe(goggles);
    const copiedImage = { assetId: copiedAsset };
    expect(copy.course).toMatchObject({ theme: { ...theme, logo: { ...theme.logo, ...copiedImage }, coverImage: { ...theme.coverImage, ...copiedImage } }, numbering: "none", targetMinutes: 45 });
  });

  test("a theme naming an asset the file does not carry is refused by field, before anything is written", async () => {
    const document = JSON.parse(new TextDecoder().decode(exported)) as { course: Record<string, unknown> };
    document.course.theme = { logo: { assetId: "ast_missing0000", alt: "Logo" } };
    const error = await alice.call("import_course", { format: "json", content: JSON.stringify(document) }).then(
      () => null,
      (caught: unknown) => caught as Error,
    );
    expect(error?.message).toContain("course.theme.logo.assetId references asset ast_missing0000");
  });

  test("the copy is a version-1 draft owned by the importer, created in one revision", async () => {
    await alice.call("set_status", { courseId: sourceId, status: "published" });
    const publishedExport = embeddedBytes((await exportPackage(alice, { delivery: "embedded", courseId: sourceId, format: "json" })).result).bytes;
    const imported = (await bob.call("import_course", { content: new TextDecoder().decode(publishedExport), title: "Bob's lab safety" })) as unknown as ImportResult;
    expect(imported.course).toMatchObject({ title: "Bob's lab safety", status: "draft", version: 1, ownerSub: "bob", role: "owner" });
    const revisions = (await bob.call("list_revisions", { courseId: imported.course.id })) as { revisions: { tool: string; version: number }[] };
    expect(revisions.revisions).toEqual([expect.objectContaining({ tool: "import_course", version: 1 })]);
    const assets = (await bob.call("list_assets", { courseId: imported.course.id })) as { assets: { filename: string; mediaType: string }[] };
    expect(assets.assets).toEqual([expect.objectContaining({ filename: "goggles.png", mediaType: "image/png" })]);
  });
});
