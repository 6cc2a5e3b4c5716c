/**
 * The development identity provider's sign-in screen. oidc-provider sends the browser to
 * `/interaction/<uid>`; we answer with a one-field form (username, "dev-user" by default). Signing in
 * is the consent: the provider asks for sign-in on every authorization, and the consent step that
 * follows a sign-in is granted automatically for exactly the scopes and resource that were requested.
 * No password: this provider only ever runs on loopback, and never in production.
 */
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Interaction, Provider } from "oidc-provider";
import { escapeHtml } from "../render/html.ts";

export const INTERACTION_PATH = "/interaction";

/** The accounts this provider knows: any name of this shape. The name is the `sub`. */
export const USERNAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const DEFAULT_USERNAME = "dev-user";

const MAX_FORM_BYTES = 4096;

type InteractionRoute = { uid: string; action: "show" | "login" | "abort" };

export function matchInteractionRoute(method: string, pathname: string): InteractionRoute | undefined {
  const match = /^\/interaction\/([A-Za-z0-9_-]+)(?:\/(login|abort))?$/.exec(pathname);
  if (!match?.[1]) return undefined;
  const action = match[2] === "login" || match[2] === "abort" ? match[2] : "show";
  const allowed = action === "show" ? method === "GET" || method === "HEAD" : method === "POST";
  return allowed ? { uid: match[1], action } : undefined;
}

export async function handleInteraction(
  provider: Provider,
  route: InteractionRoute,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  let interaction: Interaction;
  try {
    interaction = await provider.interactionDetails(req, res);
  } catch {
    return sendHtml(res, 400, page("Sign-in expired", "<p>This sign-in request has expired or was already used. Start again from your application.</p>"));
  }
  if (interaction.uid !== route.uid) {
    return sendHtml(res, 400, page("Sign-in expired", "<p>This sign-in request does not match the one in progress. Start again from your application.</p>"));
  }

  if (route.action === "abort") {
    return provider.interactionFinished(req, res, { error: "access_denied", error_description: "End-User cancelled the sign-in" }, { mergeWithLastSubmission: false });
  }
  if (interaction.prompt.name === "consent") return grantRequestedAccess(provider, interaction, req, res);
  if (interaction.prompt.name !== "login") {
    return provider.interactionFinished(req, res, { error: "interaction_required", error_description: `unsupported prompt ${interaction.prompt.name}` }, { mergeWithLastSubmission: false });
  }
  const clientName = await clientNameOf(provider, interaction);
  if (route.action === "show") return sendHtml(res, 200, loginPage(interaction, clientName, suggestedUsername(interaction)));

  const form = await readForm(req);
  const username = form?.get("username")?.trim() ?? "";
  if (!USERNAME_PATTERN.test(username)) {
    return sendHtml(res, 400, loginPage(interaction, clientName, username, "Use 1–64 letters, digits, dots, dashes or underscores."));
  }
  return provider.interactionFinished(req, res, { login: { accountId: username } }, { mergeWithLastSubmission: false });
}

/** Grants what the consent prompt reports as missing, as oidc-provider's own dev interactions do. */
async function grantRequestedAccess(provider: Provider, interaction: Interaction, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const accountId = interaction.session?.accountId;
  const clientId = interaction.params.client_id;
  if (!accountId || typeof clientId !== "string") {
    return provider.interactionFinished(req, res, { error: "login_required", error_description: "sign in first" }, { mergeWithLastSubmission: false });
  }
  const existing = interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined;
  const grant = existing ?? new provider.Grant({ accountId, clientId });
  const { missingOIDCScope, missingOIDCClaims, missingResourceScopes } = interaction.prompt.details;
  if (isStringArray(missingOIDCScope)) grant.addOIDCScope(missingOIDCScope.join(" "));
  if (isStringArray(missingOIDCClaims)) grant.addOIDCClaims(missingOIDCClaims);
  if (typeof missingResourceScopes === "object" && missingResourceScopes !== null) {
    for (const [resource, scopes] of Object.entries(missingResourceScopes)) {
      if (isStringArray(scopes)) grant.addResourceScope(resource, scopes.join(" "));
    }
  }
  const grantId = await grant.save();
  return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}

function suggestedUsername(interaction: Interaction): string {
  const hint = interaction.params.login_hint;
  return typeof hint === "string" && USERNAME_PATTERN.test(hint) ? hint : DEFAULT_USERNAME;
}

async function clientNameOf(provider: Provider, interaction: Interaction): Promise<string> {
  const clientId = interaction.params.client_id;
  if (typeof clientId !== "string") return "an application";
  const client = await provider.Client.find(clientId).catch(() => undefined);
  return client?.clientName ?? clientId;
}

function loginPage(interaction: Interaction, client: string, username: string, error?: string): string {
  const { uid, params } = interaction;
  const scope = typeof params.scope === "string" ? params.scope : "";
  const resource = typeof params.resource === "string" ? params.resource : "";
  return page(
    "Sign in",
    `<p>Development sign-in for <code>${escapeHtml(client)}</code>.</p>
    ${scope ? `<p>Access requested: <code>${escapeHtml(scope)}</code>${resource ? ` for <code>${escapeHtml(resource)}</code>` : ""}.</p>` : ""}
    ${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ""}
    <form method="post" action="${INTERACTION_PATH}/${uid}/login">
      <label for="username">Username</label>
      <input id="username" name="username" type="text" value="${escapeHtml(username)}" autocomplete="username" autofocus required>
      <button type="submit">Sign in</button>
    </form>
    <form method="post" action="${INTERACTION_PATH}/${uid}/abort">
      <button type="submit" class="secondary">Cancel</button>
    </form>`,
  );
}

const pageStyles = `
    body{font-family:system-ui,sans-serif;max-width:26rem;margin:3rem auto;padding:0 1rem;color:#1f2328}
    label{display:block;font-weight:600;margin:1rem 0 .25rem}input{width:100%;box-sizing:border-box;padding:.5rem;font-size:1rem}
    button{margin-top:1rem;width:100%;padding:.6rem;font-size:1rem;cursor:pointer}
    button.secondary{background:none;border:none;color:#57606a;margin-top:.25rem}
    .error{color:#cf222e}code{word-break:break-all}
`;
/** The page's one inline stylesheet, allowed by hash: nothing else may style or script it. */
const pageStylesHash = `'sha256-${createHash("sha256").update(pageStyles).digest("base64")}'`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)} · Course Authoring (development)</title>
  <style>${pageStyles}</style>
</head>
<body>
  <h1>${escapeHtml(title)}</h1>
  <p><small>Embedded development identity provider — no password, loopback only.</small></p>
  ${body}
</body>
</html>`;
}

function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    "content-security-policy": `default-src 'none'; style-src ${pageStylesHash}; frame-ancestors 'none'; base-uri 'none'`,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
  });
  res.end(html);
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > MAX_FORM_BYTES) return undefined;
    chunks.push(buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

