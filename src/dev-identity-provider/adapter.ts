/**
 * Storage for the development identity provider's artifacts (sessions, interactions, codes, grants,
 * registered clients, refresh tokens). Everything lives in memory; registered clients, grants and
 * refresh tokens are also mirrored to a JSON file in the data folder, so an MCP host that registered
 * before a restart can still refresh its tokens after it. It replaces oidc-provider's own memory
 * adapter, which warns on every start.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import type { Adapter, AdapterFactory, AdapterPayload } from "oidc-provider";

export const STATE_FILE = "dev-idp-state.json";

/** Models worth keeping across restarts; the rest (sessions, codes, interactions) are short-lived. */
const PERSISTED_MODELS = new Set(["Client", "Grant", "RefreshToken"]);

/**
 * Registered clients never expire in oidc-provider; here they do after 30 days, so the state file
 * does not grow with every `bun run token`. A host that comes back later simply registers again.
 */
const CLIENT_LIFETIME_SECONDS = 30 * 24 * 60 * 60;

interface StoredRecord {
  model: string;
  payload: AdapterPayload;
  /** Epoch milliseconds; absent means no expiry. */
  expiresAt?: number;
}

export class DevProviderStore {
  private readonly records = new Map<string, StoredRecord>();
  private writesSinceSweep = 0;

  constructor(private readonly file: string | undefined) {
    if (file && existsSync(file)) this.load(file);
  }

  adapterFor(model: string): Adapter {
    const key = (id: string) => `${model}:${id}`;
    return {
      upsert: async (id, payload, expiresIn) => {
        const lifetime = expiresIn ?? (model === "Client" ? CLIENT_LIFETIME_SECONDS : undefined);
        const expiresAt = typeof lifetime === "number" ? Date.now() + lifetime * 1000 : undefined;
        this.records.set(key(id), { model, payload, ...(expiresAt === undefined ? {} : { expiresAt }) });
        this.changed(model);
      },
      find: async (id) => this.live(key(id))?.payload,
      findByUid: async (uid) => this.findWhere(model, (payload) => payload.uid === uid),
      findByUserCode: async (userCode) => this.findWhere(model, (payload) => payload.userCode === userCode),
      consume: async (id) => {
        const record = this.live(key(id));
        if (!record) return;
        record.payload.consumed = Math.floor(Date.now() / 1000);
        this.changed(model);
      },
      destroy: async (id) => {
        this.records.delete(key(id));
        this.changed(model);
      },
      revokeByGrantId: async (grantId) => {
        let persistedChange = false;
        for (const [recordKey, record] of this.records) {
          if (record.payload.grantId !== grantId) continue;
          this.records.delete(recordKey);
          persistedChange ||= PERSISTED_MODELS.has(record.model);
        }
        if (persistedChange) this.save();
      },
    };
  }

  /** oidc-provider takes a factory (a non-constructable function) and calls it once per model. */
  adapterFactory(): AdapterFactory {
    return (model) => this.adapterFor(model);
  }

  private live(key: string): StoredRecord | undefined {
    const record = this.records.get(key);
    if (record?.expiresAt !== undefined && record.expiresAt <= Date.now()) {
      this.records.delete(key);
      return undefined;
    }
    return record;
  }

  private findWhere(model: string, matches: (payload: AdapterPayload) => boolean): AdapterPayload | undefined {
    for (const [key, record] of this.records) {
      if (record.model === model && matches(record.payload)) return this.live(key)?.payload;
    }
    return undefined;
  }

  private changed(model: string): void {
    if (++this.writesSinceSweep >= 200) this.sweep();
    if (PERSISTED_MODELS.has(model)) this.save();
  }

  private sweep(): void {
    this.writesSinceSweep = 0;
    for (const key of this.records.keys()) this.live(key);
  }

  private save(): void {
    if (!this.file) return;
    const persisted = [...this.records].filter(([, record]) => PERSISTED_MODELS.has(record.model));
    const partial = `${this.file}.${process.pid}.tmp`;
    writeFileSync(partial, JSON.stringify(Object.fromEntries(persisted)), { mode: 0o600 });
    renameSync(partial, this.file);
  }

  private load(file: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(file, "utf8"));
    } catch {
      return; // A damaged state file only costs re-registration; keys live elsewhere.
    }
    if (typeof parsed !== "object" || parsed === null) return;
    for (const [key, value] of Object.entries(parsed)) {
      if (isStoredRecord(value) && PERSISTED_MODELS.has(value.model)) this.records.set(key, value);
    }
    this.sweep();
  }
}

function isStoredRecord(value: unknown): value is StoredRecord {
  if (typeof value !== "object" || value === null) return false;
  const { model, payload, expiresAt } = value as Record<string, unknown>;
  return (
    typeof model === "string" &&
    typeof payload === "object" &&
    payload !== null &&
    (expiresAt === undefined || typeof expiresAt === "number")
  );
}
