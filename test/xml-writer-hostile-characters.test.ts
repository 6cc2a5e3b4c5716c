/**
 * One XML writer (src/codecs/xml-write.ts): characters XML 1.0 forbids (U+0000–U+001F but tab, LF and CR,
 * U+FFFE, U+FFFF, lone surrogates) in a course's titles, texts, alt texts and notes never make a
 * document the service writes ill-formed. Through the real service: both XLIFF versions validate against
 * the OASIS schemas and import back, and every XML file of every package is well-formed for xmllint.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { strFromU8, unzipSync } from "fflate";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { exportPackage, pngBase64, readExport } from "./support/transfer.ts";
import { validateXliff } from "./support/xliff-schemas.ts";
import { xmlAttribute, xmlText } from "../src/codecs/xml-write.ts";

const forbidden = [
  ...Array.from({ length: 32 }, (_, code) => String.fromCharCode(code)).filter((char) => !["\t", "\n", "\r"].includes(char)),
  "\uFFFE",
  "\uFFFF",
  // A low surrogate before a high one: two lone surrogates, never a pair.
  "\uDFFF",
  "\uD800",
];
/** Every forbidden character, between words so each text stays non-empty. */
const hostile = (word: string) => `${word} ${forbidden.join("")} end`;

function wellFormed(xml: string): { ok: boolean; output: string } {
  const file = join(mkdtempSync(join(tmpdir(), "xml-well-formed-")), "document.xml");
  writeFileSync(file, xml);
  const run = Bun.spawnSync(["xmllint", "--noout", "--nonet", file]);
  return { ok: run.exitCode === 0, output: `${run.stdout.toString()}${run.stderr.toString()}` };
}

test("the escapers drop every forbidden character and keep tab, LF, CR and astral characters", () => {
  expect(xmlText(`a${forbidden.join("")}b`)).toBe("ab");
  expect(xmlText("x\ty\nz\r😀 <&>")).toBe("x\ty\nz&#13;😀 &lt;&amp;&gt;");
  expect(xmlAttribute('"\t\n\r\u000B')).toBe("&quot;&#9;&#10;&#13;");
  expect(wellFormed(`<a b="${xmlAttribute(hostile("v"))}">${xmlText(hostile("w"))}</a>`).ok).toBe(true);
});

describe("a course full of forbidden characters", () => {
  let service: TestService;
  let alice: Agent;
  let courseId: string;

  beforeAll(async () => {
    service = await startTestService();
    alice = await connectAgent(service, await devAccessToken(service, "alice"));
    const course = (await alice.call("create_course", {
      title: hostile("Course"),
      description: hostile("Description"),
      language: "en",
      audience: hostile("Audience"),
      objectives: [{ key: "o", text: hostile("Objective") }],
      modules: [
        {
          title: hostile("Module"),
          summary: hostile("Summary"),
          lessons: [
            {
              title: hostile("Lesson"),
              blocks: [
                { type: "heading", text: hostile("Heading"), level: 2 },
                { type: "text", markdown: `${hostile("Text")} with a [link](https://example.com/a) and *emphasis* ${forbidden.join("")}` },
                { type: "callout", variant: "info", title: hostile("Callout"), markdown: hostile("Body") },
              ],
            },
            {
              title: hostile("Quiz"),
              kind: "quiz",
              blocks: [
                {
                  type: "single_choice",
                  prompt: hostile("Prompt"),
                  choices: [
                    { text: hostile("Yes"), correct: true, feedback: hostile("Right") },
                    { text: hostile("No") },
                  ],
                  explanation: hostile("Because"),
                },
              ],
            },
          ],
        },
      ],
    })) as { id: string; modules: { lessons: { id: string }[] }[] };
    courseId = course.id;
    const upload = (await alice.call("upload_asset", { courseId, filename: "logo.png", dataBase64: pngBase64 })) as { asset: { id: string } };
    await alice.call("add_blocks", { courseId, lessonId: course.modules[0]?.lessons[0]?.id, blocks: [{ type: "image", assetId: upload.asset.id, alt: hostile("Alt") }] });
    await alice.call("update_course", { courseId, theme: { logo: { assetId: upload.asset.id, alt: hostile("Logo") } } });
    // The service stores what it was given, so the writers below really see the characters (lone
    // surrogates cannot travel in UTF-8: the request's encoding makes them U+FFFD; the first test covers them).
    const stored = (await alice.call("get_course", { courseId, includeBlocks: false })) as { title: string };
    expect(stored.title).toBe(hostile("Course").replace(/[\uD800-\uDFFF]/g, "\uFFFD"));
  });

  afterAll(async () => {
    await alice?.close();
    await service?.dispose();
  });

  for (const [format, language] of [["xliff20", "de"], ["xliff12", "fr"]] as const) {
    test(`${format}: export_translation is valid against the OASIS schema and a full translation imports back`, async () => {
      const result = await alice.callRaw("export_translation", { courseId, language, format });
      expect(result.isError).toBeFalsy();
      const link = result.content.find((item) => item.type === "resource_link") as { uri: string };
      const xliff = new TextDecoder().decode((await readExport(alice, link.uri)).bytes);
      expect(xliff).toContain("Logo");
      const validation = validateXliff(format, xliff);
      expect(validation.output).not.toContain("error");
      expect(validation.ok).toBe(true);
      // Every unit (titles, texts, alt texts; notes name the lesson and module titles) gets a target.
      const translated = xliff.replace(/<source( xml:space="preserve")?>([\s\S]*?)<\/source>/g, (_m, space: string | undefined, inner: string) => `<source${space ?? ""}>${inner}</source><target${space ?? ""}>${inner.replace(/end/g, "Ende")}</target>`);
      expect(validateXliff(format, translated).ok).toBe(true);
      const imported = (await alice.call("import_translation", { courseId, language, xliff: translated })) as { applied: number; translation: { untranslated: number } };
      expect(imported.translation.untranslated).toBe(0);
      expect(imported.applied).toBeGreaterThan(10);
    });
  }

  for (const format of ["scorm12", "scorm2004", "cmi5", "imscc"] as const) {
    test(`${format}: every XML file of the package is well-formed`, async () => {
      const { structured } = await exportPackage(alice, { courseId, format });
      const files = unzipSync((await readExport(alice, structured.uri)).bytes);
      const xmlFiles = Object.keys(files).filter((name) => name.endsWith(".xml"));
      expect(xmlFiles.length).toBeGreaterThan(0);
      for (const name of xmlFiles) {
        const checked = wellFormed(strFromU8(files[name] as Uint8Array));
        expect(`${name}: ${checked.ok ? "well-formed" : checked.output}`).toBe(`${name}: well-formed`);
      }
    });
  }
});
