/**
 * Translators change words, not structure: through the real service, a target (set_translation_units,
 * or an XLIFF 2.0 / 1.2 file whose target text types Markdown) that adds a link, a picture, HTML or
 * block syntax its source does not have is refused, naming every such unit, and nothing is written. A
 * target that keeps the source's own markup goes through.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { readExport } from "./support/transfer.ts";
import { structureAdded } from "../src/authoring/translation/target-structure.ts";

type Unit = { id: string; source: string; target: string | null; state: string };

describe("structureAdded reads both texts with markdown-it", () => {
  const cases: [string, string, string, RegExp][] = [
    ["a link", "Read the guide.", "Lisez [le guide](https://phish.example/login).", /a link to "https:\/\/phish\.example\/login"/],
    ["a picture", "Welcome.", "Bienvenue. ![](https://track.example/p.gif)", /a picture from "https:\/\/track\.example\/p\.gif"/],
    ["an autolink", "Welcome.", "Bienvenue <https://phish.example>", /a link to "https:\/\/phish\.example"/],
    ["a bare address", "Welcome.", "Bienvenue https://phish.example", /a link to "https:\/\/phish\.example"/],
    ["a reference link", "Welcome.", "Voir [ici][x].\n\n[x]: https://phish.example", /a link to .*phish/],
    ["inline HTML", "Welcome.", 'Bienvenue <img src="https://track.example/p.gif">', /HTML "<img/],
    ["an HTML block", "Welcome.", "<div>\nBienvenue\n</div>", /HTML "<div>/],
    ["a heading", "Welcome.", "# Bienvenue", /a heading \(#\)/],
    ["a list", "Welcome.", "- Bienvenue", /a bulleted list/],
    ["a numbered list", "Welcome.", "1. Bienvenue", /a numbered list/],
    ["a quote", "Welcome.", "> Bienvenue", /a quote/],
    ["a code fence", "Welcome.", "```\nBienvenue\n```", /a code fence/],
    ["a table", "Welcome.", "| a | b |\n|---|---|\n| 1 | 2 |", /a table/],
    ["a thematic break", "Welcome.", "Bienvenue\n\n---\n\nSuite", /a thematic break/],
    ["a moved link", "Read [the guide](https://good.example).", "Lisez [le guide](https://phish.example).", /a link to "https:\/\/phish\.example"/],
    ["a second copy of a link", "Read [the guide](https://good.example).", "[Lisez](https://good.example) [le guide](https://good.example).", /a link to "https:\/\/good\.example" \(2 times; the source has it 1 time\(s\)\)/],
  ];
  for (const [name, source, target, expected] of cases) {
    test(`refuses ${name}`, () => {
      expect(structureAdded(source, target).join("; ")).toMatch(expected);
    });
  }

  test("words, the source's own links, emphasis, code spans and plain sentences with dots pass", () => {
    expect(structureAdded("Read [the guide](https://good.example) **now**.", "Lisez **maintenant** [le guide](https://good.example).")).toEqual([]);
    expect(structureAdded("## Steps\n\n- one\n- two", "## Étapes\n\n- un\n- deux\n- trois")).toEqual([]);
    expect(structureAdded("Use `npm`.", "Utilisez `npm`, z.B. Node.js 3.5.")).toEqual([]);
    // A German date at the start reads as a numbered list unless escaped, as the error message says.
    expect(structureAdded("January 1 is a holiday.", "1. Januar ist ein Feiertag.")).toEqual(["a numbered list"]);
    expect(structureAdded("January 1 is a holiday.", "1\\. Januar ist ein Feiertag.")).toEqual([]);
  });
});

describe("through the service", () => {
  let service: TestService;
  let alice: Agent;
  let courseId: string;
  let unitIds: { intro: string; linked: string; title: string };

  beforeAll(async () => {
    service = await startTestService();
    alice = await connectAgent(service, await devAccessToken(service, "alice"));
    const course = await alice.call("create_course", {
      title: "Phishing awareness",
      modules: [{ title: "Basics", lessons: [{ title: "Spot it", blocks: [{ type: "text", markdown: "Check the sender." }, { type: "text", markdown: "Read [the policy](https://intranet.example/policy)." }] }] }],
    });
    courseId = course.id as string;
    const blocks = (course.modules as { lessons: { id: string; blocks: { id: string }[] }[] }[])[0]!.lessons[0]!.blocks;
    unitIds = { intro: `${blocks[0]!.id}/markdown`, linked: `${blocks[1]!.id}/markdown`, title: `${courseId}/title` };
  });

  afterAll(async () => {
    await alice?.close();
    await service?.dispose();
  });

  test("set_translation_units: every unit that adds structure is named, with what it added, and nothing is written", async () => {
    const error = await alice.fail("set_translation_units", {
      courseId,
      language: "fr",
      units: [
        { id: unitIds.title, target: "Sensibilisation" },
        { id: unitIds.intro, target: "Vérifiez l'expéditeur. ![](https://track.example/p.gif)" },
        { id: unitIds.linked, target: "Lisez [la politique](https://phish.example/login)." },
      ],
    });
    expect(error.code).toBe("invalid_arguments");
    expect(error.message).toContain(`unit ${unitIds.intro} adds a picture from "https://track.example/p.gif"`);
    expect(error.message).toContain(`unit ${unitIds.linked} adds a link to "https://phish.example/login"`);
    expect(error.message).not.toContain(`unit ${unitIds.title}`);
    const units = error.details.units as { unitId: string; field: string }[];
    expect(units.map((unit) => [unit.unitId, unit.field])).toEqual([
      [unitIds.intro, "units[1].target"],
      [unitIds.linked, "units[2].target"],
    ]);
    // Nothing was written: not even the good unit, and no translation course was created.
    const missing = await alice.fail("get_translation_units", { courseId, language: "fr" });
    expect(missing.code).toBe("not_found");
  });

  test("set_translation_units: a target that keeps its source's link and adds only words is stored", async () => {
    const result = await alice.call("set_translation_units", { courseId, language: "fr", units: [{ id: unitIds.linked, target: "Lisez [la politique](https://intranet.example/policy) **attentivement**." }] });
    expect(result.applied).toBe(1);
  });

  for (const format of ["xliff20", "xliff12"] as const) {
    test(`import_translation (${format}): Markdown typed as text in a target is refused per unit`, async () => {
      const exported = await alice.callRaw("export_translation", { courseId, language: "fr", format });
      const link = exported.content.find((item) => item.type === "resource_link") as { uri: string };
      const xliff = new TextDecoder().decode((await readExport(alice, link.uri)).bytes);
      const hostile = xliff
        .replace(/<target\b[\s\S]*?<\/target>/g, "")
        .replace(/(<(?:unit|trans-unit) id="[^"]*"[^>]*?(?:name|resname)="([^"]+)"[\s\S]*?)<source( xml:space="preserve")?>([\s\S]*?)<\/source>/g, (_m, head: string, unitId: string, space: string | undefined, inner: string) => {
          const extra = unitId === unitIds.intro ? " [Connectez-vous](https://phish.example/login)" : unitId === unitIds.title ? " &lt;img src=&quot;https://track.example/t.gif&quot;&gt;" : "";
          return `${head}<source${space ?? ""}>${inner}</source><target${space ?? ""}>${inner}${extra}</target>`;
        });
      expect(hostile).toContain("phish.example");
      const error = await alice.fail("import_translation", { courseId, language: "fr", xliff: hostile });
      expect(error.code).toBe("invalid_arguments");
      expect(error.message).toContain(`unit ${unitIds.intro} adds a link to "https://phish.example/login"`);
      expect(error.message).toContain(`unit ${unitIds.title} adds HTML`);
      const units = (await alice.call("get_translation_units", { courseId, language: "fr" })).units as Unit[];
      expect(units.find((unit) => unit.id === unitIds.intro)?.target).toBeNull();
    });
  }
});
