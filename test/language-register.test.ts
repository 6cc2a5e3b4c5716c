/**
 * Every language pack speaks in one register, as a native speaker would check it (issue 41): French
 * says "vous", German "Sie", Spanish "usted" in every string; numbers, percentages and plurals are
 * written as `Intl` writes them for the locale; keys are named as the locale's keyboards name them. A
 * course with every block type, made through the service in French, German and Spanish, shows no
 * English word: no stored English default (the continue button's "Continue"), no "plaintext".
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { unzipSync } from "fflate";
import { blockTypes } from "../src/authoring/schemas/blocks.ts";
import { DataName } from "../src/page-contract/markup-names.ts";
import { englishPacks } from "../src/render/ui-text.ts";
import { interfaceTranslations, type InterfaceLanguage } from "../src/render/ui-text-translations.ts";
import { devAccessToken } from "./support/dev-login.ts";
import { learnerFacingStrings } from "./support/learner-text.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { exportPackage, pngBase64, readExport } from "./support/transfer.ts";

const languages = ["fr", "de", "es"] as const satisfies readonly InterfaceLanguage[];

// ——— The rules ———

interface RegisterRule {
  /** What the rule finds, as a reviewer would say it. */
  name: string;
  pattern: RegExp;
  /** Words the pattern also matches that are not an informal address. */
  except?: readonly string[];
}

/** Any of `list` as a whole word (letters of any script count as word characters). */
const words = (list: readonly string[]): RegExp => new RegExp(`(?<!\\p{L})(?:${list.join("|")})(?!\\p{L})`, "giu");
/** Any of `list` opening a sentence or a clause: where an imperative addresses the reader. */
const clauseOpening = (list: readonly string[], lead = ""): RegExp => new RegExp(`(?:^|[.:;!?¡¿,«“„(]\\s*)${lead}(?:${list.join("|")})(?!\\p{L})`, "giu");

/**
 * Spanish: usted. Tú's pronouns and possessives, its verb forms (present, preterite -aste/-iste,
 * future -rás) and its imperatives at the head of a clause; words that only look alike are excepted.
 * "Su", "Ha elegido", "Elija", "Ábralo" pass.
 */
const spanishInformal: readonly RegisterRule[] = [
  { name: "tú pronoun or possessive", pattern: words(["tú", "tu", "tus", "te", "ti", "contigo", "vosotros", "vosotras", "os", "vuestro", "vuestra", "vuestros", "vuestras"]) },
  {
    name: "tú verb form",
    pattern: words(["puedes", "has", "eres", "estás", "tienes", "quieres", "quieras", "debes", "sabes", "necesitas", "haces", "vas", "hayas", "seas", "puedas", "ábrelo", "ciérralo", "suéltalo", "devuélvelo", "arrástralo", "muévelo", "colócalo", "elígelo", "ponlo", "hazlo"]),
  },
  { name: "tú preterite", pattern: /(?<!\p{L})\p{L}+(?:aste|iste)(?!\p{L})/giu, except: ["existe", "consiste", "insiste", "resiste", "persiste", "desiste", "asiste", "contraste", "ajuste", "desgaste", "triste", "chiste", "quiste"] },
  { name: "tú future", pattern: /(?<!\p{L})\p{L}+rás(?!\p{L})/giu, except: ["atrás"] },
  {
    name: "tú imperative",
    pattern: clauseOpening(["elige", "escoge", "selecciona", "pulsa", "presiona", "haz", "usa", "utiliza", "ordena", "responde", "vuelve", "pon", "arrastra", "comprueba", "mira", "escribe", "lee", "sigue", "intenta", "abre", "cierra", "toca", "completa", "revisa", "marca", "empieza", "continúa", "sal", "espera", "recuerda"]),
  },
];

/**
 * German: Sie. Du's pronouns and possessives (and ihr-plural's euch/euer), du-imperatives at the head of a
 * clause (with or without "Bitte"), and a formal imperative whose "Sie" is written small. Small "sie"
 * and "ihr" elsewhere are the third person ("sobald sie wieder antwortet") and pass.
 */
