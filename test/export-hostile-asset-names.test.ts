/**
 * Nothing an author names runs in a learner's LMS. upload_asset and import_course run one file-name
 * rule (same names accepted and stored alike, same names refused naming the field); and a course
 * whose assets carry hostile names (stored by an earlier version, written here straight into its
 * SQLite file) exports in every package format with each asset named `<assetId>-<stem>.<extension of
 * the type its bytes are>`, only our own pages as HTML, each with its Content-Security-Policy.
 */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, posix } from "node:path";
import { unzipSync, zipSync } from "fflate";
import { acceptedMediaTypes, sniffMediaType } from "../src/codecs/media-types.ts";
import { devAccessToken } from "./support/dev-login.ts";
import { pixelPng } from "./support/export-course.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { embeddedBytes, exportPackage, readExport } from "./support/transfer.ts";

const dataDir = mkdtempSync(join(tmpdir(), "cas-hostile-names-"));
let service: TestService;
let alice: Agent;

const encoder = new TextEncoder();
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const scriptCaptions = encoder.encode("WEBVTT\n\n<script>parent.API && parent.API.LMSSetValue('cmi.core.score.raw', '100')</script>\n\n00:00.000 --> 00:01.000\nHi\n");
const packageFormats = ["html", "scorm12", "scorm2004", "cmi5", "imscc"] as const;

async function connect(): Promise<void> {
  service = await startTestService({}, dataDir);
  alice = await connectAgent(service, await devAccessToken(service, "alice"));
}

beforeAll(connect);

afterAll(async () => {
  await alice?.close();
  await service?.dispose();
  rmSync(dataDir, { recursive: true, force: true });
});

function jsonDocument(assets: { id: string; fileName: string; mimeType: string; bytes: Uint8Array }[], modules: unknown[] = []): string {
  return JSON.stringify({
    format: "course-authoring-service/course",
    formatVersion: 1,
    course: { title: "Hostile names", modules },
    assets: assets.map(({ bytes, ...asset }) => ({ ...asset, base64: base64(bytes) })),
  });
}

async function courseIds(): Promise<string[]> {
  return ((await alice.call("list_courses", { limit: 100 })).courses as { id: string }[]).map((course) => course.id);
}

type Outcome = { stored: string } | { refused: string };

async function uploadOutcome(courseId: string, filename: string, bytes: Uint8Array): Promise<Outcome> {
  const result = await alice.callRaw("upload_asset", { courseId, filename, dataBase64: base64(bytes) });
  if (!result.isError) return { stored: ((result.structuredContent as { asset: { filename: string } }).asset).filename };
  const error = await alice.fail("upload_asset", { courseId, filename, dataBase64: base64(bytes) });
  expect(error.code).toBe("invalid_arguments");
  expect(error.message).toContain("filename: ");
  return { refused: error.message.slice(error.message.indexOf("filename: ") + "filename: ".length) };
}

async function importOutcome(fileName: string, bytes: Uint8Array, mimeType: string): Promise<Outcome> {
  const before = await courseIds();
  const content = jsonDocument([{ id: "ast_source", fileName, mimeType, bytes }]);
  const result = await alice.callRaw("import_course", { format: "json", content });
  if (!result.isError) {
    const courseId = ((result.structuredContent as { course: { id: string } }).course).id;
    const assets = (await alice.call("list_assets", { courseId })).assets as { filename: string }[];
    return { stored: assets[0]?.filename ?? "(none)" };
  }
  const error = await alice.fail("import_course", { format: "json", content });
  expect(error.code).toBe("invalid_arguments");
  expect(error.message).toStartWith("content: assets[0].fileName ");
  expect(error.message).toContain("nothing was imported");
  expect(await courseIds()).toEqual(before);
  return { refused: error.message };
}

