/**
 * Media per language: a translation replaces the source's image, captions, attachment and logo with
 * assets uploaded to it, through set_translation_units and XLIFF (one media unit per asset: source the
 * asset's name and type, target the translation's asset ID), and keeps the source's otherwise. Caption
 * tracks are labelled truly: the source's captions keep the source's language in every translation.
 * Bad media targets (another course's or user's asset, a PDF as captions) are refused, naming the unit.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { allUnits, uploadAsset as upload, type TranslationUnit } from "./support/translation-units.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { pngBase64, readExport } from "./support/transfer.ts";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { unzipSync } from "fflate";
import { waitForCourse } from "./support/export-player.ts";
import { launchChromium } from "./support/lms-harness.ts";

type Unit = TranslationUnit;
type Block = { id: string; type: string; assetId?: string; captions?: { assetId?: string; language?: string }; captionTracks?: { assetId?: string; language: string }[] };
type CourseRead = { id: string; theme: { logo?: { assetId: string } } | null; modules: { lessons: { blocks: Block[] }[] }[] };

const base64 = (text: string) => Buffer.from(text).toString("base64");
const englishCaptions = base64("WEBVTT\n\n00:00.000 --> 00:05.000\nPut your goggles on first.\n");
const germanCaptions = base64("WEBVTT\n\n00:00.000 --> 00:05.000\nSetzen Sie zuerst die Schutzbrille auf.\n");
const pdf = base64("%PDF-1.4\n%%EOF\n");

describe("media per language", () => {
  let service: TestService;
  let alice: Agent;
  let bob: Agent;
  let courseId: string;
  let translationId: string;
  let blocks: Block[];
  const own: Record<string, string> = {};

  beforeAll(async () => {
    service = await startTestService();
    alice = await connectAgent(service, await devAccessToken(service, "alice"));
    bob = await connectAgent(service, await devAccessToken(service, "bob"));
    const course = (await alice.call("create_course", { title: "Goggles", language: "en", modules: [{ title: "Basics", lessons: [{ title: "Welcome", blocks: [{ type: "text", markdown: "Hello." }] }] }] })) as {
      id: string;
      modules: { lessons: { id: string }[] }[];
    };
    courseId = course.id;
    const plan = await upload(alice, courseId, "plan.png", pngBase64);
    const captions = await upload(alice, courseId, "captions-en.vtt", englishCaptions);
    const jobAid = await upload(alice, courseId, "job-aid.pdf", pdf);
    await alice.call("add_blocks", {
      courseId,
      lessonId: course.modules[0]!.lessons[0]!.id,
      blocks: [
        { type: "image", assetId: plan, alt: "Floor plan" },
        { type: "video", url: "https://example.com/intro.mp4", captions: { assetId: captions }, title: "Intro" },
        { type: "attachment", assetId: jobAid, title: "Job aid" },
      ],
    });
    await alice.call("update_course", { courseId, theme: { logo: { assetId: plan, alt: "Logo" } } });
    blocks = ((await alice.call("get_course", { courseId })) as CourseRead).modules[0]!.lessons[0]!.blocks;
    translationId = ((await alice.call("create_translation", { courseId, language: "de" })) as { courseId: string }).courseId;
    own.image = await upload(alice, translationId, "plan-de.png", pngBase64);
    own.captions = await upload(alice, translationId, "captions-de.vtt", germanCaptions);
    own.pdf = await upload(alice, translationId, "job-aid-de.pdf", pdf);
    own.sourceAsset = plan;
    const bobs = (await bob.call("create_course", { title: "Bob's", language: "en" })) as { id: string };
    own.bobs = await upload(bob, bobs.id, "bob.png", pngBase64);
  });

  afterAll(async () => {
    await alice?.close();
    await bob?.close();
    await service?.dispose();
  });

  const blockOf = (type: string) => blocks.find((block) => block.type === type) as Block;

  test("every replaceable asset is a media unit named by its file and type, not counted as text to translate", async () => {
    const units = await allUnits(alice, courseId, "de");
    const media = units.filter((unit) => unit.id.endsWith("/assetId")).map((unit) => [unit.id, unit.source]);
    expect(media).toEqual(
      expect.arrayContaining([
        [`${courseId}/theme/logo/assetId`, "plan.png (image/png)"],
        [`${blockOf("image").id}/assetId`, "plan.png (image/png)"],
        [`${blockOf("video").id}/captions/assetId`, "captions-en.vtt (text/vtt)"],
        [`${blockOf("attachment").id}/assetId`, "job-aid.pdf (application/pdf)"],
      ]),
    );
    const { translation } = (await alice.call("get_translation_units", { courseId, language: "de" })) as { translation: { units: number } };
    expect(translation.units).toBe(units.length - media.length);
  });

  test("bad media targets are refused together, naming each unit and why; nothing is written", async () => {
    const error = await alice.fail("set_translation_units", {
      courseId,
      language: "de",
      units: [
        { id: `${blockOf("video").id}/captions/assetId`, target: own.pdf },
        { id: `${courseId}/theme/logo/assetId`, target: own.bobs },
        { id: `${blockOf("attachment").id}/assetId`, target: own.pdf },
      ],
    });
    expect(error.code).toBe("invalid_arguments");
    const listed = error.details.units as { unitId: string; reason: string }[];
    // The source's picture is Alice's own upload, so it may serve the translation too (issue 41); Bob's may not.
    expect(listed).toHaveLength(2);
    expect(listed.find((unit) => unit.unitId.endsWith("/captions/assetId"))?.reason).toContain("text/vtt");
    expect(listed.find((unit) => unit.unitId === `${courseId}/theme/logo/assetId`)?.reason).toContain("not an asset of the translation");
    // The person can add the translated picture themselves: the reason says where.
    expect(listed.find((unit) => unit.unitId === `${courseId}/theme/logo/assetId`)?.reason).toContain("files view opened by list_assets");
    const translation = (await alice.call("get_course", { courseId: translationId })) as CourseRead;
    const attachment = translation.modules[0]!.lessons[0]!.blocks.find((block) => block.type === "attachment") as Block;
    expect(attachment.assetId).not.toBe(own.pdf);
  });

  test("bad media targets in an XLIFF import (2.0 and 1.2) are refused together, naming each unit and why; nothing is written", async () => {
    const before = (await alice.call("get_course", { courseId: translationId, includeBlocks: false })) as { version: number };
    const bad: Record<string, string> = {
      [`${blockOf("video").id}/captions/assetId`]: own.pdf!,
      [`${courseId}/theme/logo/assetId`]: own.bobs!,
    };
    for (const format of ["xliff20", "xliff12"] as const) {
      const exported = await alice.callRaw("export_translation", { courseId, language: "de", format });
      const link = exported.content.find((item) => item.type === "resource_link") as { uri: string };
      let xliff = new TextDecoder().decode((await readExport(alice, link.uri)).bytes);
      // A good unit in the same file: refused with the rest, so it is not written either.
      const good = { ...bad, [`${blockOf("attachment").id}/assetId`]: own.pdf! };
      for (const [unitId, target] of Object.entries(good)) {
        xliff =
          format === "xliff20"
            ? xliff.replace(new RegExp(`(name="${unitId}"[\\s\\S]*?</source>)`), `$1<target xml:space="preserve">${target}</target>`)
            : xliff.replace(new RegExp(`(<trans-unit id="${unitId}"[^>]*><source>[\\s\\S]*?</source>)`), `$1<target>${target}</target>`);
        expect(xliff, `${format}: ${unitId}`).toContain(`>${target}</target>`);
      }
      const error = await alice.fail("import_translation", { courseId, language: "de", xliff });
      expect(error.code, format).toBe("invalid_arguments");
      const listed = error.details.units as { unitId: string; reason: string }[];
      expect(listed.map((unit) => unit.unitId).sort(), format).toEqual(Object.keys(bad).sort());
      expect(listed.find((unit) => unit.unitId.endsWith("/captions/assetId"))?.reason).toContain("application/pdf; this field needs a WebVTT (text/vtt) captions file");
      expect(listed.find((unit) => unit.unitId === `${courseId}/theme/logo/assetId`)?.reason).toContain(`not an asset of the translation ${translationId}`);
    }
    const after = (await alice.call("get_course", { courseId: translationId })) as CourseRead & { version: number };
    expect(after.version).toBe(before.version);
    expect(after.modules[0]!.lessons[0]!.blocks.find((block) => block.type === "attachment")?.assetId).not.toBe(own.pdf);
    expect((await allUnits(alice, courseId, "de")).filter((unit) => unit.id.endsWith("/assetId") && unit.target !== null)).toEqual([]);
  });

  test("a caption track in a language the course does not declare is refused on every write that can give one, naming the field", async () => {
    const lessonId = ((await alice.call("get_course", { courseId, includeBlocks: false })) as { modules: { lessons: { id: string }[] }[] }).modules[0]!.lessons[0]!.id;
    const video = blockOf("video");
    const spanish = await upload(alice, courseId, "captions-es.vtt", germanCaptions);
    const withSpanish = { type: "video", url: "https://example.com/intro.mp4", title: "Intro", captions: { assetId: blocks.find((block) => block.id === video.id)!.captions!.assetId, language: "en" }, captionTracks: [{ assetId: spanish, language: "es" }] };
    const before = (await alice.call("get_course", { courseId, includeBlocks: false })) as { version: number };
    const updated = await alice.fail("update_block", { courseId, blockId: video.id, block: withSpanish });
    expect(updated.code).toBe("invalid_arguments");
    expect(updated.message).toContain('"es" is not a language of this course');
    const added = await alice.fail("add_blocks", { courseId, lessonId, blocks: [withSpanish] });
    expect(added.message).toContain("blocks[0].captionTracks[0].language");
    // The translation itself takes no structural edit: its tracks come from the source and its own captions are in its language.
    const translatedVideo = ((await alice.call("get_course", { courseId: translationId })) as CourseRead).modules[0]!.lessons[0]!.blocks.find((block) => block.type === "video") as Block;
    const onTranslation = await alice.fail("update_block", { courseId: translationId, blockId: translatedVideo.id, block: withSpanish });
    expect(onTranslation.message).toContain(`translation of course ${courseId}: edit the structure in ${courseId}`);
    expect(((await alice.call("get_course", { courseId, includeBlocks: false })) as { version: number }).version).toBe(before.version);
  });

  test("own media through set_translation_units and XLIFF replace the source's; captions are labelled with their true language", async () => {
    await alice.call("set_translation_units", {
      courseId,
      language: "de",
      units: [
        { id: `${blockOf("image").id}/assetId`, target: own.image },
        { id: `${courseId}/theme/logo/assetId`, target: own.image },
      ],
    });
    const exported = await alice.callRaw("export_translation", { courseId, language: "de", format: "xliff20" });
    const link = exported.content.find((item) => item.type === "resource_link") as { uri: string };
    const xliff = new TextDecoder().decode((await readExport(alice, link.uri)).bytes);
    const withMedia = xliff
      .replace(new RegExp(`(name="${blockOf("video").id}/captions/assetId"[\\s\\S]*?</source>)`), `$1<target xml:space="preserve">${own.captions}</target>`)
      .replace(new RegExp(`(name="${blockOf("attachment").id}/assetId"[\\s\\S]*?</source>)`), `$1<target xml:space="preserve">${own.pdf}</target>`);
    await alice.call("import_translation", { courseId, language: "de", xliff: withMedia });

    const translation = (await alice.call("get_course", { courseId: translationId })) as CourseRead;
    const translated = translation.modules[0]!.lessons[0]!.blocks;
    expect(translated.find((block) => block.type === "image")?.assetId).toBe(own.image);
    expect(translated.find((block) => block.type === "attachment")?.assetId).toBe(own.pdf);
    const video = translated.find((block) => block.type === "video") as Block;
    expect(video.captions).toEqual({ assetId: own.captions, language: "de" });
    // The source's English captions stay selectable, labelled English.
    expect(video.captionTracks).toEqual([{ assetId: expect.stringMatching(/^ast_/), language: "en" }]);
    expect(video.captionTracks![0]!.assetId).not.toBe(own.captions);
    expect(translation.theme?.logo?.assetId).toBe(own.image);
    // The source keeps its own media.
    expect(blockOf("image").assetId).toBe(own.sourceAsset);

    // A translation without its own captions labels the source's as what they are: English.
    const french = ((await alice.call("create_translation", { courseId, language: "fr" })) as { courseId: string }).courseId;
    const frenchCourse = (await alice.call("get_course", { courseId: french })) as CourseRead;
    expect(frenchCourse.modules[0]!.lessons[0]!.blocks.find((block) => block.type === "video")?.captions?.language).toBe("en");
    const preview = await alice.client.readResource({ uri: `course://${french}/preview` });
    const page = (preview.contents[0] as { text: string }).text;
    expect(page).toMatch(/<track kind="captions"[^>]*srclang="en"/);
    expect(page).not.toMatch(/<track kind="captions"[^>]*srclang="fr"/);
  });

  test("in Chromium, the German package's video plays the German captions by default and offers the English ones, each labelled with its language", async () => {
    const exported = (await alice.call("export_course", { courseId: translationId, format: "html" })) as { uri: string };
    const files = unzipSync((await readExport(alice, exported.uri)).bytes);
    const directory = mkdtempSync(join(tmpdir(), "translation-captions-"));
    for (const [name, bytes] of Object.entries(files)) {
      if (name.endsWith("/")) continue;
      mkdirSync(dirname(join(directory, name)), { recursive: true });
      writeFileSync(join(directory, name), bytes);
    }
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(`file://${join(directory, "index.html")}`);
      await waitForCourse(page);
      const tracks = await page.locator("video").first().evaluate(
        (video) =>
          new Promise<{ language: string; label: string; isDefault: boolean; mode: string; cues: string[] }[]>((resolve, reject) => {
            const elements = Array.from(video.querySelectorAll("track"));
            const read = () =>
              resolve(elements.map((track) => ({ language: track.srclang, label: track.label, isDefault: track.default, mode: track.track.mode, cues: Array.from(track.track.cues ?? []).map((cue) => (cue as VTTCue).text) })));
            const chosen = elements.find((track) => track.default);
            if (!chosen) return reject(new Error("no default captions track"));
            if (chosen.readyState === HTMLTrackElement.LOADED) return read();
            chosen.addEventListener("load", read);
            chosen.addEventListener("error", () => reject(new Error("the default captions track failed to load")));
          }),
      );
      expect(tracks.map((track) => [track.language, track.isDefault])).toEqual([["de", true], ["en", false]]);
      expect(tracks[0]!.mode).toBe("showing");
      expect(tracks[0]!.cues).toEqual(["Setzen Sie zuerst die Schutzbrille auf."]);
      expect(tracks[0]!.label).toContain("Deutsch");
      expect(tracks[1]!.label).toContain("Englisch");
    } finally {
      await browser.close();
    }
  });

  test("a source's caption tracks are in languages it declares, and each page defaults to its own language's track", async () => {
    const lessonId = ((await alice.call("get_course", { courseId, includeBlocks: false })) as { modules: { lessons: { id: string }[] }[] }).modules[0]!.lessons[0]!.id;
    const english = await upload(alice, courseId, "talk-en.vtt", englishCaptions);
    const german = await upload(alice, courseId, "talk-de.vtt", germanCaptions);
    const video = (language: string) => ({ type: "video", url: "https://example.com/talk.mp4", title: "Talk", captions: { assetId: english, language: "en" }, captionTracks: [{ assetId: german, language }] });
    const refused = await alice.fail("add_blocks", { courseId, lessonId, blocks: [video("es")] });
    expect(refused.code).toBe("invalid_arguments");
    expect(refused.message).toContain("blocks[0].captionTracks[0].language");
    expect(refused.message).toContain("create_translation");
    await alice.call("add_blocks", { courseId, lessonId, blocks: [video("de")] });
    await alice.call("set_translation_units", { courseId, language: "de", units: [] });
    const preview = await alice.client.readResource({ uri: `course://${translationId}/preview` });
    const page = (preview.contents[0] as { text: string }).text;
    const talk = page.slice(page.lastIndexOf("<video"), page.lastIndexOf("</video>"));
    expect(talk).toMatch(/<track kind="captions"[^>]*srclang="de"[^>]*default>/);
    expect(talk).not.toMatch(/<track kind="captions"[^>]*srclang="en"[^>]*default>/);
    const source = (await alice.client.readResource({ uri: `course://${courseId}/preview` })).contents[0] as { text: string };
    const sourceTalk = source.text.slice(source.text.lastIndexOf("<video"), source.text.lastIndexOf("</video>"));
    expect(sourceTalk).toMatch(/<track kind="captions"[^>]*srclang="en"[^>]*default>/);
  });

  test("a source that swaps a picture for another of the same name outdates the translation's replacement, which is kept and warned of", async () => {
    const image = blockOf("image");
    // The same file name and type, other content: only the asset's content tells them apart.
    const swapped = await upload(alice, courseId, "plan.png", Buffer.concat([Buffer.from(pngBase64, "base64"), Buffer.from("second drawing")]).toString("base64"));
    expect(swapped).not.toBe(own.sourceAsset);
    await alice.call("update_block", { courseId, blockId: image.id, block: { type: "image", assetId: swapped, alt: "Floor plan" } });

    const outdated = (await alice.call("get_translation_units", { courseId, language: "de", onlyOutdated: true })) as { units: Unit[]; translation: { outdatedMedia: number } };
    expect(outdated.units.map((unit) => [unit.id, unit.source, unit.target])).toEqual([[`${image.id}/assetId`, "plan.png (image/png)", own.image as string]]);
    expect(outdated.translation.outdatedMedia).toBe(1);
    // The theme's logo still shows the first drawing: its replacement stays translated.
    expect((await allUnits(alice, courseId, "de")).find((unit) => unit.id === `${courseId}/theme/logo/assetId`)?.state).toBe("translated");

    // Taking the source's changes keeps the translator's picture, and the export says it may be stale.
    await alice.call("set_translation_units", { courseId, language: "de", units: [] });
    const translation = (await alice.call("get_course", { courseId: translationId })) as CourseRead;
    expect(translation.modules[0]!.lessons[0]!.blocks.find((block) => block.type === "image")?.assetId).toBe(own.image);
    const exported = (await alice.call("export_course", { courseId: translationId, format: "html" })) as { notices: string[] };
    expect(exported.notices.join(" ")).toContain("1 of the translation's own media replace a source asset the source has since swapped");
    const validation = (await alice.call("validate_course", { courseId: translationId })) as { translationOf: { outdatedMedia: number } };
    expect(validation.translationOf.outdatedMedia).toBe(1);

    // Giving the picture again confirms it for the new source asset.
    await alice.call("set_translation_units", { courseId, language: "de", units: [{ id: `${image.id}/assetId`, target: own.image }] });
    expect(((await alice.call("get_translation_units", { courseId, language: "de", onlyOutdated: true })) as { units: Unit[] }).units).toEqual([]);
    const again = (await alice.call("export_course", { courseId: translationId, format: "html" })) as { notices: string[] };
    expect(again.notices.join(" ")).not.toContain("since swapped");
  });
});
