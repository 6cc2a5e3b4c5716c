/**
 * The script SHA-256 (answer keys hashed while the page renders, and answers checked in a page served
 * over plain http, where WebCrypto is missing) agrees with Node's on the standard vectors and on
 * messages across the padding boundaries; it computes its constants from the primes, so a wrong
 * constant would show here as a wrong digest.
 */
import { createHash } from "node:crypto";
import { describe, expect, test } from "bun:test";
import { createSha256 } from "../src/player/course/sha256.ts";

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex");
const nodeSha256 = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex");

describe("the script SHA-256", () => {
  const sha256 = createSha256();

  test("matches the FIPS 180-4 examples", () => {
    expect(hex(sha256("abc"))).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(hex(sha256(""))).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(hex(sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))).toBe("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  });

  test("matches Node's digest across block and padding boundaries and for multi-byte text", () => {
    for (const length of [1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000]) expect(hex(sha256("a".repeat(length)))).toBe(nodeSha256("a".repeat(length)));
    for (const text of ["é", "Prüfung – ¿qué? 😀", "salt|blk_1|0|clear".repeat(40)]) expect(hex(sha256(text))).toBe(nodeSha256(text));
  });
});
