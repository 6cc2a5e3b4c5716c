/**
 * Signing keys of the development identity provider: an RS256 and an ES256 key pair, generated with
 * jose on first start and kept as a private JWKS in the data folder, so access tokens minted before a
 * restart still verify after it. The file holds private keys and is written owner-read/write only.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { calculateJwkThumbprint } from "jose/jwk/thumbprint";
import { exportJWK } from "jose/key/export";
import { generateKeyPair } from "jose/key/generate/keypair";
import type { JWK } from "jose";

export const SIGNING_KEYS_FILE = "dev-idp-keys.json";

/** A private JSON Web Key Set, as oidc-provider's `jwks` option takes it. */
export interface PrivateJwks {
  keys: JWK[];
}

const ALGORITHMS = ["RS256", "ES256"] as const;

export async function loadOrCreateSigningKeys(dataDir: string): Promise<PrivateJwks> {
  const file = join(dataDir, SIGNING_KEYS_FILE);
  if (existsSync(file)) return readSigningKeys(file);
  mkdirSync(dataDir, { recursive: true });
  const jwks: PrivateJwks = { keys: await Promise.all(ALGORITHMS.map(generateSigningKey)) };
  // Write then rename, so a crash never leaves a half-written key file behind.
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, `${JSON.stringify(jwks, null, 2)}\n`, { mode: 0o600 });
  chmodSync(partial, 0o600);
  renameSync(partial, file);
  return jwks;
}

async function generateSigningKey(alg: (typeof ALGORITHMS)[number]): Promise<JWK> {
  const { privateKey } = await generateKeyPair(alg, { extractable: true, ...(alg === "RS256" ? { modulusLength: 2048 } : {}) });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid: await calculateJwkThumbprint(jwk), alg, use: "sig" };
}

function readSigningKeys(file: string): PrivateJwks {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`development identity provider: ${file} is not valid JSON (${error instanceof Error ? error.message : String(error)}); delete it to generate new keys`);
  }
  if (!isPrivateJwks(parsed)) {
    throw new Error(`development identity provider: ${file} is not a private JWKS with RS256 key; delete it to generate new keys`);
  }
  return parsed;
}

function isPrivateJwks(value: unknown): value is PrivateJwks {
  if (typeof value !== "object" || value === null || !("keys" in value) || !Array.isArray(value.keys)) return false;
  const keys: unknown[] = value.keys;
  const isPrivateKey = (key: unknown): key is JWK =>
    typeof key === "object" && key !== null && "kty" in key && typeof key.kty === "string" && "d" in key && typeof key.d === "string";
  return keys.every(isPrivateKey) && keys.some((key) => isPrivateKey(key) && key.kty === "RSA");
}
