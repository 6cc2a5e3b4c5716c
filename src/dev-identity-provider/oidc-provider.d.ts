/**
 * The slice of `oidc-provider` (v9, shipped without type declarations) that the development identity
 * provider uses, typed by hand from the library's source. Only what this folder calls is declared;
 * values the library hands to our callbacks are typed as far as we read them, and `unknown` beyond.
 */
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  /** What the library stores through an adapter: plain JSON-compatible records. */
  export interface AdapterPayload {
    [field: string]: unknown;
    grantId?: string;
    uid?: string;
    userCode?: string;
    consumed?: number;
  }

  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn: number | undefined): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  /** A plain (non-constructable) function; the library calls it once per model name. */
  export type AdapterFactory = (modelName: string) => Adapter;

  export interface ClientMetadataView {
    readonly clientId: string;
    readonly clientName?: string;
    readonly clientAuthMethod: string;
    readonly redirectUris: string[];
  }

  export interface InteractionResults {
    login?: { accountId: string; remember?: boolean };
    consent?: { grantId: string };
    error?: string;
    error_description?: string;
  }

  /** The request context handed to configuration callbacks (a Koa context). */
  export interface OIDCRequestContext {
    readonly oidc: {
      readonly result?: InteractionResults;
      readonly route?: string;
    };
  }

  /** An issued token as seen by `extraTokenClaims`. */
  export interface IssuedToken {
    readonly kind: string;
    readonly accountId?: string;
    readonly scope?: string;
  }

  export interface Account {
    accountId: string;
    claims(use: string, scope: string): Promise<Record<string, unknown>>;
  }

  export interface ResourceServerInfo {
    scope: string;
    audience?: string;
    accessTokenTTL?: number;
    accessTokenFormat?: "opaque" | "jwt";
    jwt?: { sign?: { alg: string } };
  }

  export interface PrivateJwks {
    keys: Array<Record<string, unknown>>;
  }

  export interface Configuration {
    adapter?: AdapterFactory;
    claims?: Record<string, string[] | null>;
    clientBasedCORS?: (ctx: OIDCRequestContext, origin: string, client: ClientMetadataView) => boolean;
    clientDefaults?: Record<string, unknown>;
    cookies?: { keys?: string[] };
    extraTokenClaims?: (ctx: OIDCRequestContext, token: IssuedToken) => Promise<Record<string, unknown> | undefined>;
    features?: {
      devInteractions?: { enabled: boolean };
      registration?: { enabled: boolean; initialAccessToken?: boolean; issueRegistrationAccessToken?: boolean };
      resourceIndicators?: {
        enabled: boolean;
        defaultResource?: (ctx: OIDCRequestContext, client: ClientMetadataView, oneOf?: string[]) => Promise<string | string[] | undefined>;
        useGrantedResource?: (ctx: OIDCRequestContext, model: unknown) => Promise<boolean>;
        getResourceServerInfo?: (ctx: OIDCRequestContext, resourceIndicator: string, client: ClientMetadataView) => Promise<ResourceServerInfo>;
      };
      rpInitiatedLogout?: { enabled: boolean };
      userinfo?: { enabled: boolean };
      revocation?: { enabled: boolean };
      introspection?: { enabled: boolean };
      pushedAuthorizationRequests?: { enabled: boolean };
    };
    findAccount?: (ctx: OIDCRequestContext, sub: string) => Promise<Account | undefined>;
    interactions?: {
      policy?: PromptList;
      url?: (ctx: OIDCRequestContext, interaction: { uid: string }) => string | Promise<string>;
    };
    jwks?: PrivateJwks;
    pkce?: { required?: (ctx: OIDCRequestContext, client: ClientMetadataView) => boolean };
    renderError?: (ctx: { type: string; body: unknown }, out: Record<string, string>, error: Error) => Promise<void>;
    responseTypes?: string[];
    routes?: Record<string, string>;
    scopes?: string[];
    ttl?: Record<string, number>;
  }

  export interface Interaction {
    readonly uid: string;
    readonly prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    readonly params: Record<string, unknown>;
    readonly session?: { accountId?: string };
    readonly grantId?: string;
  }

  export interface Grant {
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  }

  export interface GrantConstructor {
    new (properties: { accountId: string; clientId: string }): Grant;
    find(id: string): Promise<Grant | undefined>;
  }

  export class Check {
    static readonly REQUEST_PROMPT: true;
    static readonly NO_NEED_TO_PROMPT: false;
    constructor(reason: string, description: string, check: (ctx: OIDCRequestContext) => boolean | Promise<boolean>);
  }

  export interface Prompt {
    readonly name: string;
    readonly checks: { add(check: Check, index?: number): void };
  }

  export interface PromptList extends Array<Prompt> {
    get(name: string): Prompt | undefined;
  }

  export const interactionPolicy: {
    base(): PromptList;
    Check: typeof Check;
  };

  export const errors: {
    InvalidTarget: new (description?: string) => Error;
  };

  export class Provider {
    constructor(issuer: string, configuration?: Configuration);
    readonly issuer: string;
    readonly Grant: GrantConstructor;
    readonly Client: { find(clientId: string): Promise<ClientMetadataView | undefined> };
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
    on(event: "server_error", listener: (ctx: unknown, error: Error) => void): this;
    on(event: "error", listener: (error: Error) => void): this;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: InteractionResults,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
  }

  export default Provider;
}