describe("upload_asset and import_course run one file-name rule", () => {
  const cases: [string, Uint8Array, string][] = [
    ["evil.html", scriptCaptions, "text/vtt"],
    ["x.svg.html", pixelPng, "image/png"],
    ["../../a.js", pixelPng, "image/png"],
    ["..", pixelPng, "image/png"],
    ["trailing.html.", scriptCaptions, "text/vtt"],
    ["photo.jpg", pixelPng, "image/png"],
    ["bell\u0007.png", pixelPng, "image/png"],
    ["captions", scriptCaptions, "text/vtt"],
    ["diagram", pixelPng, "image/png"],
    ["  Diagram.PNG  ", pixelPng, "image/png"],
    ["x.html.vtt", scriptCaptions, "text/vtt"],
  ];

  test("the same names are stored alike, and the same are refused naming the field and what is allowed", async () => {
    const { id: courseId } = await alice.call("create_course", { title: "Upload target" });
    for (const [name, bytes, mimeType] of cases) {
      const uploaded = await uploadOutcome(courseId as string, name, bytes);
      const imported = await importOutcome(name, bytes, mimeType);
      if ("stored" in uploaded) {
        expect({ name, imported }).toEqual({ name, imported: { stored: uploaded.stored } });
      } else {
        expect({ name, refused: "refused" in imported }).toEqual({ name, refused: true });
        expect((imported as { refused: string }).refused).toContain(uploaded.refused);
      }
    }
  });

  test("a hostile extension is refused with the extension its bytes allow, from JSON and from a zip archive alike", async () => {
    const imported = await importOutcome("evil.html", scriptCaptions, "text/vtt");
    expect(imported).toEqual({ refused: expect.stringContaining("ends in .html but the content is text/vtt; use .vtt") });
    const before = await courseIds();
    const archive = zipSync({ "course.json": encoder.encode(jsonDocument([{ id: "ast_source", fileName: "evil.html", mimeType: "text/vtt", bytes: scriptCaptions }])) });
    const zipped = await alice.fail("import_course", { format: "zip", contentBase64: base64(archive) });
    expect(zipped.code).toBe("invalid_arguments");
    expect(zipped.message).toContain("assets[0].fileName");
    expect(zipped.message).toContain("use .vtt");
    expect(await courseIds()).toEqual(before);
  });
});

interface HostileCourse {
  courseId: string;
  /** Asset ID → the hostile name it is stored under. */
  names: Map<string, string>;
}

/** Imports a course with honest names, then renames its assets in the database as an earlier import could have. */
async function hostileCourse(): Promise<HostileCourse> {
  const hostileNames = ["evil.html", "x.svg.html", "../../a.js", ".htaccess", "captions"];
  const assets = hostileNames.map((_, index) => ({ id: `ast_src${index}`, fileName: `file${index}`, mimeType: index === 1 || index === 2 ? "image/png" : "text/vtt", bytes: index === 1 || index === 2 ? pixelPng : scriptCaptions }));
  const lesson = (title: string, blocks: unknown[]) => ({ title, blocks });
  const modules = [
    {
      title: "Captions",
      lessons: [
        lesson("Video", [
          { type: "video", url: "https://example.com/v.mp4", transcript: "Hi", captions: { assetId: "ast_src0", language: "en" } },
          { type: "audio", url: "https://example.com/a.mp3", transcript: "Hi", captions: { assetId: "ast_src3", language: "en" } },
          { type: "video", url: "https://example.com/w.mp4", transcript: "Hi", captions: { assetId: "ast_src4", language: "en" } },
        ]),
      ],
    },
    {
      title: "Images",
      lessons: [
        lesson("Pictures", [
          { type: "image", assetId: "ast_src1", alt: "One" },
          { type: "image", assetId: "ast_src2", alt: "Two" },
          { type: "text", markdown: "Links: [a](assets/ast_src0-evil.html), [b](../web_resources/evil.html), [c](evil.html)" },
        ]),
      ],
    },
  ];
  const imported = await alice.call("import_course", { format: "json", content: jsonDocument(assets, modules) });
  const courseId = (imported.course as { id: string }).id;
  const stored = (await alice.call("list_assets", { courseId })).assets as { id: string; filename: string }[];
  const names = new Map(stored.map((asset) => [asset.id, hostileNames[Number(/^file(\d)$/.exec(asset.filename)?.[1])] as string]));
  await alice.close();
  await service.stop();
  const database = new Database(join(dataDir, "course-authoring.db"));
  for (const [assetId, name] of names) database.query("UPDATE assets SET filename = ? WHERE id = ?").run(name, assetId);
  database.close();
  await connect();
  return { courseId, names };
}

