/**
 * XML is read within bounds (src/codecs/xml-read.ts) and never stalls the service: through the real server,
 * import_translation refuses nesting 40,000 deep and a 15 M-character file at the first limit it
 * crosses, naming the limit, while /api/health keeps answering from another connection; a large file
 * is read in slices. The reader's own API (tree and handlers, each limit, DOCTYPE, encoding) is checked
 * directly, as the other XML readers (Office, manifests, question banks) will use it.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { devAccessToken } from "./support/dev-login.ts";
import { probeHealthWhile } from "./support/health-probe.ts";
import { AgentToolError, connectAgent, type Agent } from "./support/mcp-client.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { childElements, readXml, scanXml, textContent } from "../src/codecs/xml-read.ts";
import { CourseAuthoringError } from "../src/course-authoring-error.ts";

let service: TestService;
let alice: Agent;
let courseId: string;

const head = `<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="fr"><file id="f">`;
const tail = `</file></xliff>`;

beforeAll(async () => {
  service = await startTestService();
  alice = await connectAgent(service, await devAccessToken(service, "alice"));
  courseId = String(
    (await alice.call("create_course", { title: "Nesting", modules: [{ title: "M", lessons: [{ title: "L", blocks: [{ type: "text", markdown: "Hello." }] }] }] })).id,
  );
  await alice.call("create_translation", { courseId, language: "fr" });
}, 60_000);

afterAll(async () => {
  await alice?.close();
  await service?.dispose();
});

/** import_translation with `xliff`, probing health while it runs; the tool error it must answer. */
async function refusedWhileHealthAnswers(xliff: string, work: "quick" | "long" = "quick"): Promise<AgentToolError> {
  const { outcome, answeredWhilePending, answered } = await probeHealthWhile(service.url, alice.fail("import_translation", { courseId, language: "fr", xliff }));
  // Only long work can be overlapped; a quick refusal must still leave health answering.
  expect(work === "long" ? answeredWhilePending : answered).toBeGreaterThan(0);
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}

describe("import_translation through the real server", () => {
  test("nesting 40,000 deep is refused at depth 256, naming maxDepth, while health answers", async () => {
    const xliff = `${head}<unit id="u"><segment><source>x</source><target>${"<pc id=\"1\">".repeat(40_000)}x${"</pc>".repeat(40_000)}</target></segment></unit>${tail}`;
    const error = await refusedWhileHealthAnswers(xliff);
    expect(error.code).toBe("limit_exceeded");
    expect(error.message).toContain("xliff: elements nest more than 256 deep");
    expect(error.message).toContain("(maxDepth)");
  }, 120_000);

  test("15 M characters of nothing but nesting are refused at the limit, not parsed to the end", async () => {
    const xliff = `${head}${"<a>".repeat(5_000_000)}`.slice(0, 15_000_000);
    expect(xliff.length).toBe(15_000_000);
    const error = await refusedWhileHealthAnswers(xliff, "long");
    expect(error.code).toBe("limit_exceeded");
    expect(error.message).toContain("(maxDepth)");
  }, 120_000);

  test("a 15 M-character file of ordinary units with deep nesting at its end is read in slices: health answers while it is read, then the limit is named with its line", async () => {
    const units: string[] = [];
    let length = head.length;
    for (let index = 0; length < 14_800_000; index++) {
      const unit = `<unit id="u${index}"><segment><source>Keep the exits clear, number ${index}.</source><target>Gardez les sorties dégagées, numéro ${index}.</target></segment></unit>\n`;
      units.push(unit);
      length += unit.length;
    }
    const xliff = `${head}${units.join("")}<unit id="deep"><segment><source>x</source><target>${"<pc id=\"1\">".repeat(20_000)}`;
    expect(xliff.length).toBeGreaterThan(14_900_000);
    expect(xliff.length).toBeLessThan(16 * 1024 * 1024);
    const error = await refusedWhileHealthAnswers(xliff, "long");
    expect(error.code).toBe("limit_exceeded");
    const line = units.length + 1;
    expect(error.message).toContain(`at line ${line},`);
    expect(error.details).toMatchObject({ field: "xliff", limit: "maxDepth", max: 256, line });
  }, 180_000);

  test("a DOCTYPE with entity declarations is refused before any entity is expanded", async () => {
    const laughs = `<?xml version="1.0"?><!DOCTYPE xliff [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>`;
    const error = await alice.fail("import_translation", { courseId, language: "fr", xliff: `${laughs}${head}<unit id="u"><segment><source>&b;</source></segment></unit>${tail}` });
    expect(error.code).toBe("invalid_arguments");
    expect(error.message).toContain("DOCTYPE");
  }, 60_000);
});

