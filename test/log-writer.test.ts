/**
 * The log's asynchronous stdout writer and its access line: every line reaches the file in the order
 * it was logged, flush waits for the writes, and the access line stays valid JSON whatever the client
 * put in the path.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAsyncWriter, createLogger } from "../src/log.ts";
import { waitFor } from "./support/wait.ts";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "log-writer-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("asynchronous log writer", () => {
  test("writes every line, in order, once flushed; urgent lines and large volumes included", async () => {
    const file = join(dir, "order.log");
    const fd = openSync(file, "w");
    const writer = createAsyncWriter(fd);
    const expected: string[] = [];
    // Well over the 64 KiB chunk size, so several writes are in flight one after another.
    for (let i = 0; i < 20_000; i++) {
      const line = `{"n":${i},"pad":"${"x".repeat(i % 50)}"}\n`;
      expected.push(line);
      writer.write(line, i % 997 === 0);
    }
    await writer.flush();
    closeSync(fd);
    expect(readFileSync(file, "utf8")).toBe(expected.join(""));
  });

  test("flush with nothing pending resolves at once, and lines written after a flush still arrive", async () => {
    const file = join(dir, "later.log");
    const fd = openSync(file, "w");
    const writer = createAsyncWriter(fd);
    await writer.flush();
    writer.write("first\n", false);
    await writer.flush();
    expect(readFileSync(file, "utf8")).toBe("first\n");
    writer.write("second\n", false);
    writer.write("third\n", true);
    await writer.flush();
    closeSync(fd);
    expect(readFileSync(file, "utf8")).toBe("first\nsecond\nthird\n");
  });

  test("multi-byte text is written whole", async () => {
    const file = join(dir, "utf8.log");
    const fd = openSync(file, "w");
    const writer = createAsyncWriter(fd);
    const line = `${"é✓𝄞".repeat(30_000)}\n`;
    writer.write(line, false);
    await writer.flush();
    closeSync(fd);
    expect(readFileSync(file, "utf8")).toBe(line);
  });
});

describe("asynchronous log writer on a pipe", () => {
  test("a pipe nobody reads for a while does not block the process, and every line arrives in order once it drains", async () => {
    // A child writes ~4 MiB of lines to its stdout (a pipe holds 64 KiB), then counts timer ticks while
    // we do not read; only once the ticks are reported does the test start reading.
    const script = join(dir, "pipe-writer.ts");
    await Bun.write(
      script,
      `import { createAsyncWriter } from ${JSON.stringify(join(import.meta.dir, "../src/log.ts"))};
const writer = createAsyncWriter(1);
for (let i = 0; i < 40_000; i++) writer.write(\`{"n":\${i},"pad":"\${"x".repeat(80)}"}\\n\`, false);
let ticks = 0;
await new Promise<void>((resolve) => { const timer = setInterval(() => { if (++ticks === 20) { clearInterval(timer); resolve(); } }, 5); });
console.error("ticks " + ticks);
await writer.flush();
console.error("flushed");
`,
    );
    const child = Bun.spawn([process.execPath, script], { stdout: "pipe", stderr: "pipe" });
    const errors = child.stderr.getReader();
    let said = "";
    const decoder = new TextDecoder();
    const heard = async (what: string) => {
      while (!said.includes(what)) {
        const { value, done } = await errors.read();
        if (done) throw new Error(`the child ended before saying "${what}"; it said: ${said}`);
        said += decoder.decode(value);
      }
    };
    // The timers ran while the pipe was full: the writes did not hold the event loop.
    await waitFor(heard("ticks 20"), 20_000, "the child's timer ticks while its stdout pipe is full");
    const out = await new Response(child.stdout).text();
    await waitFor(heard("flushed"), 20_000, "the child's flush after the pipe drained");
    expect(await child.exited).toBe(0);
    const lines = out.split("\n").filter((line) => line !== "");
    expect(lines).toHaveLength(40_000);
    expect(lines.every((line, i) => JSON.parse(line).n === i)).toBe(true);
  });
});

describe("access line", () => {
  const entry = { requestId: "ab12cd34-17", method: "GET", path: "/api/health", status: 200, durationMs: 0.42, sub: undefined };

  test("is the same JSON object an info line with the same fields would be", () => {
    const lines: string[] = [];
    const logger = createLogger("info", (line) => void lines.push(line));
    logger.access({ ...entry, sub: "user-1" });
    logger.info("request", { ...entry, sub: "user-1" });
    const [access, info] = lines.map((line) => JSON.parse(line));
    // Each line reads the clock: a millisecond may pass between the two, so the times are compared by shape.
    expect(access.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect({ ...access, time: undefined }).toEqual({ ...info, time: undefined });
    expect(access).toMatchObject({ level: "info", msg: "request", path: "/api/health", status: 200, sub: "user-1" });
  });

  test("escapes whatever the client put in the path or method", () => {
    const lines: string[] = [];
    const logger = createLogger("info", (line) => void lines.push(line));
    const nasty = ['/x"y', "/back\\slash", "/new\nline", "/tab\there", "/ünïcode", "/\u0000nul", "/\u2028sep"];
    for (const path of nasty) logger.access({ ...entry, path, method: 'GE"T' });
    expect(lines).toHaveLength(nasty.length);
    for (const [i, line] of lines.entries()) {
      expect(line.endsWith("}\n")).toBe(true);
      expect(line.slice(0, -1)).not.toContain("\n");
      const parsed = JSON.parse(line);
      expect(parsed.path).toBe(nasty[i]);
      expect(parsed.method).toBe('GE"T');
      expect("sub" in parsed).toBe(false);
    }
  });

  test("a successful probe is logged at debug, and at info counted in one summary line per period", async () => {
    const debugLines: string[] = [];
    const debug = createLogger("debug", (line) => void debugLines.push(line));
    debug.access(entry, true);
    expect(JSON.parse(debugLines[0] as string)).toMatchObject({ level: "debug", msg: "request", path: "/api/health", status: 200 });

    const lines: string[] = [];
    let summarised!: (line: string) => void;
    const summary = new Promise<string>((resolve) => (summarised = resolve));
    const info = createLogger(
      "info",
      (line) => {
        lines.push(line);
        if (line.includes("probes answered")) summarised(line);
      },
      { probeSummaryMs: 20 },
    );
    for (let i = 0; i < 3; i++) info.access(entry, true);
    info.access({ ...entry, path: "/mcp" });
    expect(lines.map((line) => JSON.parse(line).path)).toEqual(["/mcp"]);
    const line = await waitFor(summary, 10_000, "the probe summary line");
    expect(JSON.parse(line)).toMatchObject({ level: "info", msg: "probes answered", count: 3, seconds: 0.02 });
  });

  test("flush reports the probes counted so far, once, and nothing when there were none", () => {
    const lines: string[] = [];
    const info = createLogger("info", (line) => void lines.push(line));
    info.flush();
    expect(lines).toEqual([]);
    info.access(entry, true);
    info.access(entry, true);
    info.flush();
    info.flush();
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toMatchObject({ level: "info", msg: "probes answered", count: 2 });
  });

  test("is not written above info", () => {
    const lines: string[] = [];
    const warn = createLogger("warn", (line) => void lines.push(line));
    warn.access(entry);
    warn.access(entry, true);
    expect(lines).toEqual([]);
  });
});
