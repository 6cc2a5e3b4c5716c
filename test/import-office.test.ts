/**
 * import_course of Word and PowerPoint files through the real service, from an uploaded asset: documents
 * written by LibreOffice and by independent writers (the npm docx library, pptxgenjs) become draft
 * courses whose headings or slides are modules and lessons, lists, tables, quotes and code stay what they
 * are, pictures become assets that validate_course flags for alt text, speaker notes become review comments
 * on their lesson, and the result says what was kept as text and what was dropped. Hostile files (macros,
 * a zip bomb, external relationships, entities, 2,000 slides, a type that lies) are refused naming the file
 * and the rule, with nothing written.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { zipSync } from "fflate";
import { AlignmentType, Document, HeadingLevel, ImageRun, LevelFormat, Packer, Paragraph, Table, TableCell, TableRow, TextRun } from "docx";
import PptxGenJS from "pptxgenjs";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { deckFromLibreOffice, partText, redPng, withParts, wordFromHtml } from "./support/office-documents.ts";
import { startTestService, type TestService } from "./support/service.ts";

type Json = Record<string, any>;

let service: TestService;
let alice: Agent;
let bob: Agent;
let uploadsCourse: string;

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

beforeAll(async () => {
  service = await startTestService();
  alice = await connectAgent(service, await devAccessToken(service, "alice"));
  bob = await connectAgent(service, await devAccessToken(service, "bob"));
  uploadsCourse = (await alice.call("create_course", { title: "Uploads" })).id as string;
});

afterAll(async () => {
  await alice?.close();
  await bob?.close();
  await service?.dispose();
});

async function upload(filename: string, bytes: Uint8Array): Promise<string> {
  return ((await alice.call("upload_asset", { courseId: uploadsCourse, filename, dataBase64: base64(bytes) })).asset as Json).id;
}

async function importFile(filename: string, bytes: Uint8Array): Promise<{ result: Json; course: Json }> {
  const result = await alice.call("import_course", { assetId: await upload(filename, bytes) });
  // import_course answers with IDs; the content is read back with get_course.
  const course = (await alice.call("get_course", { courseId: (result.course as Json).id })) as Json;
  return { result, course };
}

const lessonsOf = (course: Json) => (course.modules as Json[]).flatMap((module) => module.lessons as Json[]);
const blockTypes = (lesson: Json) => (lesson.blocks as Json[]).map((block) => block.type);

async function findings(courseId: string): Promise<Json[]> {
  return (await alice.call("validate_course", { courseId })).findings as Json[];
}

describe("Word documents", () => {
  test("a LibreOffice document: headings become the title, modules and lessons; lists, tables, quotes, code and pictures keep their kind", async () => {
    const html = `<html><body>
      <h1>Fire Safety</h1><p>What every member of staff must know.</p>
      <h2>Basics</h2><p>Start here.</p>
      <h3>Alarms</h3><p>When the alarm <b>sounds</b>:</p><ul><li>Leave the building</li><li>Call 112</li></ul>
      <ol><li>First step</li><li>Second step</li></ol>
      <blockquote>Safety first, always.</blockquote><pre>assembly --point B</pre>
      <table border="1"><tr><th>Class</th><th>Use</th></tr><tr><td>CO2</td><td>Electrical</td></tr></table>
      <h3>Exits</h3><p><img src="data:image/png;base64,${base64(redPng)}" alt="Exit sign"></p>
      <h2>Extinguishers</h2><h3>Types</h3><p>Four kinds.</p>
    </body></html>`;
    const { result, course } = await importFile("fire-safety.docx", wordFromHtml(html));
    expect(result.importedFrom).toBe("docx");
    expect(course.title).toBe("Fire Safety");
    expect(course.description).toContain("What every member of staff must know.");
    expect((course.modules as Json[]).map((module) => module.title)).toEqual(["Basics", "Extinguishers"]);
    expect(lessonsOf(course).map((lesson) => lesson.title)).toEqual(["Alarms", "Exits", "Types"]);
    const alarms = lessonsOf(course)[0] as Json;
    expect(blockTypes(alarms)).toEqual(["text", "text", "text", "quote", "code", "text"]);
    const blocks = alarms.blocks as Json[];
    expect(blocks[0]?.markdown).toContain("**sounds**");
    expect(blocks[1]?.markdown).toBe("- Leave the building\n- Call 112");
    expect(blocks[2]?.markdown).toBe("1. First step\n2. Second step");
    expect(blocks[3]?.text).toBe("Safety first, always.");
    expect(blocks[4]?.code).toBe("assembly --point B");
    expect(blocks[5]?.markdown).toBe("| Class | Use |\n| --- | --- |\n| CO2 | Electrical |");
    const picture = (lessonsOf(course)[1]?.blocks as Json[]).find((block) => block.type === "image") as Json;
    expect(picture.assetId).toMatch(/^ast_/);
    const assets = (await alice.call("list_assets", { courseId: course.id })).assets as Json[];
    expect(assets.map((asset) => [asset.id, asset.mediaType])).toEqual([[picture.assetId, "image/png"]]);
    const flagged = (await findings(course.id)).filter((finding) => String(finding.ruleId).startsWith("image."));
    expect(flagged.map((finding) => finding.ruleId)).toEqual(["image.unhelpful_alt"]);
  }, 120_000);

  test("a document written by the docx library: styles, numbering, a described picture and a table", async () => {
    const document = new Document({
      numbering: { config: [{ reference: "steps", levels: [{ level: 0, format: LevelFormat.DECIMAL, text: "%1.", alignment: AlignmentType.START }] }] },
      sections: [
        {
          children: [
            new Paragraph({ text: "Data Protection", heading: HeadingLevel.TITLE }),
            new Paragraph({ text: "Handling personal data." }),
            new Paragraph({ text: "Principles", heading: HeadingLevel.HEADING_1 }),
            new Paragraph({ text: "Minimisation", heading: HeadingLevel.HEADING_2 }),
            new Paragraph({ children: [new TextRun({ text: "Collect ", italics: true }), new TextRun("only what you need.")] }),
            new Paragraph({ text: "Ask why", numbering: { reference: "steps", level: 0 } }),
            new Paragraph({ text: "Delete the rest", numbering: { reference: "steps", level: 0 } }),
            new Paragraph({ text: "Keep it short", bullet: { level: 0 } }),
            new Paragraph({ children: [new ImageRun({ type: "png", data: redPng, transformation: { width: 40, height: 30 }, altText: { name: "chart", description: "Bar chart of requests", title: "Requests" } })] }),
            new Table({ rows: [new TableRow({ children: [new TableCell({ children: [new Paragraph("Role")] }), new TableCell({ children: [new Paragraph("Duty")] })] }), new TableRow({ children: [new TableCell({ children: [new Paragraph("DPO")] }), new TableCell({ children: [new Paragraph("Advise")] })] })] }),
            new Paragraph({ text: "Rights", heading: HeadingLevel.HEADING_1 }),
            new Paragraph({ text: "Access", heading: HeadingLevel.HEADING_2 }),
            new Paragraph({ text: "Anyone may ask for their data." }),
          ],
        },
      ],
    });
    const { course } = await importFile("data-protection.docx", new Uint8Array(await Packer.toBuffer(document)));
    expect(course.title).toBe("Data Protection");
    expect((course.modules as Json[]).map((module) => module.title)).toEqual(["Principles", "Rights"]);
    const minimisation = lessonsOf(course)[0] as Json;
    expect(minimisation.title).toBe("Minimisation");
    expect(blockTypes(minimisation)).toEqual(["text", "text", "text", "image", "text"]);
    const blocks = minimisation.blocks as Json[];
    expect(blocks[0]?.markdown).toBe("*Collect* only what you need.");
    expect(blocks[1]?.markdown).toBe("1. Ask why\n2. Delete the rest");
    expect(blocks[2]?.markdown).toBe("- Keep it short");
    expect(blocks[3]?.alt).toBe("Picture 1");
    expect(blocks[4]?.markdown).toContain("| DPO | Advise |");
    expect((await findings(course.id)).some((finding) => finding.ruleId === "image.unhelpful_alt")).toBe(true);
  }, 60_000);
});

describe("PowerPoint decks", () => {
  test("a LibreOffice deck: the title slide names the course, slides are lessons in order, notes become comments on their lesson", async () => {
    const deck = deckFromLibreOffice("Fire Safety Deck", "For all staff", [
      { title: "Alarms", bullets: ["Leave the building", "Call 112"], picture: { description: "A red alarm button" }, notes: "Remind them where the assembly point is." },
      { title: "Extinguishers", table: [["Type", "Use"], ["CO2", "Electrical"]] },
      { title: "Summary", bullets: ["Stay calm"] },
    ]);
    const { result, course } = await importFile("fire-deck.pptx", deck);
    expect(result.importedFrom).toBe("pptx");
    expect(course.title).toBe("Fire Safety Deck");
    expect(course.description).toBe("For all staff");
    expect(lessonsOf(course).map((lesson) => lesson.title)).toEqual(["Alarms", "Extinguishers", "Summary"]);
    const [alarms, extinguishers] = lessonsOf(course) as [Json, Json];
    expect(blockTypes(alarms)).toEqual(["text", "image"]);
    expect((alarms.blocks as Json[])[0]?.markdown).toBe("- Leave the building\n- Call 112");
    expect((extinguishers.blocks as Json[])[0]?.markdown).toBe("| Type | Use |\n| --- | --- |\n| CO2 | Electrical |");
    expect((result.report as Json).items).toContainEqual({ item: "speaker notes of 1 slide(s)", outcome: "changed", notes: [expect.stringContaining("review comment")] });
    const comments = (await alice.call("list_comments", { courseId: course.id })).comments as Json[];
    expect(comments.map((comment) => [comment.target.id, comment.body])).toEqual([[alarms.id, "Speaker notes of slide 2:\n\nRemind them where the assembly point is."]]);
    expect((await findings(course.id)).filter((finding) => finding.ruleId === "image.unhelpful_alt")).toHaveLength(1);
  }, 120_000);

  test("a pptxgenjs deck: title and body placeholders, section slides start modules, hidden slides and charts are reported as dropped", async () => {
    const pptx = new PptxGenJS();
    pptx.defineSlideMaster({ title: "CONTENT", objects: [{ placeholder: { options: { name: "title", type: "title", x: 0.5, y: 0.3, w: 9, h: 1 }, text: "" } }, { placeholder: { options: { name: "body", type: "body", x: 0.5, y: 1.5, w: 9, h: 4 }, text: "" } }] });
    pptx.defineSlideMaster({ title: "SECTION", objects: [{ placeholder: { options: { name: "title", type: "title", x: 0.5, y: 2, w: 9, h: 1 }, text: "" } }] });
    pptx.addSlide({ masterName: "SECTION" }).addText("Safety deck", { placeholder: "title" });
    const first = pptx.addSlide({ masterName: "CONTENT" });
    // Added body first: the title placeholder still names the lesson, then shapes read top to bottom.
    first.addText([{ text: "Point A", options: { bullet: true, breakLine: true } }, { text: "Point B", options: { bullet: true } }], { placeholder: "body" });
    first.addText("Opening", { placeholder: "title" });
    first.addNotes("Say hello.");
    const hidden = pptx.addSlide({ masterName: "CONTENT" });
    hidden.addText("Secret", { placeholder: "title" });
    hidden.hidden = true;
    pptx.addSlide({ masterName: "SECTION" }).addText("Part two", { placeholder: "title" });
    const charted = pptx.addSlide({ masterName: "CONTENT" });
    charted.addText("Numbers", { placeholder: "title" });
    charted.addText("Sales grew.", { placeholder: "body" });
    charted.addChart(pptx.ChartType.bar, [{ name: "Sales", labels: ["Q1", "Q2"], values: [1, 2] }], { x: 1, y: 5, w: 4, h: 2 });
    const bytes = (await pptx.write({ outputType: "uint8array" })) as Uint8Array;
    const { result, course } = await importFile("deck.pptx", bytes);
    expect(course.title).toBe("Safety deck");
    expect((course.modules as Json[]).map((module) => [module.title, (module.lessons as Json[]).map((lesson) => lesson.title)])).toEqual([
      ["Safety deck", ["Opening"]],
      ["Part two", ["Numbers"]],
    ]);
    const opening = lessonsOf(course)[0] as Json;
    expect((opening.blocks as Json[])[0]?.markdown).toBe("- Point A\n- Point B");
    const report = result.report as Json;
    expect(report.items).toContainEqual({ item: "speaker notes of 1 slide(s)", outcome: "changed", notes: [expect.stringContaining("review comment")] });
    const dropped = (report.items as Json[]).filter((entry) => entry.outcome === "dropped");
    expect(report.dropped).toBe(2);
    expect(dropped.map((entry) => entry.item)).toEqual(["slide 3 (hidden)", expect.stringContaining("a chart, diagram or object on slide 5")]);
    for (const entry of dropped) expect(entry.notes[0].length).toBeGreaterThan(10);
  }, 60_000);
});

describe("long decks", () => {
  test("260 slides with notes (over 1,000 parts) import, and more lessons than a module holds continue in a new module", async () => {
    const pptx = new PptxGenJS();
    pptx.addSlide().addText("Induction", { x: 1, y: 1, w: 8, h: 1 });
    for (let number = 2; number <= 260; number++) {
      const slide = pptx.addSlide();
      slide.addText(`Topic ${number}`, { x: 0.5, y: 0.3, w: 9, h: 0.8 });
      slide.addText("One point.", { x: 0.5, y: 1.5, w: 9, h: 1 });
      slide.addNotes(`Note ${number}.`);
    }
    const bytes = (await pptx.write({ outputType: "uint8array" })) as Uint8Array;
    const result = await alice.call("import_course", { assetId: await upload("induction.pptx", bytes) });
    // A course this long comes in pages: a module may go on in the next page.
    const modules: Json[] = [];
    let cursor: unknown;
    do {
      const page = (await alice.call("get_course", { courseId: (result.course as Json).id, includeBlocks: false, ...(cursor ? { cursor } : {}) })) as Json;
      for (const module of page.modules as Json[]) {
        const seen = modules.find((known) => known.id === module.id);
        if (seen) seen.lessons.push(...module.lessons);
        else modules.push({ ...module, lessons: [...module.lessons] });
      }
      cursor = page.nextCursor;
    } while (cursor);
    const course = { modules };
    expect(modules.map((module) => [module.title, (module.lessons as Json[]).length])).toEqual([
      ["Induction", 200],
      ["Induction (continued)", 59],
    ]);
    expect(lessonsOf(course)[200]?.title).toBe("Topic 202");
    const items = (result.report as Json).items as Json[];
    expect(items).toContainEqual({ item: "speaker notes of 259 slide(s)", outcome: "changed", notes: [expect.stringContaining("review comment")] });
    expect(items).toContainEqual({ item: 'slide 202 starts the module "Induction (continued)": a module holds at most 200 lessons', outcome: "changed" });
  }, 60_000);
});

describe("bad input: a clear error naming the file and the rule, nothing written", () => {
  let good: Uint8Array;
  let coursesBefore: unknown;

  beforeAll(async () => {
    good = new Uint8Array(await Packer.toBuffer(new Document({ sections: [{ children: [new Paragraph({ text: "Policy", heading: HeadingLevel.HEADING_1 }), new Paragraph("Text.")] }] })));
  });

  async function refused(args: Json, code: string, ...phrases: string[]): Promise<void> {
    coursesBefore = (await alice.call("list_courses", { limit: 100 })).courses;
    const error = await alice.fail("import_course", args);
    expect(error.code).toBe(code);
    for (const phrase of phrases) expect(error.message).toContain(phrase);
    expect((await alice.call("list_courses", { limit: 100 })).courses).toEqual(coursesBefore);
  }

  test("a macro-enabled document: a vbaProject part, or a macro content type", async () => {
    const withMacros = withParts(good, { "word/vbaProject.bin": new Uint8Array(64) });
    // Sent inline it has no name of its own, so the error names where it came from, and the rule.
    await refused({ contentBase64: base64(withMacros) }, "invalid_arguments", "the file in contentBase64: ", "macros");
    const types = partText(good, "[Content_Types].xml").replace("wordprocessingml.document.main+xml", "ms-word.document.macroEnabled.main+xml");
    await refused({ contentBase64: base64(withParts(good, { "[Content_Types].xml": types })) }, "invalid_arguments", "macros");
  });

  test("a zip bomb named .docx", async () => {
    const bomb = withParts(good, { "word/media/huge.bin": new Uint8Array(40 * 1024 * 1024) });
    await refused({ format: "docx", contentBase64: base64(bomb) }, "limit_exceeded", "zip bomb");
  });

  test("an external relationship (LibreOffice links a picture it was given by path) and a DOCTYPE with entities", async () => {
    const linked = wordFromHtml(`<html><body><h1>Linked</h1><p><img src="file:///tmp/not-there.png"></p></body></html>`);
    await refused({ contentBase64: base64(linked) }, "invalid_arguments", 'TargetMode="External"', "only hyperlinks", "linked rather than embedded", "Break Link");
    const body = partText(good, "word/document.xml").replace('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>', "");
    const entity = `<?xml version="1.0"?><!DOCTYPE w:document [<!ENTITY x "xxxxxxxxxx">]>${body.replace("Text.", "&x;")}`;
    await refused({ contentBase64: base64(withParts(good, { "word/document.xml": entity })) }, "invalid_arguments", "word/document.xml", "DOCTYPE");
  }, 120_000);

  test("a deck of 2,000 slides", async () => {
    const pptx = new PptxGenJS();
    pptx.addSlide().addText("One", { x: 1, y: 1, w: 5, h: 1 });
    const deck = (await pptx.write({ outputType: "uint8array" })) as Uint8Array;
    const presentation = partText(deck, "ppt/presentation.xml");
    const ids = Array.from({ length: 2000 }, (_, index) => `<p:sldId id="${256 + index}" r:id="rId999"/>`).join("");
    const many = presentation.replace(/<p:sldIdLst>[\s\S]*<\/p:sldIdLst>/, `<p:sldIdLst>${ids}</p:sldIdLst>`);
    await refused({ contentBase64: base64(withParts(deck, { "ppt/presentation.xml": many })) }, "limit_exceeded", "2000 slides", "at most 1000");
  });

  test("a type that lies: a deck sent as docx, a zip that is no Office file sent as docx, a deck renamed .docx", async () => {
    const pptx = new PptxGenJS();
    pptx.addSlide().addText("One", { x: 1, y: 1, w: 5, h: 1 });
    const deck = (await pptx.write({ outputType: "uint8array" })) as Uint8Array;
    await refused({ format: "docx", contentBase64: base64(deck) }, "invalid_arguments", "format is docx but the content is a PowerPoint presentation");
    await refused({ format: "docx", contentBase64: base64(zipSync({ "notes.txt": new TextEncoder().encode("hi") })) }, "invalid_arguments", "not a Word or PowerPoint file");
    const error = await alice.fail("upload_asset", { courseId: uploadsCourse, filename: "deck.docx", dataBase64: base64(deck) });
    expect(error.message).toContain("presentation");
  });

  test("an asset of a course the person cannot read is not found", async () => {
    const assetId = await upload("policy.docx", good);
    const error = await bob.fail("import_course", { assetId });
    expect(error.code).toBe("not_found");
    expect(error.message).toContain(assetId);
  });
});

describe("hostile files through the files view: chunked upload, then import_course by assetId", () => {
  let good: Uint8Array;

  beforeAll(async () => {
    good = new Uint8Array(await Packer.toBuffer(new Document({ sections: [{ children: [new Paragraph({ text: "Policy", heading: HeadingLevel.HEADING_1 }), new Paragraph("Text.")] }] })));
  });

  async function begin(filename: string, bytes: Uint8Array): Promise<Json> {
    return alice.call("begin_upload", { courseId: uploadsCourse, filename, byteSize: bytes.length });
  }

  /** Sends the file as the view does; returns the new asset's ID. */
  async function sendThroughView(filename: string, bytes: Uint8Array): Promise<string> {
    const begun = await begin(filename, bytes);
    for (let index = 0; index * begun.chunkBytes < bytes.length; index++) {
      await alice.call("upload_chunk", { uploadId: begun.uploadId, index, dataBase64: base64(bytes.subarray(index * begun.chunkBytes, (index + 1) * begun.chunkBytes)) });
    }
    return (await alice.call("finish_upload", { uploadId: begun.uploadId })).assetId as string;
  }

  async function state(): Promise<unknown> {
    return [(await alice.call("list_courses", { limit: 100 })).courses, (await alice.call("list_assets", { courseId: uploadsCourse, limit: 100 })).assets];
  }

  /** The upload is refused when finished, naming the file and the rule; no asset, no course. */
  async function refusedAtFinish(filename: string, bytes: Uint8Array, ...phrases: string[]): Promise<void> {
    const before = await state();
    const begun = await begin(filename, bytes);
    for (let index = 0; index * begun.chunkBytes < bytes.length; index++) {
      await alice.call("upload_chunk", { uploadId: begun.uploadId, index, dataBase64: base64(bytes.subarray(index * begun.chunkBytes, (index + 1) * begun.chunkBytes)) });
    }
    const error = await alice.fail("finish_upload", { uploadId: begun.uploadId });
    expect(error.code).toBe("invalid_arguments");
    for (const phrase of [filename, ...phrases]) expect(error.message).toContain(phrase);
    expect(await state()).toEqual(before);
  }

  /** The upload becomes an asset; import_course refuses it naming the file and the rule, and creates no course. */
  async function refusedAtImport(filename: string, bytes: Uint8Array, code: string, ...phrases: string[]): Promise<void> {
    const assetId = await sendThroughView(filename, bytes);
    const before = await state();
    const error = await alice.fail("import_course", { assetId });
    expect(error.code).toBe(code);
    for (const phrase of [filename, ...phrases]) expect(error.message).toContain(phrase);
    expect(error.message).toContain("nothing was imported");
    expect(await state()).toEqual(before);
  }

  test("a macro-enabled document and a macro content type are refused when the upload finishes", async () => {
    await refusedAtFinish("macros.docx", withParts(good, { "word/vbaProject.bin": new Uint8Array(64) }), "macros");
    const types = partText(good, "[Content_Types].xml").replace("wordprocessingml.document.main+xml", "ms-word.document.macroEnabled.main+xml");
    await refusedAtFinish("macro-type.docx", withParts(good, { "[Content_Types].xml": types }), "macros");
  });

  test("a type that lies: a deck named .docx, a picture named .docx", async () => {
    const pptx = new PptxGenJS();
    pptx.addSlide().addText("One", { x: 1, y: 1, w: 5, h: 1 });
    const deck = (await pptx.write({ outputType: "uint8array" })) as Uint8Array;
    await refusedAtFinish("deck.docx", deck, "presentation");
    await refusedAtFinish("photo.docx", redPng, "image/png");
  });

  test("a zip bomb named .docx is refused by the import", async () => {
    await refusedAtImport("bomb.docx", withParts(good, { "word/media/huge.bin": new Uint8Array(40 * 1024 * 1024) }), "limit_exceeded", "zip bomb");
  });

  test("an external relationship, and a DOCTYPE with entities, are refused by the import", async () => {
    const external = partText(good, "word/_rels/document.xml.rels").replace(
      "</Relationships>",
      '<Relationship Id="rIdX" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="file:///etc/passwd" TargetMode="External"/></Relationships>',
    );
    await refusedAtImport("linked.docx", withParts(good, { "word/_rels/document.xml.rels": external }), "invalid_arguments", 'TargetMode="External"');
    const body = partText(good, "word/document.xml").replace('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>', "");
    const entity = `<?xml version="1.0"?><!DOCTYPE w:document [<!ENTITY x "xxxxxxxxxx">]>${body.replace("Text.", "&x;")}`;
    await refusedAtImport("entities.docx", withParts(good, { "word/document.xml": entity }), "invalid_arguments", "word/document.xml", "DOCTYPE");
  });

  test("a deck of 2,000 slides is refused by the import", async () => {
    const pptx = new PptxGenJS();
    pptx.addSlide().addText("One", { x: 1, y: 1, w: 5, h: 1 });
    const deck = (await pptx.write({ outputType: "uint8array" })) as Uint8Array;
    const ids = Array.from({ length: 2000 }, (_, index) => `<p:sldId id="${256 + index}" r:id="rId999"/>`).join("");
    const many = partText(deck, "ppt/presentation.xml").replace(/<p:sldIdLst>[\s\S]*<\/p:sldIdLst>/, `<p:sldIdLst>${ids}</p:sldIdLst>`);
    await refusedAtImport("huge-deck.pptx", withParts(deck, { "ppt/presentation.xml": many }), "limit_exceeded", "2000 slides", "at most 1000");
  });

  test("a chunk of a document sent out of order, or by another person, is refused naming the file; nothing is kept", async () => {
    const before = await state();
    const begun = await begin("policy.docx", good);
    const chunk = base64(good.subarray(0, begun.chunkBytes));
    const outOfOrder = await alice.fail("upload_chunk", { uploadId: begun.uploadId, index: 1, dataBase64: chunk });
    expect([outOfOrder.code, outOfOrder.message]).toEqual(["invalid_arguments", expect.stringContaining("chunk 1 of policy.docx is out of order")]);
    const someoneElse = await bob.fail("upload_chunk", { uploadId: begun.uploadId, index: 0, dataBase64: chunk });
    expect([someoneElse.code, someoneElse.message]).toEqual(["forbidden", expect.stringContaining("begun by another person")]);
    await alice.call("finish_upload", { uploadId: begun.uploadId, cancel: true });
    expect(await state()).toEqual(before);
  });
});
