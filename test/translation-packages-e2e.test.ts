/**
 * Translations end to end, as a learner gets them: a course with an image, a captioned video, a labelled
 * graphic, pictured choices and an attachment is translated to German (set_translation_units) and
 * French (XLIFF 2.0, then a 1.2 round trip), each with its own media. The source then moves a block,
 * adds one, moves a marker and swaps pictures; the translations sync, and each one's SCORM 2004 package
 * is opened in Chromium under a stand-in LMS: the learner's language, its own pictures and attachment,
 * its own captions by default, and every stale state announced by the export's notices.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { allUnits, uploadAsset as upload, type TranslationUnit } from "./support/translation-units.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { pngBase64, readExport } from "./support/transfer.ts";
import { unpackToDirectory } from "./support/export-course.ts";
import { nextUntil, scoFrame, waitForCourse } from "./support/export-player.ts";
import { launchChromium, startPackageServer } from "./support/lms-harness.ts";
import { ClassName, DataName } from "../src/page-contract/markup-names.ts";

type Unit = TranslationUnit;
type Block = { id: string; type: string; markers?: { x: number; y: number }[] };
type CourseRead = { id: string; modules: { lessons: { id: string; blocks: Block[] }[] }[] };

const png = (mark: string) => Buffer.concat([Buffer.from(pngBase64, "base64"), Buffer.from(mark)]).toString("base64");
const text = (body: string) => Buffer.from(body).toString("base64");
const vtt = (line: string) => text(`WEBVTT\n\n00:00.000 --> 00:05.000\n${line}\n`);
const pdf = (mark: string) => text(`%PDF-1.4\n% ${mark}\n%%EOF\n`);
/** Each language's own file, told apart by the mark at its end. */
const marks = { enPlan: "en-plan", enPlan2: "en-plan-2", enGraphic2: "en-graphic-2", dePlan: "de-plan", deGraphic: "de-graphic", deChoice: "de-choice", dePdf: "de-pdf", frPlan: "fr-plan", frPdf: "fr-pdf" };
const cues = { en: "Put your goggles on first.", de: "Setzen Sie zuerst die Schutzbrille auf.", fr: "Mettez d'abord vos lunettes." };

/** A translator's text: the source's words with the language tag after them (Markdown and inline codes kept). */
const translated = (source: string, language: string) => `${source} (${language})`;

/** Fills every unit's target of an exported XLIFF file: texts from `translated`, media from `media` (other media units keep the source's). */
function fillXliff(xliff: string, format: "xliff20" | "xliff12", language: string, media: Record<string, string>): string {
  if (format === "xliff20") {
    return xliff.replace(/(<unit id="[^"]*" name="([^"]+)"[\s\S]*?<source xml:space="preserve">([\s\S]*?)<\/source>)(<target[\s\S]*?<\/target>)?/g, (_all, head: string, id: string, source: string) => {
      const target = id.endsWith("/assetId") ? media[id] : translated(source, language);
      return target === undefined ? head : `${head}<target xml:space="preserve">${target}</target>`;
    });
  }
  return xliff.replace(/(<trans-unit id="([^"]+)"[^>]*><source>([\s\S]*?)<\/source>)(<target[^>]*>[\s\S]*?<\/target>)?/g, (_all, head: string, id: string, source: string) => {
    const target = id.endsWith("/assetId") ? media[id] : translated(source, language);
    return target === undefined ? head : `${head}<target>${target}</target>`;
  });
}

async function exportXliff(agent: Agent, courseId: string, language: string, format: "xliff20" | "xliff12"): Promise<string> {
  const exported = await agent.callRaw("export_translation", { courseId, language, format });
  const link = exported.content.find((item) => item.type === "resource_link") as { uri: string };
  return new TextDecoder().decode((await readExport(agent, link.uri)).bytes);
}

interface LearnerView {
  lang: string;
  images: { alt: string; src: string; className: string }[];
  attachment: string | null;
  tracks: { language: string; isDefault: boolean; label: string; cues: string[] }[];
  markers: { x: string | null; y: string | null }[];
  text: string;
}