const germanInformal: readonly RegisterRule[] = [
  { name: "du pronoun or possessive", pattern: words(["du", "dich", "dir", "dein", "deine", "deinen", "deinem", "deiner", "deines", "euch", "euer", "eure", "euren", "eurem", "eurer", "eures"]) },
  {
    name: "du imperative",
    pattern: clauseOpening(
      ["wähle", "wähl", "klicke", "klick", "öffne", "schließe", "beantworte", "ordne", "ziehe", "zieh", "drücke", "drück", "nutze", "benutze", "kehre", "gehe", "geh", "lies", "sieh", "versuche", "versuch", "prüfe", "bringe", "bring", "lege", "leg", "schau", "nimm", "gib", "mach", "mache", "tippe", "starte", "beende", "antworte", "höre", "hör", "speichere", "fange", "fang", "entscheide", "sortiere", "wiederhole", "komm", "komme", "warte", "erledige"],
      "(?:bitte\\s+)?",
    ),
  },
  { name: "formal imperative with a small \"sie\"", pattern: /(?:^|[.:;!?,]\s*)(?:bitte\s+)?\p{L}+en sie(?!\p{L})/gu },
];

/**
 * French: vous. Tu's pronouns and possessives (not "ton" the noun, after an article), the elided "t’",
 * and tu-imperatives at the head of a clause ("Choisis", not "Choisissez").
 */
