/**
 * The in-memory event store (SQLite) gives each user a share (src/store/stream-events.ts): through the
 * real server, alice reads large export packages over and over on several sessions, more than one
 * user's share in all, and bob's cut export stream still resumes with Last-Event-ID and delivers the
 * result. An answer larger than one event may be is delivered whole, and kept for a resumed stream
 * only as an error for the same request, so a resuming client asks again instead of waiting.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rawSession, sseEvents, startDeployment, type McpDeployment, type RawSession, type SseEvent } from "./support/mcp-deployments.ts";
import { waitFor } from "./support/wait.ts";
import { streamEventLimits } from "../src/store/stream-events.ts";

type Message = { id?: unknown; method?: string; result?: { contents?: { blob?: string }[]; structuredContent?: Record<string, unknown> }; error?: { message: string } };
const messageOf = (event: SseEvent) => JSON.parse(event.data) as Message;

let deployment: McpDeployment;
let bob: RawSession;
let bobCourse: string;

/** A course holding one incompressible picture of `bytes`, exported as an HTML package; its URI. */
async function packageOf(session: RawSession, bytes: number): Promise<string> {
  const picture = new Uint8Array(bytes);
  for (let at = 0; at < bytes; at += 65536) crypto.getRandomValues(picture.subarray(at, Math.min(bytes, at + 65536)));
  picture.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const courseId = String((await session.call("create_course", { title: "Large package", modules: [{ title: "Module", lessons: [{ title: "Picture" }] }] })).id);
  const asset = (await session.call("upload_asset", { courseId, filename: "noise.png", mediaType: "image/png", dataBase64: Buffer.from(picture).toString("base64") })).asset as { id: string };
  const course = (await session.call("get_course", { courseId })) as { modules: { lessons: { id: string }[] }[] };
  await session.call("add_blocks", { courseId, lessonId: course.modules[0]!.lessons[0]!.id, blocks: [{ type: "image", assetId: asset.id, alt: "Noise" }] });
  return String((await session.call("export_course", { courseId, format: "html", delivery: "link" })).uri);
}

/** resources/read of `uri` on `session`: every event of its stream. */
async function readAll(session: RawSession, uri: string): Promise<SseEvent[]> {
  const events = sseEvents(await session.post("resources/read", { uri }));
  const seen: SseEvent[] = [];
  for (let event = await waitFor(events.next(), 60_000, "the read's stream"); event; event = await waitFor(events.next(), 60_000, "the read's stream")) seen.push(event);
  return seen;
}

beforeAll(async () => {
  deployment = await startDeployment("sqlite");
  bob = await rawSession(deployment.mcpUrl, await deployment.token("bob"));
  bobCourse = String(
    (
      await bob.call("create_course", {
        title: "Bob's export",
        modules: [1, 2, 3, 4].map((module) => ({ title: `Module ${module}`, lessons: [1, 2, 3, 4, 5].map((lesson) => ({ title: `Lesson ${lesson}`, blocks: [{ type: "text", markdown: "Keep the exits clear. ".repeat(40) }] })) })),
      })
    ).id,
  );
}, 120_000);

afterAll(async () => {
  await deployment?.stop();
});

describe("one user's large reads do not evict another user's resumable stream", () => {
  test("bob resumes his cut export after alice stored more than a user's share of large reads", async () => {
    const started = await bob.post("tools/call", { name: "export_course", arguments: { courseId: bobCourse, format: "scorm2004" }, _meta: { progressToken: "bob" } });
    const before = sseEvents(started);
    let lastSeen: string | undefined;
    for (;;) {
      const event = await waitFor(before.next(), 60_000, "bob's first progress notification");
      if (!event) throw new Error("bob's export stream ended before any progress notification");
      lastSeen = event.id ?? lastSeen;
      if (event.data && messageOf(event).method === "notifications/progress") break;
    }
    await before.cut();

    // Alice: four sessions, each reading a ~3.4 MB package (just under one event's cap) six times: ~80 MB in all.
    const token = await deployment.token("alice");
    const sessions = await Promise.all([1, 2, 3, 4].map(() => rawSession(deployment.mcpUrl, token)));
    const uri = await packageOf(sessions[0]!, 2_400_000);
    let stored = 0;
    for (let round = 0; round < 6; round++) {
      for (const session of sessions) {
        const events = await readAll(session, uri);
        const answer = events.filter((event) => event.data).map(messageOf).find((message) => message.result);
        const blob = answer?.result?.contents?.[0]?.blob ?? "";
        expect(blob.length).toBeGreaterThan(3_000_000);
        stored += blob.length;
      }
    }
    expect(stored).toBeGreaterThan(streamEventLimits.maxBytesPerUser);

    const resumed = await bob.stream(deployment.mcpUrl, lastSeen);
    expect(resumed.status).toBe(200);
    const after = sseEvents(resumed);
    const delivered: Message[] = [];
    for (let event = await waitFor(after.next(), 120_000, "bob's resumed stream"); event; event = await waitFor(after.next(), 120_000, "bob's resumed stream")) {
      if (event.data) delivered.push(messageOf(event));
    }
    const result = delivered.find((message) => message.result);
    expect(String(result?.result?.structuredContent?.uri)).toStartWith(`course://${bobCourse}/exports/`);
  }, 300_000);

  test("an answer over one event's cap is delivered whole, and a resumed stream gets an error for the same request instead", async () => {
    const alice = await rawSession(deployment.mcpUrl, await deployment.token("alice"));
    const uri = await packageOf(alice, 3_300_000);
    const events = await readAll(alice, uri);
    const answerEvent = events.find((event) => event.data && messageOf(event).result);
    const blob = messageOf(answerEvent!).result?.contents?.[0]?.blob ?? "";
    expect(blob.length).toBeGreaterThan(streamEventLimits.maxEventBytes);

    // Resumed from the stream's priming event, the stored answer is the stand-in.
    const priming = events.find((event) => event.id !== undefined && event.data === "");
    expect(priming).toBeDefined();
    const resumed = await alice.stream(deployment.mcpUrl, priming!.id);
    expect(resumed.status).toBe(200);
    const replay = sseEvents(resumed);
    const replayed: Message[] = [];
    for (let event = await waitFor(replay.next(), 60_000, "the resumed read"); event; event = await waitFor(replay.next(), 60_000, "the resumed read")) {
      if (event.data) replayed.push(messageOf(event));
    }
    expect(replayed).toHaveLength(1);
    expect(replayed[0]!.id).toBe(messageOf(answerEvent!).id);
    expect(replayed[0]!.error?.message).toStartWith("limit_exceeded: the answer was");
  }, 120_000);
});
