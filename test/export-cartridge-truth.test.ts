/**
 * The cartridge tells the truth (issue 33): its QTI 1.2 carries what the CC profile can (pictures on
 * choices as files of the cartridge, named through $IMS-CC-FILEBASE$; the shuffle, with fixed choices
 * kept in place), still validates against IMS's CC profile of QTI 1.2.1, and the export's notices name
 * every question, setting (the draw, the pass mark) and block it could not carry.
 */
import { describe, expect, test } from "bun:test";
import { copyFile, readFile } from "node:fs/promises";
import { join } from "node:path";
import { buildPackage } from "../src/export/build-package.ts";
import { schemaPath } from "../src/formats/package/schemas.ts";
import { renderCourseHtml } from "../src/render/index.ts";
import { unpackToDirectory } from "./support/export-course.ts";
import { xmllint } from "./support/export-xmllint.ts";
import { bankAssets, bankCourseFixture, bankPoolId, bankQuizId } from "./support/question-bank-course.ts";

async function cartridge(): Promise<{ directory: string; notices: string[] }> {
  const notices: string[] = [];
  const built = await buildPackage(bankCourseFixture(), { format: "imscc", assets: bankAssets(), renderer: renderCourseHtml, onNotice: (notice) => notices.push(notice) });
  return { directory: await unpackToDirectory(built.stream, "imscc-truth"), notices };
}

describe("the cartridge's QTI and its notices", () => {
  test("a pictured choice shows its picture from the cartridge's files, and the shuffle is carried with fixed choices kept in place", async () => {
    const { directory } = await cartridge();
    const qti = await readFile(join(directory, `assessments/${bankQuizId}/assessment.xml`), "utf8");
    expect(qti).toContain('&lt;p&gt;Indirect vent &lt;img src="$IMS-CC-FILEBASE$/ast_goggles-goggles.png" alt="Indirect-vent goggles"&gt;&lt;/p&gt;');
    expect(await Bun.file(join(directory, "web_resources/ast_goggles-goggles.png")).exists()).toBe(true);
    expect(qti).toContain('<render_choice shuffle="Yes">');
    expect(qti).toMatch(/<response_label ident="blk_single_c3" rshuffle="No">/);
    const pool = await readFile(join(directory, `assessments/${bankPoolId}/assessment.xml`), "utf8");
    expect(pool).not.toContain('shuffle="Yes"');
    for (const file of [`assessments/${bankQuizId}/assessment.xml`, `assessments/${bankPoolId}/assessment.xml`]) {
      await copyFile(join(directory, file), join(directory, file.replace(/\//g, "_")));
    }
    await copyFile(schemaPath("imscc", "ccv1p1_qtiasiv1p2p1_v1p0.xsd"), join(directory, "ccv1p1_qtiasiv1p2p1_v1p0.xsd"));
    await copyFile(schemaPath("scorm2004", "xml.xsd"), join(directory, "xml.xsd"));
    for (const file of [`assessments_${bankQuizId}_assessment.xml`, `assessments_${bankPoolId}_assessment.xml`]) {
      const result = xmllint(directory, file, "ccv1p1_qtiasiv1p2p1_v1p0.xsd");
      expect({ file, ...result }).toMatchObject({ file, ok: true });
    }
  });

  test("the notices name every question, setting and block QTI 1.2 could not carry", async () => {
    const { notices } = await cartridge();
    const all = notices.join("\n");
    for (const blockId of ["blk_blanks", "blk_match", "blk_order", "blk_sort"]) expect(all).toContain(blockId);
    expect(all).toContain(`Quiz lesson ${bankPoolId}: the draw of 2 question(s) per attempt is not carried`);
    expect(all).toContain(`Quiz lesson ${bankQuizId}: the pass mark of 80% is not carried`);
  });
});