const frenchInformal: readonly RegisterRule[] = [
  { name: "tu pronoun or possessive", pattern: words(["tu", "toi", "ta", "tes", "te"]) },
  { name: "ton (possessive)", pattern: /(?<!(?:le|un|du|au|ce|son|mon|votre) )(?<!\p{L})ton(?!\p{L})/giu },
  { name: "elided t’", pattern: /(?<!\p{L})t[’'](?=\p{L})/giu },
  {
    name: "tu imperative",
    pattern: clauseOpening(["choisis", "réponds", "sélectionne", "clique", "reviens", "mets", "fais", "utilise", "ouvre", "ferme", "appuie", "essaie", "essaye", "vérifie", "lis", "regarde", "termine", "commence", "glisse", "retourne", "va", "viens", "quitte", "écris", "prends", "sois", "aie", "déplace", "recommence", "continue", "valide", "coche", "attends", "lance", "passe"]),
  },
];

const informalRules: Record<(typeof languages)[number], readonly RegisterRule[]> = { fr: frenchInformal, de: germanInformal, es: spanishInformal };

/** Where a string breaks its language's register: "rule: “word”", one per finding. */
function registerFindings(language: (typeof languages)[number], text: string): string[] {
  return informalRules[language].flatMap((rule) =>
    [...text.matchAll(rule.pattern)]
      .map((match) => match[0].replace(/^[\s.:;!?¡¿,«“„(]+/, ""))
      .filter((found) => !(rule.except ?? []).includes(found.toLowerCase()))
      .map((found) => `${rule.name}: “${found}”`),
  );
}

/** English words of the interface a French, German or Spanish learner must never meet (whole words, case as written). */
const englishUiWords = [
  "Continue", "Submit", "Next", "Previous", "Back", "Resume", "Score", "Pass mark", "Try again", "Check answer", "Show answer", "Show question", "Plain text", "plaintext",
  "Escape", "Lesson", "lessons", "Progress", "Contents", "Skip", "Transcript", "Captions", "Download", "download", "Step", "Marker", "Timeline", "Category", "Play again",
  "The end", "Success", "Failed", "Passed", "Completed", "Visited", "Attempts", "attempts", "Explanation", "True", "False", "Tip", "Warning", "Level", "Audience", "Length",
  "Preview", "Your", "your", "You", "you", "the", "and", "of", "About", "Choose", "Select", "Put", "Move",
];

/** The English words in `text`, its `{placeholders}` left out (the player fills them with numbers and author text). */
function englishWordsIn(text: string): string[] {
  const words = text.replace(/\{\w+\}/g, " ");
  return englishUiWords.filter((word) => new RegExp(`(?<![\\p{L}])${word}(?![\\p{L}])`, "u").test(words));
}

// ——— Every string of a pack ———

interface PackString {
  key: string;
  text: string;
}

/** Arguments that reach every branch of a pack function: singular and plural counts, zero, a fraction, author text, both preview variants, an unnumbered module. */
const sampleArguments: readonly unknown[][] = [[1, 1], [2, 3], [0, 0], [1.5, 1.5], ["«x»", "«x»"], ["draft", 2], ["published", 2], [null, "T"]];

function stringsOf(key: string, value: unknown): PackString[] {
  if (typeof value === "string") return [{ key, text: value }];
  if (typeof value === "function") {
    const texts = sampleArguments.map((args) => (value as (...args: unknown[]) => unknown)(...args)).filter((text): text is string => typeof text === "string");
    return [...new Set(texts)].map((text) => ({ key, text }));
  }
  if (value && typeof value === "object") return Object.entries(value).flatMap(([name, inner]) => stringsOf(`${key}.${name}`, inner));
  return [];
}

function packStrings(language: InterfaceLanguage): PackString[] {
  return Object.entries(interfaceTranslations[language]).flatMap(([section, strings]) => stringsOf(section, strings));
}

/** `{placeholders}` filled with a number, as the player fills them. */
const filled = (text: string, number: number): string => text.replace(/\{\w+\}/g, String(number));

describe("the rule itself", () => {
  test.each([
    ["es", "Tu resultado", "tú pronoun or possessive: “Tu”"],
    ["es", "Puedes volver y responderlas.", "tú verb form: “Puedes”"],
    ["es", "Elegiste «Verdadero»:", "tú preterite: “Elegiste”"],
    ["es", "Lo que aprenderás", "tú future: “aprenderás”"],
    ["es", "Selecciona todas las que correspondan.", "tú imperative: “Selecciona”"],
    ["es", "Las flechas eligen su lugar. Pulsa Esc para volver.", "tú imperative: “Pulsa”"],
    ["es", "Ábrelo desde la plataforma.", "tú verb form: “Ábrelo”"],
    ["de", "Dein Ergebnis", "du pronoun or possessive: “Dein”"],
    ["de", "Du hast bestanden.", "du pronoun or possessive: “Du”"],
    ["de", "Wähle alle zutreffenden Antworten.", "du imperative: “Wähle”"],
    ["de", "Bitte beantworte zuerst die Frage.", "du imperative: “Bitte beantworte”"],
    ["de", "Öffnen sie ihn erneut.", "formal imperative with a small \"sie\": “Öffnen sie”"],
    ["fr", "Ton score", "ton (possessive): “Ton”"],
    ["fr", "Tu as réussi.", "tu pronoun or possessive: “Tu”"],
    ["fr", "Choisis une catégorie", "tu imperative: “Choisis”"],
    ["fr", "Revenez pour t’entraîner.", "elided t’: “t’”"],
  ] as const)("%s: “%s” is informal (%s)", (language, text, finding) => {
    expect(registerFindings(language, text)).toEqual([finding]);
  });

  test.each([
    ["es", "Su resultado. Ha completado el curso. Elija una pareja. Ábralo desde su plataforma. Existe un ajuste. Vuelva atrás. Este contenido."],
    ["de", "Ihr Ergebnis. Wählen Sie alle zutreffenden Antworten. Bitte beantworten Sie zuerst die Frage. Ihre Lernplattform antwortet, sobald sie wieder erreichbar ist."],
    ["fr", "Votre score. Vous avez réussi. Choisissez une catégorie. Le ton urgent. Revenez à l’évaluation. Placez chaque élément."],
  ] as const)("%s: formal sentences and look-alike words pass", (language, text) => {
    expect(registerFindings(language, text)).toEqual([]);
  });
});

describe("every string of each pack", () => {
  for (const language of languages) {
    test(`${language}: every pack key is listed and checked`, () => {
      const keys = new Set(packStrings(language).map((entry) => entry.key.split(".").slice(0, 2).join(".")));
      const expected = Object.entries(englishPacks).flatMap(([section, english]) => Object.keys(english).map((key) => `${section}.${key}`));
      expect(expected.filter((key) => !keys.has(key))).toEqual([]);
    });

    test(`${language}: one formal register throughout`, () => {
      const findings = packStrings(language).flatMap((entry) => registerFindings(language, entry.text).map((finding) => `${entry.key}: ${finding} in “${entry.text}”`));
      expect(findings).toEqual([]);
    });

    test(`${language}: no English word`, () => {
      const found = packStrings(language).flatMap((entry) => englishWordsIn(entry.text).map((word) => `${entry.key}: “${word}” in “${entry.text}”`));
      expect(found).toEqual([]);
    });

    test(`${language}: percentages as Intl writes them, in the page's strings and the player's templates`, () => {
      const intl = (percent: number): string => new Intl.NumberFormat(language, { style: "percent" }).format(percent / 100);
      const pack = interfaceTranslations[language];
      for (const percent of [0, 60, 80, 100]) expect(pack.ui?.passMark?.(percent)).toEndWith(intl(percent));
      // Every percentage a runtime template shows, once the player fills it, is Intl's.
      const templates = packStrings(language).filter((entry) => entry.key.startsWith("runtime.") && entry.text.includes("%"));
      expect(templates.length).toBeGreaterThanOrEqual(8);
      for (const entry of templates) {
        for (const written of filled(entry.text, 80).match(/80\s*%/g) ?? []) expect({ key: entry.key, written }).toEqual({ key: entry.key, written: intl(80) });
      }
    });

    test(`${language}: plural forms from Intl.PluralRules, no "(s)" shortcuts, numbers in the locale's digits`, () => {
      const lazyPlurals = packStrings(language).filter((entry) => /\p{L}\((?:s|e|en|n|es)\)/u.test(entry.text));
      expect(lazyPlurals).toEqual([]);
      const ui = interfaceTranslations[language].ui;
      const one = new Intl.PluralRules(language);
      const pointWord = { fr: { one: "point", other: "points" }, de: { one: "Punkt", other: "Punkte" }, es: { one: "punto", other: "puntos" } }[language];
      for (const points of [0, 1, 1.5, 2]) {
        const number = new Intl.NumberFormat(language).format(points);
        expect(ui?.questionHeading?.(1, points)).toContain(`(${number} ${one.select(points) === "one" ? pointWord.one : pointWord.other})`);
      }
    });
  }

  test("what changed reads right: French 0 and 1,5 are singular, Spanish says “Aproximadamente 1 min”, keys are “Échap” and “Esc”", () => {
    expect(interfaceTranslations.fr.ui?.questionHeading?.(3, 0)).toBe("Question 3 (0 point)");
    expect(interfaceTranslations.fr.ui?.questionHeading?.(3, 1.5)).toBe("Question 3 (1,5 point)");
    expect(interfaceTranslations.de.ui?.questionHeading?.(3, 1.5)).toBe("Frage 3 (1,5 Punkte)");
    expect(interfaceTranslations.es.ui?.estimatedMinutes?.(1)).toBe("Aproximadamente 1 min");
    expect(interfaceTranslations.de.ui?.estimatedMinutes?.(1200)).toBe(`Etwa ${new Intl.NumberFormat("de").format(1200)} Min.`);
    expect(packStrings("es").filter((entry) => /Unos 1 /.test(entry.text))).toEqual([]);
    expect(interfaceTranslations.fr.runtime?.picked).toContain("Échap");
    expect(interfaceTranslations.de.runtime?.picked).toContain("Esc ");
    expect(interfaceTranslations.es.runtime?.picked).toContain("Esc ");
    expect(interfaceTranslations.es.runtime?.resultsHeading).toBe("Su resultado");
  });
});

// ——— A course made through the service ———

const lorem = "Lorem ipsum dolor";
const minimalPdf = "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n";

/** One of every block type, in words no language claims, as an agent sends them; continue blocks without a label, with the old stored "Continue", and with the author's own. */
function everyBlock(language: string, image: string, attachment: string): Record<string, unknown>[] {
  const question = { prompt: lorem, points: 1, objectiveIds: [], explanation: lorem };
  return [
    { type: "text", markdown: lorem },
    { type: "heading", text: lorem, level: 2 },
    { type: "image", assetId: image, alt: lorem, caption: lorem },
    { type: "video", url: "https://example.com/clip.mp4", title: lorem, transcript: lorem, captions: { url: "https://example.com/clip.vtt", language } },
    { type: "audio", url: "https://example.com/clip.mp3", title: lorem, transcript: lorem },
    { type: "callout", variant: "tip", title: lorem, markdown: lorem },
    { type: "quote", text: lorem, attribution: lorem },
    { type: "code", language: "plaintext", code: lorem, caption: lorem },
    { type: "divider" },
    { type: "accordion", items: [{ title: lorem, markdown: lorem }, { title: `${lorem} 2`, markdown: lorem }] },
    { type: "tabs", tabs: [{ title: lorem, markdown: lorem }, { title: `${lorem} 2`, markdown: lorem }] },
    { type: "flashcards", cards: [{ front: lorem, back: lorem }] },
    { type: "labeled_graphic", image: { assetId: image }, alt: lorem, markers: [{ x: 20, y: 10, title: lorem, markdown: lorem }, { x: 60, y: 45, title: `${lorem} 2`, markdown: lorem }] },
    { type: "process", steps: [{ title: lorem, markdown: lorem }, { title: `${lorem} 2`, markdown: lorem }] },
    { type: "timeline", events: [{ date: "1999", title: lorem, markdown: lorem }, { date: "2000", title: lorem, markdown: lorem }] },
    { type: "attachment", assetId: attachment, title: lorem, description: lorem },
    { type: "continue" },
    { type: "continue", label: "Continue", requireCompletion: false },
    { type: "continue", label: "Lorem ipsum", requireCompletion: false },
    {
      type: "scenario", title: lorem, markdown: lorem, character: { name: lorem }, startSceneId: "a", points: 2, objectiveIds: [],
      scenes: [
        { id: "a", markdown: lorem, choices: [{ text: lorem, feedback: lorem, next: "b" }, { text: `${lorem} 2`, next: "c" }] },
        { id: "b", markdown: lorem, ending: { outcome: "success" } },
        { id: "c", markdown: lorem, ending: { outcome: "failure" } },
      ],
    },
    { type: "continue", requireCompletion: true },
    { type: "sorting", prompt: lorem, points: 2, explanation: lorem, objectiveIds: [], categories: [{ title: "Alpha" }, { title: "Beta" }], items: [{ text: lorem, category: "Alpha", feedback: lorem }, { text: `${lorem} 2`, category: "Beta" }] },
    { type: "single_choice", ...question, choices: [{ text: lorem, correct: true, feedback: lorem }, { text: `${lorem} 2`, correct: false }] },
    { type: "multiple_choice", ...question, choices: [{ text: lorem, correct: true }, { text: `${lorem} 2`, correct: true }, { text: `${lorem} 3`, correct: false }] },
    { type: "true_false", ...question, answer: true, trueFeedback: lorem, falseFeedback: lorem },
    { type: "fill_in_blank", ...question, text: `${lorem} {{1}} ${lorem}`, blanks: [{ answers: [lorem], caseSensitive: false, feedback: lorem }] },
    { type: "matching", ...question, pairs: [{ left: lorem, right: lorem }, { left: `${lorem} 2`, right: `${lorem} 2` }] },
    { type: "ordering", ...question, items: [{ text: lorem }, { text: `${lorem} 2` }] },
    { type: "numeric", ...question, value: 2.5, tolerance: 0.1, unit: lorem, correctFeedback: lorem, incorrectFeedback: lorem },
    { type: "hotspot", ...question, image: { url: "https://example.com/p.png", alt: lorem, width: 400, height: 300 }, regions: [{ shape: "rect", x: 10, y: 10, width: 50, height: 50, name: lorem, correct: true, feedback: lorem }, { shape: "circle", x: 200, y: 150, radius: 20, name: `${lorem} 2` }] },
    { type: "drag_onto_image", ...question, image: { url: "https://example.com/p.png", alt: lorem, width: 400, height: 300 }, zones: [{ shape: "rect", id: "a", x: 10, y: 10, width: 50, height: 50, name: lorem }, { shape: "rect", id: "b", x: 100, y: 10, width: 50, height: 50, name: `${lorem} 2` }], labels: [{ text: lorem, zone: "a", feedback: lorem }, { text: `${lorem} 2`, zone: "b" }] },
    { type: "inline_choice", ...question, text: `${lorem} {{1}} ${lorem}`, gaps: [{ choices: [{ text: lorem, correct: true }, { text: `${lorem} 2` }], feedback: lorem }] },
    { type: "open_response", ...question, modelAnswer: lorem, maxCharacters: 300, rubric: { criteria: [{ text: lorem, points: 1 }] } },
    { type: "likert", prompt: lorem, explanation: lorem, objectiveIds: [], statements: [{ text: lorem }, { text: `${lorem} 2` }], scale: [lorem, `${lorem} 2`, `${lorem} 3`] },
  ];
}

describe("a course with every block type, made through the service, in French, German and Spanish", () => {
  let service: TestService;
  let alice: Agent;
  const pages = new Map<string, string>();
  const stored = new Map<string, Record<string, unknown>[]>();
  const courseIds = new Map<string, string>();

  /** The course's page in the SCORM 2004 package (the adapter's words included). */
  async function exportedPage(courseId: string, language: string): Promise<string> {
    const files = unzipSync((await readExport(alice, (await exportPackage(alice, { courseId, format: "scorm2004" })).structured.uri)).bytes);
    const decoder = new TextDecoder();
    const page = Object.entries(files).find(([name, bytes]) => name.endsWith(".html") && decoder.decode(bytes).includes(`<html lang="${language}"`));
    if (!page) throw new Error(`no page in ${language} among ${Object.keys(files).join(", ")}`);
    return decoder.decode(page[1]);
  }

  beforeAll(async () => {
    service = await startTestService();
    alice = await connectAgent(service, await devAccessToken(service, "alice"));
    for (const language of ["en", ...languages]) {
      const course = (await alice.call("create_course", { title: lorem, language, modules: [{ title: lorem, lessons: [{ title: lorem }] }] })) as { id: string };
      const image = ((await alice.call("upload_asset", { courseId: course.id, filename: "picture.png", dataBase64: pngBase64 })) as { asset: { id: string } }).asset.id;
      const attachment = ((await alice.call("upload_asset", { courseId: course.id, filename: "handout.pdf", dataBase64: Buffer.from(minimalPdf).toString("base64") })) as { asset: { id: string } }).asset.id;
      const blocks = everyBlock(language, image, attachment);
      await alice.call("add_module", {
        courseId: course.id,
        title: lorem,
        lessons: [
          { title: lorem, blocks },
          { title: `${lorem} 2`, kind: "quiz", passingScore: 80, maxAttempts: 2, blocks: blocks.filter((block) => ["single_choice", "true_false", "sorting", "scenario"].includes(String(block.type))) },
        ],
      });
      const read = (await alice.call("get_course", { courseId: course.id })) as { modules: { lessons: { blocks: Record<string, unknown>[] }[] }[] };
      stored.set(language, read.modules.at(-1)?.lessons[0]?.blocks ?? []);
      courseIds.set(language, course.id);
      pages.set(language, await exportedPage(course.id, language));
    }
  }, 120_000);

  afterAll(async () => {
    await alice?.close();
    await service?.dispose();
  });

  test("the course holds every block type", () => {
    const used = new Set((stored.get("es") ?? []).map((block) => block.type));
    expect(blockTypes.filter((type) => !used.has(type))).toEqual([]);
  });

  test("a continue block sent without a label stores none: the page takes the course language's word", () => {
    const continues = (stored.get("es") ?? []).filter((block) => block.type === "continue");
    expect(continues.map((block) => block.label ?? null)).toEqual([null, "Continue", "Lorem ipsum", null]);
  });

  for (const language of languages) {
    test(`${language}: the learner meets no English word and no informal address`, () => {
      const strings = learnerFacingStrings(pages.get(language) ?? "");
      expect(strings.length).toBeGreaterThan(100);
      expect(strings.flatMap((text) => englishWordsIn(text).map((word) => `“${word}” in “${text.trim()}”`))).toEqual([]);
      expect(strings.flatMap((text) => registerFindings(language, text).map((finding) => `${finding} in “${text.trim()}”`))).toEqual([]);
    });
  }

  test("the continue buttons read in the course's language, the old stored “Continue” too; the author's own label stays", () => {
    const buttons = (page: string): string[] => [...page.matchAll(new RegExp(`data-${DataName.continueButton}[^>]*>([^<]*)</button>`, "g"))].map(([, label]) => label ?? "");
    expect(buttons(pages.get("fr") ?? "")).toEqual(["Continuer", "Continuer", "Lorem ipsum", "Continuer"]);
    expect(buttons(pages.get("de") ?? "")).toEqual(["Weiter", "Weiter", "Lorem ipsum", "Weiter"]);
    expect(buttons(pages.get("es") ?? "")).toEqual(["Continuar", "Continuar", "Lorem ipsum", "Continuar"]);
    expect(buttons(pages.get("en") ?? "")).toEqual(["Continue", "Continue", "Lorem ipsum", "Continue"]);
  });

  test("the pass mark reads as Intl writes it in each language", () => {
    for (const language of languages) {
      const mark = new Intl.NumberFormat(language, { style: "percent" }).format(0.8);
      expect(learnerFacingStrings(pages.get(language) ?? "").some((text) => text.includes(mark))).toBe(true);
    }
  });

  test("question banks an LMS shows itself (QTI 3.0, 2.1, the cartridge's 1.2) word a true/false question's choices in the course's language", async () => {
    const words = { fr: ["Vrai", "Faux"], de: ["Wahr", "Falsch"], es: ["Verdadero", "Falso"] };
    for (const language of languages) {
      for (const format of ["qti3", "qti21", "imscc"]) {
        const files = unzipSync((await readExport(alice, (await exportPackage(alice, { courseId: courseIds.get(language) ?? "", format })).structured.uri)).bytes);
        const choices = Object.entries(files)
          .filter(([name]) => name.endsWith(".xml"))
          .flatMap(([, bytes]) => [...new TextDecoder().decode(bytes).matchAll(/<(?:qti-simple-choice|simpleChoice|mattext)[^>]*>([^<]*)</g)].map(([, text]) => (text ?? "").trim()));
        expect({ format, language, english: choices.filter((text) => text === "True" || text === "False") }).toEqual({ format, language, english: [] });
        expect(choices).toEqual(expect.arrayContaining(words[language]));
      }
    }
  }, 60_000);

  test("the English page shows those words, so the check can see them", () => {
    const found = new Set(learnerFacingStrings(pages.get("en") ?? "").flatMap(englishWordsIn));
    for (const word of ["Continue", "Plain text", "Check answer", "Next", "Transcript", "download", "Play again", "Your"]) expect(found).toContain(word);
  });
});
