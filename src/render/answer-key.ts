/**
 * Keeps a question's answer key out of the page's readable text (issue 21 item 6). Each part of a
 * question (a choice set, a blank, a matching row, an order) carries salted SHA-256 hashes of the
 * responses that earn it, which the page compares the learner's response against; the right answer
 * itself, which the LMS report needs, travels sealed (XOR with a SHA-256 keystream) and is opened only
 * once the learner submits, or checks a question where checking is allowed. Salt and sealing key are
 * per render and sit in the page too: this stops view-source and DOM look-ups, not a determined
 * learner who reads the script (the README says so).
 */
import { createHash } from "node:crypto";

/** The server hashes natively; the page's script SHA-256 (`player/course/sha256.ts`) derives the same digests. */
const sha256 = (text: string): Uint8Array => createHash("sha256").update(text, "utf8").digest();

/** Per-render secrets: the salt of the answer hashes and the key that seals the right answers. */
export interface AnswerSecrets {
  readonly salt: string;
  readonly sealKey: string;
}

function randomText(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

export function newAnswerSecrets(): AnswerSecrets {
  return { salt: randomText(), sealKey: randomText() };
}

const separator = "\u001f";

/** The text hashed for one accepted response of one part; the page builds the same text from the learner's response. */
export function answerHashInput(salt: string, questionId: string, part: number, response: string): string {
  return [salt, questionId, String(part), response].join(separator);
}

const hex = (bytes: Uint8Array): string => Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");

/** 128 bits of the hash are plenty to tell a right response from a wrong one and keep the page small. */
export function answerHash(salt: string, questionId: string, part: number, response: string): string {
  return hex(sha256(answerHashInput(salt, questionId, part, response)).subarray(0, 16));
}

/** For each part, the hashes of the responses that earn it (in no particular order). */
export function answerKey(secrets: AnswerSecrets, questionId: string, parts: readonly (readonly string[])[]): string[][] {
  return parts.map((accepted, part) => [...new Set(accepted)].map((response) => answerHash(secrets.salt, questionId, part, response)).sort());
}

/** The keystream block `index` for a question; the page derives the same blocks to open the seal. */
export function sealBlockInput(sealKey: string, questionId: string, index: number): string {
  return [sealKey, questionId, String(index)].join(separator);
}

/** `value` as JSON, XORed with the question's keystream, in base64. */
export function seal(secrets: AnswerSecrets, questionId: string, value: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  const sealed = new Uint8Array(bytes.length);
  for (let offset = 0; offset < bytes.length; offset += 32) {
    const block = sha256(sealBlockInput(secrets.sealKey, questionId, offset / 32));
    for (let index = 0; index < 32 && offset + index < bytes.length; index++) sealed[offset + index] = (bytes[offset + index] as number) ^ (block[index] as number);
  }
  let binary = "";
  for (const byte of sealed) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** How a typed answer is compared: trimmed, inner spaces collapsed, lower-cased unless case matters. */
export function normaliseTypedAnswer(answer: string, caseSensitive: boolean): string {
  const collapsed = answer.trim().replace(/\s+/g, " ");
  return caseSensitive ? collapsed : collapsed.toLocaleLowerCase();
}