describe("the bounded XML reader (src/codecs/xml-read.ts)", () => {
  const limitOf = async (run: Promise<unknown>) => {
    const error = await run.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(CourseAuthoringError);
    return error as CourseAuthoringError;
  };

  test("readXml gives the element tree with namespaces, attributes, text and positions", async () => {
    const root = await readXml(`<?xml version="1.0"?>\n<m:root xmlns:m="urn:m" xml:lang="fr"><m:item id="1">A &amp; B</m:item><m:item id="2"><![CDATA[<c>]]></m:item></m:root>`, { field: "manifest" });
    expect(root).toMatchObject({ local: "root", uri: "urn:m", prefix: "m", line: 2 });
    expect(root.attributes["xml:lang"]?.value).toBe("fr");
    const items = childElements(root, "item");
    expect(items.map((item) => item.attributes.id?.value)).toEqual(["1", "2"]);
    expect(items.map(textContent)).toEqual(["A & B", "<c>"]);
  });

  test("scanXml reads bytes as UTF-8 and refuses other bytes, naming the field", async () => {
    const opened: string[] = [];
    await scanXml(new TextEncoder().encode("<a><b>é</b></a>"), { open: (tag) => opened.push(tag.name) }, { field: "content" });
    expect(opened).toEqual(["a", "b"]);
    const error = await limitOf(scanXml(Uint8Array.of(0x3c, 0x61, 0x3e, 0xff, 0x3c, 0x2f, 0x61, 0x3e), {}, { field: "content" }));
    expect(error.code).toBe("invalid_arguments");
    expect(error.message).toStartWith("content: the XML is not valid UTF-8");
  });

  test("each limit stops the read with limit_exceeded naming it", async () => {
    const cases = [
      { xml: "<a>" + "<b/>".repeat(11) + "</a>", limits: { maxElements: 10 }, limit: "maxElements" },
      { xml: `<a ${Array.from({ length: 9 }, (_, index) => `x${index}="1"`).join(" ")}/>`, limits: { maxAttributes: 8 }, limit: "maxAttributes" },
      { xml: "<a>".repeat(9) + "</a>".repeat(9), limits: { maxDepth: 8 }, limit: "maxDepth" },
      { xml: `<a>${"x".repeat(100)}</a>`, limits: { maxLength: 50 }, limit: "maxLength" },
    ];
    for (const { xml, limits, limit } of cases) {
      const error = await limitOf(readXml(xml, { field: "bank", limits }));
      expect({ limit, code: error.code, named: error.message.includes(`(${limit})`), field: error.details.field }).toEqual({ limit, code: "limit_exceeded", named: true, field: "bank" });
    }
  });

  test("malformed XML and DOCTYPEs are invalid_arguments with line and column", async () => {
    const malformed = await limitOf(readXml("<a>\n<b></a>", { field: "content" }));
    expect(malformed.code).toBe("invalid_arguments");
    expect(malformed.message).toMatch(/^content: malformed XML at line 2, column \d+/);
    const doctype = await limitOf(readXml('<!DOCTYPE a SYSTEM "file:///etc/passwd"><a/>', { field: "content" }));
    expect(doctype.message).toContain("DOCTYPE at line 1");
  });
});
