/**
 * A lesson's optional banner image (issue 30, item 6), through the real service over MCP: validated like
 * an image block (alt text unless decorative, one source, an image asset of this course), stored and
 * returned, rendered above the lesson title (its URL host declared in the page's img-src), packaged with
 * its asset, kept by the JSON round trip, its alt text a translation unit that a translation renders,
 * and flagged by validate_course when its alt text names the file. In Chromium: seen at 1280 and 390 px
 * (screenshots in the test's temporary folder), axe clean.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { strFromU8, unzipSync } from "fflate";
import type { Browser } from "playwright-core";
import { launchBrowser, runAxe, seriousOrCritical, serveStatic, type StaticSite } from "./support/browser.ts";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { openHarness } from "./authoring-harness.ts";
import { storeKinds } from "./support/postgres.ts";
import { comparable, embeddedBytes, exportPackage, pngBase64 } from "./support/transfer.ts";
import { ClassName, DataName } from "../src/page-contract/markup-names.ts";

interface LessonRead {
  id: string;
  title: string;
  banner?: { assetId?: string; url?: string; alt?: string; decorative: boolean };
}
interface CourseRead {
  id: string;
  version: number;
  modules: { lessons: LessonRead[] }[];
}

let service: TestService;
let alice: Agent;
let courseId: string;
let assetId: string;
let lessons: LessonRead[];

const preview = async (id: string): Promise<string> => {
  const read = await alice.client.readResource({ uri: `course://${id}/preview` });
  return (read.contents[0] as { text: string }).text;
};

beforeAll(async () => {
  service = await startTestService();
  alice = await connectAgent(service, await devAccessToken(service, "alice"));
  const course = (await alice.call("create_course", {
    title: "Harbour safety",
    modules: [
      {
        title: "On the quay",
        lessons: [
          { title: "Mooring lines", banner: { url: "https://images.example.org/quay.jpg", alt: "Ropes coiled on a quay at dawn" }, blocks: [{ type: "text", markdown: "Keep clear of lines under load." }] },
          { title: "Cranes", blocks: [{ type: "text", markdown: "Never stand under a load." }] },
        ],
      },
    ],
  })) as unknown as CourseRead;
  courseId = course.id;
  lessons = course.modules[0]!.lessons;
  assetId = ((await alice.call("upload_asset", { courseId, filename: "crane.png", dataBase64: pngBase64 })) as { asset: { id: string } }).asset.id;
  await alice.call("update_lesson", { courseId, lessonId: lessons[1]!.id, banner: { assetId, alt: "A harbour crane lifting a container" } });
});

afterAll(async () => {
  await alice?.close();
  await service?.dispose();
});

describe("setting a banner", () => {
  test("create_course and update_lesson store it; get_course returns it; a lesson without one has no banner field", async () => {
    const course = (await alice.call("get_course", { courseId })) as unknown as CourseRead;
    const [first, second] = course.modules[0]!.lessons;
    expect(first!.banner).toEqual({ url: "https://images.example.org/quay.jpg", alt: "Ropes coiled on a quay at dawn", decorative: false });
    expect(second!.banner).toEqual({ assetId, alt: "A harbour crane lifting a container", decorative: false });
    const added = (await alice.call("add_lesson", { courseId, moduleId: (await moduleId()), title: "Plain" })) as { lesson: LessonRead };
    expect("banner" in added.lesson).toBe(false);
    await alice.call("remove_lesson", { courseId, lessonId: added.lesson.id });
  });

  test("alt text is required unless decorative, exactly one source, and the asset must be an image its author may use here", async () => {
    const noAlt = await alice.fail("update_lesson", { courseId, lessonId: lessons[0]!.id, banner: { url: "https://images.example.org/a.jpg" } });
    expect(noAlt.code).toBe("invalid_arguments");
    expect(noAlt.message).toContain("banner.alt");
    const twoSources = await alice.fail("add_lesson", { courseId, moduleId: await moduleId(), title: "X", banner: { url: "https://images.example.org/a.jpg", assetId, alt: "A" } });
    expect(twoSources.message).toContain("exactly one of assetId or url");
    // Another person's picture (since the library, one's own from another course may be used: test/asset-library.test.ts).
    const bob = await connectAgent(service, await devAccessToken(service, "bob"));
    const other = (await bob.call("create_course", { title: "Other" })) as { id: string };
    const foreign = ((await bob.call("upload_asset", { courseId: other.id, filename: "x.png", dataBase64: pngBase64 })) as { asset: { id: string } }).asset.id;
    await bob.close();
    const notOurs = await alice.fail("update_lesson", { courseId, lessonId: lessons[0]!.id, banner: { assetId: foreign, alt: "A" } });
    expect(["not_found", "invalid_arguments"]).toContain(notOurs.code);
    expect(JSON.stringify(notOurs)).toContain("banner");
    const pdf = ((await alice.call("upload_asset", { courseId, filename: "notes.pdf", dataBase64: Buffer.from("%PDF-1.4\n%%EOF\n").toString("base64") }).catch(() => null)) as { asset: { id: string } } | null)?.asset.id;
    if (pdf) expect((await alice.fail("update_lesson", { courseId, lessonId: lessons[0]!.id, banner: { assetId: pdf, alt: "A" } })).message).toContain("image/*");
    // A decorative banner needs no alt text; null removes the banner; nothing of the refused calls was written.
    const decorative = (await alice.call("update_lesson", { courseId, lessonId: lessons[0]!.id, banner: { url: "https://images.example.org/waves.jpg", decorative: true } })) as { lesson: LessonRead };
    expect(decorative.lesson.banner).toEqual({ url: "https://images.example.org/waves.jpg", decorative: true });
    const removed = (await alice.call("update_lesson", { courseId, lessonId: lessons[0]!.id, banner: null })) as { lesson: LessonRead };
    expect("banner" in removed.lesson).toBe(false);
    await alice.call("update_lesson", { courseId, lessonId: lessons[0]!.id, banner: { url: "https://images.example.org/quay.jpg", alt: "Ropes coiled on a quay at dawn" } });
  });

  test("edit_course sets it in a batch", async () => {
    const course = (await alice.call("get_course", { courseId })) as unknown as CourseRead;
    await alice.call("edit_course", {
      courseId,
      expectedVersion: course.version,
      operations: [{ op: "update_lesson", lessonId: lessons[1]!.id, banner: { assetId, alt: "A crane at the container terminal" } }],
    });
    const after = (await alice.call("get_course", { courseId })) as unknown as CourseRead;
    expect(after.modules[0]!.lessons[1]!.banner?.alt).toBe("A crane at the container terminal");
  });
});

async function moduleId(): Promise<string> {
  const course = (await alice.call("get_course", { courseId })) as unknown as { modules: { id: string }[] };
  return course.modules[0]!.id;
}

describe("the banner on the page", () => {
  test("the preview shows it above the lesson title with its alt text, and the page allows its URL's host", async () => {
    const html = await preview(courseId);
    const article = html.slice(html.indexOf(`data-${DataName.lessonId}="${lessons[0]!.id}"`));
    expect(article).toMatch(new RegExp(`^[^>]*>\\s*<figure class="${ClassName.lessonBanner}"><img src="https://images\\.example\\.org/quay\\.jpg" alt="Ropes coiled on a quay at dawn"[^>]*></figure>\\s*<p class="${ClassName.eyebrow}">`));
    expect(/img-src ([^;"]*)/.exec(html.replaceAll("&#39;", "'"))?.[1]).toContain("https://images.example.org");
  });

  test("the HTML export packages the banner's asset and points the page at it", async () => {
    const { result } = await exportPackage(alice, { courseId, format: "html", delivery: "embedded" });
    const entries = unzipSync(embeddedBytes(result).bytes);
    const packaged = Object.keys(entries).find((name) => name.startsWith("assets/") && name.includes(assetId));
    expect(packaged).toBeDefined();
    const pages = Object.entries(entries).filter(([name]) => name.endsWith(".html")).map(([, bytes]) => strFromU8(bytes)).join("\n");
    expect(pages).toContain(`<figure class="${ClassName.lessonBanner}"><img src="${packaged}" alt="A crane at the container terminal"`);
  });

  test("the SCORM 1.2 package carries the asset and lists it in the manifest", async () => {
    const { result } = await exportPackage(alice, { courseId, format: "scorm12", delivery: "embedded" });
    const entries = unzipSync(embeddedBytes(result).bytes);
    const packaged = Object.keys(entries).find((name) => name.includes(assetId));
    expect(packaged).toBeDefined();
    expect(strFromU8(entries["imsmanifest.xml"]!)).toContain(packaged!);
  });
});

describe("the banner travels", () => {
  test("JSON export → import → export keeps it, its asset under the new course's ID", async () => {
    const exportJson = async (id: string) => JSON.parse(new TextDecoder().decode(embeddedBytes((await exportPackage(alice, { delivery: "embedded", courseId: id, format: "json" })).result).bytes)) as Record<string, unknown>;
    const original = await exportJson(courseId);
    expect(JSON.stringify(original)).toContain('"banner":{"assetId"');
    const imported = (await alice.call("import_course", { format: "json", content: JSON.stringify(original) })) as { course: { id: string } };
    const copy = await exportJson(imported.course.id);
    expect(comparable(copy)).toEqual(comparable(original));
    const read = (await alice.call("get_course", { courseId: imported.course.id })) as unknown as CourseRead;
    const banner = read.modules[0]!.lessons[1]!.banner!;
    expect(banner.assetId).not.toBe(assetId);
    expect(await preview(imported.course.id)).toContain(`alt="A crane at the container terminal"`);
  });

  test("duplicate_course points the copy's banner at the copy's own asset", async () => {
    const copy = (await alice.call("duplicate_course", { courseId, title: "Harbour safety (copy)" })) as { course?: { id: string }; id?: string };
    const copyId = (copy.course?.id ?? copy.id) as string;
    const read = (await alice.call("get_course", { courseId: copyId })) as unknown as CourseRead;
    const banner = read.modules[0]!.lessons[1]!.banner!;
    expect(banner.assetId).toBeDefined();
    expect(banner.assetId).not.toBe(assetId);
    const { result } = await exportPackage(alice, { courseId: copyId, format: "html", delivery: "embedded" });
    expect(Object.keys(unzipSync(embeddedBytes(result).bytes)).some((name) => name.includes(banner.assetId!))).toBe(true);
  });

  test("its alt text is a translation unit; the translation's page reads the translated text and its own copy of the asset", async () => {
    const translation = ((await alice.call("create_translation", { courseId, language: "de" })) as { courseId: string }).courseId;
    const page = (await alice.call("get_translation_units", { courseId, language: "de" })) as { units: { id: string; source: string }[] };
    const unit = page.units.find((candidate) => candidate.id === `${lessons[1]!.id}/banner/alt`);
    expect(unit?.source).toBe("A crane at the container terminal");
    await alice.call("set_translation_units", { courseId, language: "de", units: [{ id: unit!.id, target: "Ein Kran am Containerterminal" }] });
    const german = (await alice.call("get_course", { courseId: translation })) as unknown as CourseRead;
    const banner = german.modules[0]!.lessons[1]!.banner!;
    expect(banner.alt).toBe("Ein Kran am Containerterminal");
    expect(banner.assetId).not.toBe(assetId);
    expect(await preview(translation)).toContain(`alt="Ein Kran am Containerterminal"`);
  });

  test("validate_course flags alt text that names the file, as for image blocks", async () => {
    await alice.call("update_lesson", { courseId, lessonId: lessons[0]!.id, banner: { url: "https://images.example.org/quay.jpg", alt: "quay.jpg" } });
    const report = (await alice.call("validate_course", { courseId })) as { findings: { ruleId: string; location: { lessonId?: string; field?: string } }[] };
    const finding = report.findings.find((item) => item.ruleId === "image.unhelpful_alt" && item.location.lessonId === lessons[0]!.id);
    expect(finding?.location.field).toBe("banner.alt");
    await alice.call("update_lesson", { courseId, lessonId: lessons[0]!.id, banner: { url: "https://images.example.org/quay.jpg", alt: "Ropes coiled on a quay at dawn" } });
    const clean = (await alice.call("validate_course", { courseId })) as { findings: { ruleId: string; location: { lessonId?: string } }[] };
    expect(clean.findings.filter((item) => item.ruleId.startsWith("image.") && item.location.lessonId === lessons[0]!.id)).toEqual([]);
  });
});

describe("in Chromium", () => {
  let browser: Browser;
  let site: StaticSite;
  const shots = mkdtempSync(join(tmpdir(), "lesson-banner-"));

  beforeAll(async () => {
    const { result } = await exportPackage(alice, { courseId, format: "html", delivery: "embedded" });
    const files: Record<string, { body: string | Uint8Array; type: string }> = {};
    for (const [name, bytes] of Object.entries(unzipSync(embeddedBytes(result).bytes))) {
      files[`/${name}`] = name.endsWith(".html") ? { body: strFromU8(bytes), type: "text/html" } : { body: bytes, type: name.endsWith(".png") ? "image/png" : "application/octet-stream" };
    }
    site = serveStatic(files);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await site?.stop();
  });

  for (const width of [1280, 390]) {
    test(`at ${width} px the banner spans the content above the title and the page is axe clean`, async () => {
      const context = await browser.newContext({ viewport: { width, height: 900 }, bypassCSP: true });
      const page = await context.newPage();
      try {
        await page.goto(`${site.origin}/index.html`, { waitUntil: "load" });
        await page.getByRole("link", { name: "Cranes" }).first().click();
        const image = page.getByRole("img", { name: "A crane at the container terminal" });
        await image.waitFor({ state: "visible", timeout: 20_000 });
        // The packaged asset has loaded (a broken one would be complete with no width).
        await page.waitForFunction((banner) => banner instanceof HTMLImageElement && banner.complete && banner.naturalWidth > 0, await image.elementHandle(), { timeout: 20_000 });
        const imageBox = (await image.boundingBox())!;
        const titleBox = (await page.getByRole("heading", { level: 1, name: "Cranes" }).boundingBox())!;
        expect(imageBox.y + imageBox.height).toBeLessThanOrEqual(titleBox.y);
        expect(imageBox.width).toBeGreaterThanOrEqual(titleBox.width - 1);
        expect(imageBox.x + imageBox.width).toBeLessThanOrEqual(width);
        await page.screenshot({ path: join(shots, `banner-${width}.png`) });
        expect(seriousOrCritical(await runAxe(page))).toEqual([]);
      } finally {
        await context.close();
      }
    }, 60_000);
  }
});

describe.each(storeKinds)("on %s", (store) => {
  test("the banner is stored, changed and removed (the lessons.banner column)", async () => {
    const harness = await openHarness(store);
    try {
      const course = (await harness.call("alice", "create_course", {
        title: "Stored",
        modules: [{ title: "M", lessons: [{ title: "L", banner: { url: "https://images.example.org/a.jpg", alt: "A lighthouse" } }] }],
      })) as unknown as CourseRead;
      const lessonId = course.modules[0]!.lessons[0]!.id;
      const read = async () => ((await harness.call("alice", "get_course", { courseId: course.id })) as unknown as CourseRead).modules[0]!.lessons[0]!.banner;
      expect(await read()).toEqual({ url: "https://images.example.org/a.jpg", alt: "A lighthouse", decorative: false });
      await harness.call("alice", "update_lesson", { courseId: course.id, lessonId, title: "Renamed" });
      expect((await read())?.alt).toBe("A lighthouse");
      await harness.call("alice", "update_lesson", { courseId: course.id, lessonId, banner: null });
      expect(await read()).toBeUndefined();
    } finally {
      await harness.close();
    }
  });
});
