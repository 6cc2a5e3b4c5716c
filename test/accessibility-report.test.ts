/**
 * export_course format acr (issue 45) over MCP against the real service: a clean course and one with
 * planted defects (an image without alt text, a video without captions, a skipped heading level, a
 * low-contrast theme written past the write check, a French passage in an English course with no
 * language marked). Both reports are validated with ajv against GSA's OpenACR schema and checked against
 * the catalogue; every criterion's level is checked against the defects; the HTML report passes axe in
 * Chromium; set_accessibility_review records answers, refuses bad input and goes stale on change.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { readFileSync } from "node:fs";
import Ajv from "ajv";
import { parse as parseYaml } from "yaml";
import { unzipSync, strFromU8 } from "fflate";
import { devAccessToken } from "./support/dev-login.ts";
import { AgentToolError, connectAgent, type Agent } from "./support/mcp-client.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { exportPackage, readExport, pngBase64 } from "./support/transfer.ts";
import { launchBrowser, runAxe } from "./support/browser.ts";

const schemas = "/work/shared/schemas/openacr";
let service: TestService;
let alice: Agent;
let clean: string;
let defective: string;

type Criterion = { num: string; components: { name: string; adherence: { level: string; notes: string } }[] };
type Report = { title: string; notes: string; catalog: string; chapters: Record<string, { criteria?: Criterion[]; disabled?: boolean }> };

async function createCourse(title: string, blocks: Record<string, unknown>[]): Promise<string> {
  const course = (await alice.call("create_course", {
    title,
    description: "A short course.",
    language: "en",
    modules: [{ title: "Basics", lessons: [{ title: "First steps", blocks }] }],
  })) as { course?: { id: string }; id?: string };
  return (course.course?.id ?? course.id) as string;
}

async function exportReport(courseId: string): Promise<{ yaml: string; html: string; evidence: Record<string, unknown>; report: Report; notices: string[] }> {
  const exported = await exportPackage(alice, { courseId, format: "acr" });
  const { bytes } = await readExport(alice, exported.structured.uri);
  const files = unzipSync(bytes);
  const yaml = strFromU8(files["accessibility-report.yaml"] as Uint8Array);
  const html = strFromU8(files["accessibility-report.html"] as Uint8Array);
  const evidence = JSON.parse(strFromU8(files["evidence.json"] as Uint8Array));
  return { yaml, html, evidence, report: parseYaml(yaml) as Report, notices: exported.structured.notices as string[] };
}

function levels(report: Report): Map<string, string> {
  const found = new Map<string, string>();
  for (const chapter of Object.values(report.chapters)) for (const criterion of chapter.criteria ?? []) found.set(criterion.num, criterion.components[0]?.adherence.level ?? "");
  return found;
}

function notesOf(report: Report, num: string): string {
  for (const chapter of Object.values(report.chapters)) for (const criterion of chapter.criteria ?? []) if (criterion.num === num) return criterion.components[0]?.adherence.notes ?? "";
  return "";
}

function checkAgainstCatalogue(report: Report): void {
  const ajv = new Ajv({ allErrors: true, strict: false });
  const validate = ajv.compile(JSON.parse(readFileSync(join(schemas, "openacr-0.1.0.json"), "utf8")));
  expect(validate(report) ? [] : validate.errors).toEqual([]);
  const catalogue = parseYaml(readFileSync(join(schemas, "catalog/2.5-edition-wcag-2.2-508-eu-en.yaml"), "utf8")) as {
    chapters: { id: string; criteria?: { id: string | number }[] }[];
    terms: { id: string }[];
  };
  expect(report.catalog).toBe("2.5-edition-wcag-2.2-508-eu-en");
  const terms = new Set(catalogue.terms.map((term) => term.id));
  for (const [chapterId, chapter] of Object.entries(report.chapters)) {
    const known = catalogue.chapters.find((entry) => entry.id === chapterId);
    expect(known).toBeDefined();
    const ids = new Set((known?.criteria ?? []).map((criterion) => String(criterion.id)));
    for (const criterion of chapter.criteria ?? []) {
      expect(ids.has(criterion.num)).toBe(true);
      expect(terms.has(criterion.components[0]?.adherence.level ?? "")).toBe(true);
    }
  }
  const wcagA = report.chapters.success_criteria_level_a?.criteria ?? [];
  expect(wcagA.length).toBe(catalogue.chapters.find((chapter) => chapter.id === "success_criteria_level_a")?.criteria?.length ?? -1);
}

beforeAll(async () => {
  service = await startTestService();
  alice = await connectAgent(service, await devAccessToken(service, "alice"));
  clean = await createCourse("Clean course", [
    { type: "heading", text: "Why it matters", level: 2 },
    { type: "text", markdown: "Every accident starts with a small shortcut. Keep your workspace tidy and your hands free." },
  ]);
  defective = await createCourse("Defective course", [
    { type: "heading", text: "Deep heading", level: 4 },
    { type: "image", url: "https://example.com/bench.jpg", alt: "A lab bench with goggles" },
    { type: "text", markdown: "Look at this: ![](https://example.com/chart.png)\n\nLe chat est dans la maison et il ne veut pas sortir avec nous pour la promenade du soir." },
    { type: "video", url: "https://example.com/talk.mp4", title: "A talk", captions: { url: "https://example.com/talk.de.vtt", language: "de" } },
  ]);
  // A theme from before the write check existed (or restored from history): written past update_course's refusal.
  const database = new Database(join(service.dataDir, "course-authoring.db"));
  database.query("UPDATE courses SET theme = ? WHERE id = ?").run(JSON.stringify({ textColor: "#bbbbbb", backgroundColor: "#ffffff" }), defective);
  database.close();
}, 120_000);

afterAll(async () => {
  await alice?.close();
  await service?.dispose();
});

describe("export_course acr", () => {
  test("the clean course: valid OpenACR against GSA's schema and catalogue; every Supports has evidence; a draft lists what waits for a person", async () => {
    const { report, evidence, html } = await exportReport(clean);
    checkAgainstCatalogue(report);
    const found = levels(report);
    expect(found.get("1.3.1")).toBe("supports");
    expect(found.get("1.4.3")).toBe("supports");
    expect(found.get("3.1.2")).toBe("supports");
    expect(found.get("1.2.2")).toBe("not-applicable");
    expect(notesOf(report, "1.2.2")).toContain("no video");
    const chapters = (evidence as { chapters: { criteria: { id: string; level: string; evidence: unknown[] }[] }[] }).chapters;
    for (const chapter of chapters) for (const criterion of chapter.criteria) if (criterion.level === "supports") expect(criterion.evidence.length).toBeGreaterThan(0);
    // 2.4.6 (descriptive headings) needs a person: the report is a draft and says so.
    expect(found.get("2.4.6")).toBe("not-evaluated");
    expect(report.title.startsWith("DRAFT")).toBe(true);
    expect(report.notes).toContain("2.4.6");
    expect(html).toContain("2.4.6");
    expect((evidence as { axe: { lessons: number } | null }).axe?.lessons).toBe(1);
  }, 180_000);

  test("the defective course: each planted defect fails its criterion, naming the place and the fix", async () => {
    const { report } = await exportReport(defective);
    checkAgainstCatalogue(report);
    const found = levels(report);
    for (const criterion of ["1.1.1", "1.2.2", "1.3.1", "1.4.3", "3.1.2"]) expect(["partially-supports", "does-not-support"]).toContain(found.get(criterion) ?? "missing");
    expect(found.get("1.4.3")).toBe("does-not-support");
    expect(notesOf(report, "1.1.1")).toContain("Lesson 1.1");
    expect(notesOf(report, "1.1.1")).toContain("image.missing_alt");
    expect(notesOf(report, "1.2.2")).toContain("media.captions_language");
    expect(notesOf(report, "1.3.1")).toContain("heading.skipped_level");
    expect(notesOf(report, "1.4.3")).toContain("theme.textColor");
    expect(notesOf(report, "3.1.2")).toContain("text.unmarked_language");
    expect(found.get("302.2")).toBe("does-not-support");
  }, 180_000);

  test("the HTML report passes axe in Chromium", async () => {
    const { html } = await exportReport(defective);
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.setContent(html);
      expect((await runAxe(page)).map((violation) => violation.id)).toEqual([]);
      await page.setViewportSize({ width: 390, height: 800 });
      await page.screenshot({ path: ".tmp/acr-report.png" });
    } finally {
      await browser.close();
    }
  }, 180_000);
});

describe("set_accessibility_review", () => {
  async function refused(args: Record<string, unknown>): Promise<AgentToolError> {
    try {
      await alice.call("set_accessibility_review", args);
    } catch (error) {
      if (error instanceof AgentToolError) return error;
      throw error;
    }
    throw new Error("expected a refusal");
  }

  test("unknown criterion, level outside the terms and Not Evaluated below AAA are refused naming the rule", async () => {
    expect((await refused({ courseId: clean, criterion: "9.9.9", level: "supports", remarks: "x" })).message).toContain("VPAT 2.5 catalogue");
    expect((await refused({ courseId: clean, criterion: "2.4.6", level: "fully-compliant", remarks: "x" })).message).toContain("level");
    expect((await refused({ courseId: clean, criterion: "2.4.6", level: "not-evaluated", remarks: "x" })).message).toContain("Level AAA");
  });

  test("an answer decides the level, dated and escaped in the HTML; it goes stale when the blocks change", async () => {
    const recorded = await alice.call("set_accessibility_review", { courseId: clean, criterion: "2.4.6", level: "supports", remarks: "Headings checked <script>alert(1)</script>" });
    expect(recorded.level).toBe("supports");
    let { report, html } = await exportReport(clean);
    expect(levels(report).get("2.4.6")).toBe("supports");
    expect(notesOf(report, "2.4.6")).toContain("<script>alert(1)</script>");
    expect(html).not.toContain("<script>alert(1)");
    expect(html).toContain("&lt;script&gt;alert(1)");
    const course = await alice.call("get_course", { courseId: clean });
    const block = (course.modules as { lessons: { blocks: { id: string }[] }[] }[])[0]!.lessons[0]!.blocks[0]!;
    await alice.call("update_block", { courseId: clean, blockId: block.id, changes: { text: "Why safety matters" } });
    ({ report } = await exportReport(clean));
    expect(levels(report).get("2.4.6")).toBe("not-evaluated");
    expect(notesOf(report, "2.4.6")).toContain("stale");
  }, 180_000);

  test("validate_course summarises the conformance per guideline", async () => {
    const result = await alice.call("validate_course", { courseId: defective });
    const groups = result.conformance as { group: string; failing: string[] }[];
    expect(groups.find((group) => group.group === "1.4")?.failing).toContain("1.4.3 Contrast (Minimum)");
    const rules = (result.findings as { ruleId: string }[]).map((finding) => finding.ruleId);
    expect(rules).toEqual(expect.arrayContaining(["theme.low_contrast", "text.unmarked_language", "media.captions_language", "heading.skipped_level", "image.missing_alt"]));
  });
});

describe("a large course", () => {
  test("/api/health and another user's call answer while the report of a 240-block course is built; places are bounded", async () => {
    const { assertResponsive, watchResponsiveness } = await import("./support/responsiveness.ts");
    const bob = await connectAgent(service, await devAccessToken(service, "bob"));
    const bobCourse = await createCourseAs(bob, "Bob's course");
    const lessons = Array.from({ length: 12 }, (_, lesson) => ({
      title: `Lesson ${lesson + 1}`,
      blocks: Array.from({ length: 20 }, (_, block) => ({ type: "heading", text: `Part ${block} of lesson ${lesson}`, level: block % 2 === 0 ? 2 : 4 })),
    }));
    const large = String((await alice.call("create_course", { title: "Large", language: "en", modules: [{ title: "All", lessons }] })).id);
    const seen = await watchResponsiveness(service, exportPackage(alice, { courseId: large, format: "acr" }), { secondUser: () => bob.call("get_course", { courseId: bobCourse }) });
    assertResponsive(seen, 2000);
    if (!seen.outcome.ok) throw seen.outcome.error;
    const { bytes } = await readExport(alice, seen.outcome.value.structured.uri);
    const report = parseYaml(strFromU8(unzipSync(bytes)["accessibility-report.yaml"] as Uint8Array)) as Report;
    checkAgainstCatalogue(report);
    expect(levels(report).get("1.3.1")).toBe("does-not-support");
    expect(notesOf(report, "1.3.1")).toContain("the first 100");
    await bob.close();
  }, 300_000);
});

async function createCourseAs(agent: Agent, title: string): Promise<string> {
  return String((await agent.call("create_course", { title })).id);
}