const ourPage = /^(?:index|module-\d+)\.html$|^lessons\/les_[0-9a-z]+\.html$/;
const packageFileTypes = /\.(?:xml|xsd|dtd)$/;

async function packagedExtension(bytes: Uint8Array): Promise<string> {
  const sniffed = await sniffMediaType(bytes);
  if (sniffed.kind !== "accepted") throw new Error("an asset in the package is not a recognised type");
  return acceptedMediaTypes.find((type) => type.mediaType === sniffed.type.mediaType)?.extensions[0] as string;
}

/** Every relative `href` of a page, resolved against the page's folder. */
function relativeLinks(page: string, markup: string): string[] {
  const hrefs = [...markup.matchAll(/\shref="([^"#][^"]*)"/g)].map((match) => (match[1] ?? "").replace(/&amp;/g, "&"));
  return hrefs.filter((href) => !/^[a-z][a-z0-9+.-]*:|^\/\//i.test(href)).map((href) => posix.normalize(posix.join(posix.dirname(page), href.split(/[?#]/)[0] ?? "")));
}

describe("a course whose assets are stored under hostile names", () => {
  let course: HostileCourse;

  beforeAll(async () => {
    course = await hostileCourse();
  });

  for (const format of packageFormats) {
    test(`${format}: each asset is named from its id, a safe stem and the extension of its bytes; only our pages are HTML, each with its CSP`, async () => {
      // Read by link: the SCORM 2004 and cartridge runtimes alone outgrow what a result can embed.
      const files = unzipSync((await readExport(alice, (await exportPackage(alice, { delivery: "link", courseId: course.courseId, format })).structured.uri)).bytes);
      const assets = Object.keys(files).filter((path) => /^(?:assets|web_resources)\//.test(path));
      expect(assets.length).toBe(course.names.size);
      for (const path of assets) {
        const match = /^(?:assets|web_resources)\/(ast_[0-9a-z]+)-([A-Za-z0-9_-]+)\.([a-z0-9]+)$/.exec(path);
        expect({ path, named: match !== null }).toEqual({ path, named: true });
        const [, assetId, stem, extension] = match as RegExpExecArray;
        expect(course.names.has(assetId as string)).toBe(true);
        expect({ path, extension }).toEqual({ path, extension: await packagedExtension(files[path] as Uint8Array) });
        expect(stem).not.toMatch(/html|\.|^$/i);
      }
      const pages = Object.keys(files).filter((path) => !assets.includes(path) && !packageFileTypes.test(path));
      expect(pages.length).toBeGreaterThan(0);
      for (const page of pages) {
        expect({ page, ours: ourPage.test(page) }).toEqual({ page, ours: true });
        const markup = new TextDecoder().decode(files[page]);
        expect(markup).toStartWith("<!doctype html>");
        const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(markup)?.[1]?.replace(/&#39;/g, "'");
        expect({ page, policy }).toEqual({ page, policy: expect.stringMatching(/^default-src 'none'; script-src 'nonce-[^']+'; style-src 'nonce-[^']+';/) });
        for (const target of relativeLinks(page, markup)) {
          if (target in files && /\.html?$/i.test(target)) expect({ page, target, ours: ourPage.test(target) }).toEqual({ page, target, ours: true });
        }
      }
      expect(Object.keys(files).filter((path) => /\.(?:html?|xhtml|svg|js|mjs|htaccess)$|\/\.[^/]*$/i.test(path) && !ourPage.test(path))).toEqual([]);
    });
  }

  test("json: every file name is corrected to one the import accepts, so the export imports again", async () => {
    const text = new TextDecoder().decode(embeddedBytes((await exportPackage(alice, { delivery: "embedded", courseId: course.courseId, format: "json" })).result).bytes);
    const names = (JSON.parse(text) as { assets: { fileName: string; mimeType: string }[] }).assets.map((asset) => [asset.fileName, asset.mimeType]);
    expect(names.sort()).toEqual(
      [
        ["evil.vtt", "text/vtt"],
        ["x_svg.png", "image/png"],
        ["a.png", "image/png"],
        ["file.vtt", "text/vtt"],
        ["captions", "text/vtt"],
      ].sort(),
    );
    const again = await alice.call("import_course", { format: "json", content: text });
    expect((again.course as { id: string }).id).toMatch(/^crs_/);
  });
});
