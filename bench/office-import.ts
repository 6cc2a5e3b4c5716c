/**
 * Word and PowerPoint import: import_course of a 500-slide deck against a 10-slide one, through the real
 * /mcp endpoint, as time per slide (target: within 1.5×, so cost grows linearly with slides) and the
 * file's bytes per slide. Decks are written by pptxgenjs: a title slide, then slides with a title,
 * bullets and speaker notes, a picture on every tenth.
 */
import PptxGenJS from "pptxgenjs";
import { obtainAccessTokenByLogin } from "../src/dev-identity-provider/scripted-login.ts";
import { median, openMcpSession, startService, type Row } from "./support.ts";

const picture = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAACgAAAAeCAIAAADRv8uKAAAAK0lEQVR4nO3NMQ0AAAgDsCmZfynIQgYcTfo3056IWCwWi8VisVgsFov/xgvk2cL9h1Oh3gAAAABJRU5ErkJggg==", "base64").toString("base64");

async function deck(slides: number): Promise<Uint8Array> {
  const pptx = new PptxGenJS();
  pptx.addSlide().addText("Fire safety", { x: 1, y: 1, w: 8, h: 1 });
  for (let number = 2; number <= slides; number++) {
    const slide = pptx.addSlide();
    slide.addText(`Topic ${number}`, { x: 0.5, y: 0.3, w: 9, h: 0.8 });
    slide.addText([{ text: "Leave the building", options: { bullet: true, breakLine: true } }, { text: "Call the fire service", options: { bullet: true } }], { x: 0.5, y: 1.5, w: 9, h: 2 });
    slide.addNotes(`Tell the story of drill ${number}.`);
    if (number % 10 === 0) slide.addImage({ data: `image/png;base64,${picture}`, x: 1, y: 4, w: 1, h: 0.75 });
  }
  return (await pptx.write({ outputType: "uint8array" })) as Uint8Array;
}

interface SizeResult {
  perSlideMs: number;
  bytesPerSlide: number;
}

async function measure(slides: number, rounds: number): Promise<SizeResult> {
  const service = await startService();
  try {
    const { accessToken } = await obtainAccessTokenByLogin({ issuer: service.authUrl, resource: `${service.baseUrl}/mcp`, username: "bench-importer" });
    const session = await openMcpSession(`${service.baseUrl}/mcp`, accessToken);
    const bytes = await deck(slides);
    const course = (await session.call("create_course", { title: "Uploads" })) as { id: string };
    const upload = (await session.call("upload_asset", { courseId: course.id, filename: "deck.pptx", dataBase64: Buffer.from(bytes).toString("base64") })) as { asset: { id: string } };
    const times: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const started = performance.now();
      await session.call("import_course", { assetId: upload.asset.id });
      times.push(performance.now() - started);
    }
    return { perSlideMs: median(times) / slides, bytesPerSlide: bytes.length / slides };
  } finally {
    await service.stop();
  }
}

export async function runOfficeImportBench(): Promise<Row[]> {
  const rounds = Number(process.env.BENCH_OFFICE_ROUNDS ?? 5);
  const small = await measure(10, rounds * 4);
  const large = await measure(500, rounds);
  return [
    {
      scenario: "import_course of a .pptx per slide: 500 slides vs 10",
      measured: `${large.perSlideMs.toFixed(2)} ms/slide`,
      baseline: `${small.perSlideMs.toFixed(2)} ms/slide`,
      ratio: large.perSlideMs / small.perSlideMs,
      target: "≤ 1.5",
      met: large.perSlideMs / small.perSlideMs <= 1.5,
    },
    {
      scenario: "pptxgenjs deck size per slide: 500 slides vs 10",
      measured: `${large.bytesPerSlide.toFixed(0)} B/slide`,
      baseline: `${small.bytesPerSlide.toFixed(0)} B/slide`,
      ratio: large.bytesPerSlide / small.bytesPerSlide,
      target: "linear (reported)",
      met: true,
    },
  ];
}
