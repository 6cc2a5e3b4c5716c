/**
 * Package manifests against the standards' own schemas: each package is built from a realistic course,
 * unpacked with `unzip`, and its manifest validated by xmllint against the committed official XSDs.
 * Also: what a manifest lists is in the zip, broken input is a tool error before any byte is written.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { buildPackage, packageFileName } from "../src/export/build-package.ts";
import { schemaPath } from "../src/formats/package/schemas.ts";
import type { ExportFormat, ScoMode } from "../src/formats/package/types.ts";
import { CourseAuthoringError } from "../src/course-authoring-error.ts";
import { renderCourseHtml } from "../src/render/index.ts";
import { memoryAssets, pixelPng, sampleCourse, unpackToDirectory, unzipPackage } from "./support/export-course.ts";
import { scorm12Imports, scorm2004Imports, xmllint, xmllintWithImports } from "./support/export-xmllint.ts";
import { DataName } from "../src/page-contract/markup-names.ts";

async function unpacked(format: ExportFormat, scoMode: ScoMode): Promise<string> {
  const built = await buildPackage(sampleCourse(), { format, scoMode, assets: memoryAssets(), renderer: renderCourseHtml });
  return unpackToDirectory(built.stream, `${format}-${scoMode}`);
}

function hrefs(manifest: string): string[] {
  return [...manifest.matchAll(/\bhref="([^"]+)"/g)].map((match) => match[1] ?? "");
}

async function exists(path: string): Promise<boolean> {
  return Bun.file(path).exists();
}

describe("SCORM 1.2 package", () => {
  for (const scoMode of ["course", "module"] as const) {
    test(`imsmanifest.xml (one SCO per ${scoMode}) validates against the packaged IMS CP 1.1.2 and ADL CP 1.2 schemas`, async () => {
      const directory = await unpacked("scorm12", scoMode);
      const viaAdlcp = xmllint(directory, "imsmanifest.xml", "adlcp_rootv1p2.xsd");
      expect(viaAdlcp.output).toContain("imsmanifest.xml validates");
      const strict = await xmllintWithImports(directory, "imsmanifest.xml", scorm12Imports);
      expect(strict.output).toContain("imsmanifest.xml validates");
      expect(strict.ok).toBe(true);
    });
  }

  test("every file the manifest lists, and every schema it names, is in the package", async () => {
    const directory = await unpacked("scorm12", "module");
    const manifest = await Bun.file(join(directory, "imsmanifest.xml")).text();
    expect(hrefs(manifest).length).toBeGreaterThan(0);
    for (const href of hrefs(manifest)) expect(await exists(join(directory, href))).toBe(true);
    for (const named of ["imscp_rootv1p1p2.xsd", "adlcp_rootv1p2.xsd", "imsmd_rootv1p2p1.xsd"]) expect(manifest).toContain(named);
    // ims_xml.xsd is imported by the CP and MD schemas, so it travels with them.
    for (const schema of ["imscp_rootv1p1p2.xsd", "adlcp_rootv1p2.xsd", "imsmd_rootv1p2p1.xsd", "ims_xml.xsd"]) expect(await exists(join(directory, schema))).toBe(true);
    expect(manifest).toContain('adlcp:scormtype="sco"');
    expect(manifest.match(/<item /g)?.length).toBe(2);
  });
});

describe("SCORM 2004 4th Edition package", () => {
  for (const scoMode of ["course", "module"] as const) {
    test(`imsmanifest.xml (one SCO per ${scoMode}) validates against the packaged CAM schemas, sequencing included`, async () => {
      const directory = await unpacked("scorm2004", scoMode);
      expect(xmllint(directory, "imsmanifest.xml", "imscp_v1p1.xsd").ok).toBe(true);
      const strict = await xmllintWithImports(directory, "imsmanifest.xml", scorm2004Imports);
      expect(strict.output).toContain("imsmanifest.xml validates");
      const manifest = await Bun.file(join(directory, "imsmanifest.xml")).text();
      expect(manifest).toContain("<schemaversion>2004 4th Edition</schemaversion>");
      expect(manifest).toContain('<imsss:controlMode choice="true" flow="true"/>');
    });
  }

  test("a manifest that breaks the ADL vocabulary is rejected by the same check", async () => {
    const directory = await unpacked("scorm2004", "course");
    const path = join(directory, "imsmanifest.xml");
    await Bun.write(path, (await Bun.file(path).text()).replace('adlcp:scormType="sco"', 'adlcp:scormType="lesson"'));
    const result = await xmllintWithImports(directory, "imsmanifest.xml", scorm2004Imports);
    expect(result.ok).toBe(false);
    expect(result.output).toContain("scormType");
  });

  test("every file the manifest lists, and every schema file the CAM set needs, is in the package", async () => {
    const directory = await unpacked("scorm2004", "module");
    const manifest = await Bun.file(join(directory, "imsmanifest.xml")).text();
    expect(hrefs(manifest).length).toBeGreaterThan(0);
    for (const href of hrefs(manifest)) expect(await exists(join(directory, href))).toBe(true);
    for (const schema of ["imscp_v1p1.xsd", "adlcp_v1p3.xsd", "adlseq_v1p3.xsd", "adlnav_v1p3.xsd", "imsss_v1p0.xsd", "imsss_v1p0util.xsd", "xml.xsd", "XMLSchema.dtd", "datatypes.dtd"]) {
      expect(await exists(join(directory, schema))).toBe(true);
    }
  });
});

describe("cmi5 package", () => {
  for (const scoMode of ["course", "module"] as const) {
    test(`cmi5.xml (one AU per ${scoMode}) validates against the cmi5 CourseStructure.xsd`, async () => {
      const directory = await unpacked("cmi5", scoMode);
      const result = xmllint(directory, "cmi5.xml", schemaPath("cmi5", "CourseStructure.xsd"));
      expect(result.output).toContain("cmi5.xml validates");
    });
  }

  test("an AU with a quiz moves on when completed and passed, with the quiz's pass mark as mastery score", async () => {
    const directory = await unpacked("cmi5", "module");
    const structure = await Bun.file(join(directory, "cmi5.xml")).text();
    const aus = [...structure.matchAll(/<au [^>]*>/g)].map((match) => match[0]);
    expect(aus).toHaveLength(2);
    expect(aus[0]).toContain('moveOn="Completed"');
    expect(aus[0]).not.toContain("masteryScore");
    expect(aus[1]).toContain('moveOn="CompletedAndPassed"');
    expect(aus[1]).toContain('masteryScore="0.7"');
    expect(aus[1]).toContain('launchMethod="AnyWindow"');
    expect(await exists(join(directory, "module-2.html"))).toBe(true);
  });
});

describe("package contents", () => {
  test("uploaded assets are embedded and pages load them by relative path, never from the network", async () => {
    const built = await buildPackage(sampleCourse(), { format: "scorm2004", assets: memoryAssets(), renderer: renderCourseHtml });
    const files = await unzipPackage(built.stream);
    expect(files["assets/ast_goggles-goggles.png"]).toEqual(pixelPng);
    const page = new TextDecoder().decode(files["index.html"]);
    expect(page).toContain('src="assets/ast_goggles-goggles.png"');
    expect(page).not.toMatch(/(?:src|href)="https?:/);
  });

  test("the HTML export is a self-contained site: one page with the course runtime, and its media", async () => {
    const built = await buildPackage(sampleCourse(), { format: "html", scoMode: "module", assets: memoryAssets(), renderer: renderCourseHtml });
    expect(built.fileName).toBe("safe-lab-practice-handling-html.zip");
    const files = await unzipPackage(built.stream);
    expect(Object.keys(files).sort()).toEqual(["assets/ast_goggles-goggles.png", "index.html"]);
    const page = new TextDecoder().decode(files["index.html"]);
    expect(page).toContain(`data-${DataName.lessonId}="les_quiz"`);
    expect(page).not.toContain("API_1484_11");
  });

  test("the file name comes from the course title and the format", () => {
    expect(packageFileName("Safe Lab Practice & <Handling>", "scorm12")).toBe("safe-lab-practice-handling-scorm12.zip");
    expect(packageFileName("Ünïcode only ✓", "imscc")).toBe("unicode-only.imscc");
    expect(packageFileName("✓✓", "json")).toBe("course.json");
  });

  test("progress is reported for every entry as the zip is written", async () => {
    const seen: number[] = [];
    let total = 0;
    const built = await buildPackage(sampleCourse(), {
      format: "scorm12",
      assets: memoryAssets(),
      renderer: renderCourseHtml,
      onProgress: (done, of) => {
        seen.push(done);
        total = of;
      },
    });
    await unzipPackage(built.stream);
    expect(total).toBeGreaterThan(5);
    expect(seen).toEqual(Array.from({ length: total }, (_, index) => index + 1));
  });
});

describe("bad input", () => {
  test("an unknown format is an invalid_arguments tool error naming the formats", async () => {
    const attempt = buildPackage(sampleCourse(), { format: "pdf" as ExportFormat, assets: memoryAssets(), renderer: renderCourseHtml });
    await expect(attempt).rejects.toBeInstanceOf(CourseAuthoringError);
    await expect(attempt).rejects.toMatchObject({ code: "invalid_arguments", message: expect.stringContaining("scorm12, scorm2004, cmi5") });
  });

  test("a block referencing a missing asset is an invalid_state tool error naming the block, before any byte is written", async () => {
    const course = sampleCourse();
    let rendered = 0;
    const attempt = buildPackage(course, {
      format: "scorm12",
      assets: memoryAssets({}),
      renderer: (input, options) => {
        rendered += 1;
        return renderCourseHtml(input, options);
      },
    });
    await expect(attempt).rejects.toMatchObject({
      code: "invalid_state",
      message: expect.stringContaining('block blk_w3 (image, assetId) in lesson "Welcome to the lab" references asset ast_goggles'),
      details: expect.objectContaining({ blockId: "blk_w3", assetId: "ast_goggles" }),
    });
    expect(rendered).toBe(0);
  });
});