describe("translated packages in Chromium", () => {
  let service: TestService;
  let alice: Agent;
  let courseId: string;
  let lessonId: string;
  let ids: Record<string, string>;
  let german: string;
  let french: string;
  const media: Record<"de" | "fr", Record<string, string>> = { de: {}, fr: {} };

  beforeAll(async () => {
    service = await startTestService();
    alice = await connectAgent(service, await devAccessToken(service, "alice"));
    const course = (await alice.call("create_course", {
      title: "Goggles",
      language: "en",
      description: "Eye safety in the lab.",
      modules: [{ title: "Basics", lessons: [{ title: "Welcome", blocks: [{ type: "text", markdown: "Eyes first." }] }, { title: "Practice", blocks: [{ type: "text", markdown: "Try it." }] }] }],
    })) as CourseRead;
    courseId = course.id;
    lessonId = course.modules[0]!.lessons[0]!.id;
    const plan = await upload(alice, courseId, "plan.png", png(marks.enPlan));
    const graphic = await upload(alice, courseId, "graphic.png", png("en-graphic"));
    const choice = await upload(alice, courseId, "choice.png", png("en-choice"));
    const captions = await upload(alice, courseId, "captions-en.vtt", vtt(cues.en));
    const jobAid = await upload(alice, courseId, "job-aid.pdf", pdf("en-pdf"));
    await alice.call("add_blocks", {
      courseId,
      lessonId,
      blocks: [
        { type: "image", assetId: plan, alt: "Floor plan" },
        { type: "video", url: "https://example.com/intro.mp4", captions: { assetId: captions, language: "en" }, title: "Intro" },
        { type: "labeled_graphic", image: { assetId: graphic }, alt: "Eye wash station", markers: [{ x: 10, y: 20, title: "Tap" }, { x: 50, y: 50, title: "Basin" }] },
        {
          type: "single_choice",
          prompt: "Which goggles fit?",
          choices: [
            { text: "Sealed goggles", correct: true, image: { assetId: choice, alt: "Sealed goggles" } },
            { text: "Sunglasses", image: { assetId: choice, alt: "Sunglasses" } },
          ],
          explanation: "Sealed goggles keep splashes out.",
        },
        { type: "attachment", assetId: jobAid, title: "Job aid" },
      ],
    });
    const blocks = ((await alice.call("get_course", { courseId })) as CourseRead).modules[0]!.lessons[0]!.blocks;
    const of = (type: string) => (blocks.find((block) => block.type === type) as Block).id;
    ids = { image: of("image"), video: of("video"), graphic: of("labeled_graphic"), choice: of("single_choice"), attachment: of("attachment") };

    // German through set_translation_units, with its own picture, graphic, choice picture, captions and job aid.
    german = ((await alice.call("create_translation", { courseId, language: "de" })) as { courseId: string }).courseId;
    media.de = {
      [`${ids.image}/assetId`]: await upload(alice, german, "plan-de.png", png(marks.dePlan)),
      [`${ids.graphic}/image/assetId`]: await upload(alice, german, "graphic-de.png", png(marks.deGraphic)),
      [`${ids.choice}/choices/0/image/assetId`]: await upload(alice, german, "choice-de.png", png(marks.deChoice)),
      [`${ids.video}/captions/assetId`]: await upload(alice, german, "captions-de.vtt", vtt(cues.de)),
      [`${ids.attachment}/assetId`]: await upload(alice, german, "job-aid-de.pdf", pdf(marks.dePdf)),
    };
    const units = await allUnits(alice, courseId, "de");
    await alice.call("set_translation_units", {
      courseId,
      language: "de",
      units: units.filter((unit) => !unit.id.endsWith("/assetId") || media.de[unit.id]).map((unit) => ({ id: unit.id, target: media.de[unit.id] ?? translated(unit.source, "de") })),
    });

    // French through XLIFF 2.0 (import_translation creates it), with its own picture, captions and job aid.
    const frenchXliff = await exportXliff(alice, courseId, "fr", "xliff20");
    await alice.call("import_translation", { courseId, language: "fr", xliff: fillXliff(frenchXliff, "xliff20", "fr", {}) });
    french = ((await alice.call("get_course", { courseId })) as { translations: { courseId: string; language: string }[] }).translations.find((item) => item.language === "fr")!.courseId;
    media.fr = {
      [`${ids.image}/assetId`]: await upload(alice, french, "plan-fr.png", png(marks.frPlan)),
      [`${ids.video}/captions/assetId`]: await upload(alice, french, "captions-fr.vtt", vtt(cues.fr)),
      [`${ids.attachment}/assetId`]: await upload(alice, french, "job-aid-fr.pdf", pdf(marks.frPdf)),
    };
    await alice.call("import_translation", { courseId, language: "fr", xliff: fillXliff(await exportXliff(alice, courseId, "fr", "xliff20"), "xliff20", "fr", media.fr) });
  });

  afterAll(async () => {
    await alice?.close();
    await service?.dispose();
  });

  async function scorm2004(translationId: string): Promise<{ directory: string; notices: string[] }> {
    const exported = (await alice.call("export_course", { courseId: translationId, format: "scorm2004" })) as { uri: string; notices: string[] };
    const bytes = (await readExport(alice, exported.uri)).bytes;
    const directory = await unpackToDirectory(new Response(new Uint8Array(bytes)).body as ReadableStream<Uint8Array>, `translation-${translationId}`);
    return { directory, notices: exported.notices };
  }

  /** What the learner's browser shows of the package: the first lesson's page read from the SCO in the LMS frame. */
  async function learnerView(directory: string, screenshot?: { path: string; lessonId: string }): Promise<LearnerView> {
    const server = startPackageServer(directory);
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1100, height: 1600 } });
      await page.goto(`${server.origin}/lms/scorm2004.html`);
      await page.evaluate(() => (window as unknown as { launch: (saved: unknown, href: string) => void }).launch(null, "/pkg/index.html"));
      const sco = scoFrame(page);
      await waitForCourse(sco);
      const frame = page.frames().find((candidate) => candidate.url().includes("/pkg/"));
      if (!frame) throw new Error("the SCO frame did not load /pkg/index.html");
      const view = await frame.evaluate(
        ({ ClassName, DataName }) =>
          new Promise<LearnerView>((resolve, reject) => {
            const video = document.querySelector("video");
            const tracks = Array.from(video?.querySelectorAll("track") ?? []);
            const read = () =>
              resolve({
                lang: document.documentElement.lang,
                images: Array.from(document.querySelectorAll("img")).map((image) => ({ alt: image.alt, src: image.getAttribute("src") ?? "", className: image.className })),
                attachment: document.querySelector(`a.${ClassName.attachmentLink}`)?.getAttribute("href") ?? null,
                tracks: tracks.map((track) => ({ language: track.srclang, isDefault: track.default, label: track.label, cues: Array.from(track.track.cues ?? []).map((cue) => (cue as VTTCue).text) })),
                markers: Array.from(document.querySelectorAll(`[data-${DataName.marker}]`)).map((marker) => ({ x: marker.getAttribute("data-x"), y: marker.getAttribute("data-y") })),
                text: document.body.textContent ?? "",
              });
            const chosen = tracks.find((track) => track.default);
            if (!chosen) return reject(new Error("no default captions track on the page"));
            if (chosen.readyState === HTMLTrackElement.LOADED) return read();
            chosen.addEventListener("load", read);
            chosen.addEventListener("error", () => reject(new Error("the default captions track failed to load")));
          }), { ClassName, DataName },
      );
      if (screenshot) {
        await nextUntil(sco, screenshot.lessonId);
        await sco.locator(`.${ClassName.block}.${ClassName.attachment}`).first().waitFor({ state: "visible" });
        await page.screenshot({ path: screenshot.path, fullPage: true });
      }
      return view;
    } finally {
      await browser.close();
      server.stop();
    }
  }

  /** The mark at the end of the package file a page URL points at. */
  const markOf = (directory: string, src: string) => {
    const bytes = readFileSync(join(directory, decodeURIComponent(src.split("?")[0]!)));
    return /^% (\S+)$/m.exec(Buffer.from(bytes).toString("latin1"))?.[1] ?? "";
  };
  const pngMark = (directory: string, src: string) => {
    const body = Buffer.from(readFileSync(join(directory, decodeURIComponent(src)))).toString("latin1");
    return body.slice(body.lastIndexOf("IEND") + 8);
  };

  test("the source moves a block, adds one, moves a marker and swaps pictures: each translation says it is behind, in its package too", async () => {
    const plan2 = await upload(alice, courseId, "plan.png", png(marks.enPlan2));
    const graphic2 = await upload(alice, courseId, "graphic-2.png", png(marks.enGraphic2));
    await alice.call("update_block", { courseId, blockId: ids.image, block: { type: "image", assetId: plan2, alt: "Floor plan" } });
    await alice.call("update_block", {
      courseId,
      blockId: ids.graphic,
      block: { type: "labeled_graphic", image: { assetId: graphic2 }, alt: "Eye wash station", markers: [{ x: 80, y: 90, title: "Tap" }, { x: 50, y: 50, title: "Basin" }] },
    });
    await alice.call("move_block", { courseId, blockId: ids.graphic, position: 0 });
    await alice.call("add_blocks", { courseId, lessonId, blocks: [{ type: "text", markdown: "Rinse for fifteen minutes." }] });

    for (const [language, translationId] of [["de", german], ["fr", french]] as const) {
      const validation = (await alice.call("validate_course", { courseId: translationId })) as { findings: { ruleId: string; message: string }[] };
      const behind = validation.findings.find((finding) => finding.ruleId === "translation.behind_source");
      // The German graphic is its own picture, so only the French one differs in body.image.
      expect(behind?.message, language).toContain(`block ${ids.graphic} changed (position, ${language === "fr" ? "body.image, " : ""}body.markers)`);
      const { notices } = await scorm2004(translationId);
      expect(notices.join(" "), language).toContain("This translation is behind its source.");
    }
  });

  test("after the sync (German in one call, French through an XLIFF 1.2 round trip) each SCORM 2004 package is in its language with its own media and captions", async () => {
    // German: one call takes the structure; the picture replaced for the swapped source picture is kept and announced.
    await alice.call("set_translation_units", { courseId, language: "de", units: [] });
    const outdated = (await alice.call("get_translation_units", { courseId, language: "de", onlyOutdated: true })) as { units: Unit[] };
    expect(outdated.units.map((unit) => unit.id).sort()).toEqual([`${ids.image}/assetId`, `${ids.graphic}/image/assetId`].sort());
    const newUnit = (await allUnits(alice, courseId, "de")).find((unit) => unit.source === "Rinse for fifteen minutes.") as Unit;
    expect(newUnit.state).toBe("untranslated");
    const stale = await scorm2004(german);
    expect(stale.notices.join(" ")).toContain("2 of the translation's own media replace a source asset the source has since swapped");
    expect(stale.notices.join(" ")).toContain("1 block(s) are not translated yet");
    expect(stale.notices.join(" ")).not.toContain("behind its source");
    // The translator confirms the German pictures for the new source ones and translates the new block.
    await alice.call("set_translation_units", {
      courseId,
      language: "de",
      units: [...outdated.units.map((unit) => ({ id: unit.id, target: unit.target as string })), { id: newUnit.id, target: translated(newUnit.source, "de") }],
    });

    // French: export XLIFF 1.2, fill it, import it; that takes the source's changes too.
    const xliff12 = await exportXliff(alice, courseId, "fr", "xliff12");
    expect(xliff12).toContain(`<trans-unit id="${ids.image}/assetId"`);
    await alice.call("import_translation", { courseId, language: "fr", xliff: fillXliff(xliff12, "xliff12", "fr", media.fr) });

    const screenshot = join(tmpdir(), "translation-de-scorm2004.png");
    for (const [language, translationId] of [["de", german], ["fr", french]] as const) {
      const { directory, notices } = await scorm2004(translationId);
      expect(notices, language).toEqual([]);
      const firstLesson = ((await alice.call("get_course", { courseId: translationId, includeBlocks: false })) as CourseRead).modules[0]!.lessons[0]!.id;
      const view = await learnerView(directory, language === "de" ? { path: screenshot, lessonId: firstLesson } : undefined);
      expect(view.lang).toBe(language);
      // Every text the learner reads is the translation's; the new block too, and nothing is left in English alone.
      for (const words of ["Which goggles fit?", "Sealed goggles", "Job aid", "Rinse for fifteen minutes.", "Eyes first.", "Welcome", "Practice"]) {
        expect(view.text, `${language}: ${words}`).toContain(translated(words, language));
      }
      // Its own picture, attachment and captions; the French keep the source's new graphic, the Germans their own.
      const image = view.images.find((item) => item.alt === translated("Floor plan", language))!;
      expect(pngMark(directory, image.src)).toBe(language === "de" ? marks.dePlan : marks.frPlan);
      const graphic = view.images.find((item) => item.alt === translated("Eye wash station", language))!;
      expect(pngMark(directory, graphic.src)).toBe(language === "de" ? marks.deGraphic : marks.enGraphic2);
      const choice = view.images.find((item) => item.alt === translated("Sealed goggles", language))!;
      expect(pngMark(directory, choice.src)).toBe(language === "de" ? marks.deChoice : "en-choice");
      expect(markOf(directory, view.attachment as string)).toBe(language === "de" ? marks.dePdf : marks.frPdf);
      expect(view.tracks.filter((track) => track.isDefault).map((track) => [track.language, track.cues])).toEqual([[language, [cues[language]]]]);
      expect(view.tracks.map((track) => track.language).sort()).toEqual([language, "en"].sort());
      // The moved marker is where the source put it.
      expect(view.markers[0]).toEqual({ x: "80", y: "90" });
    }
  });
});
