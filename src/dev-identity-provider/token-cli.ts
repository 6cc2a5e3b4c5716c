/**
 * `bun run token`: prints a ready access token from the development identity provider, and nothing
 * else on stdout, so `TOKEN=$(bun run token)` works. It signs in through the real flow against the
 * running provider (http://127.0.0.1:$DEV_AUTH_PORT) or, when none answers, against a temporary one
 * started on the same port with the same persistent keys, so the token verifies at the service.
 *   bun run token [--sub NAME] [--scope "openid profile email offline_access"]
 */
import { dataDirectory, loadConfig } from "../config.ts";
import { DEFAULT_SCOPES, startDevIdentityProvider, type DevIdentityProvider } from "./index.ts";
import { USERNAME_PATTERN } from "./interactions.ts";
import { obtainAccessTokenByLogin } from "./scripted-login.ts";

const USAGE = 'usage: bun run token [--sub NAME] [--scope "openid profile email offline_access"]';

interface TokenRequest {
  sub: string;
  scopes: string[];
}

export function parseArguments(argv: string[]): TokenRequest | { help: true } {
  const request: TokenRequest = { sub: "dev-user", scopes: DEFAULT_SCOPES };
  for (let i = 0; i < argv.length; i++) {
    const argument = argv[i] ?? "";
    if (argument === "--help" || argument === "-h") return { help: true };
    const [flag, inline] = argument.startsWith("--") && argument.includes("=") ? [argument.slice(0, argument.indexOf("=")), argument.slice(argument.indexOf("=") + 1)] : [argument, undefined];
    if (flag !== "--sub" && flag !== "--scope") throw new Error(`unknown argument ${argument}\n${USAGE}`);
    const value = inline ?? argv[++i];
    if (value === undefined) throw new Error(`${flag} needs a value\n${USAGE}`);
    if (flag === "--sub") {
      if (!USERNAME_PATTERN.test(value)) throw new Error(`--sub: use 1–64 letters, digits, dots, dashes or underscores`);
      request.sub = value;
    } else {
      request.scopes = value.split(/\s+/).filter(Boolean);
    }
  }
  return request;
}

async function main(): Promise<number> {
  // stdout carries the token alone; anything a library prints goes to stderr.
  console.log = console.info = console.debug = console.error;

  let request: TokenRequest | { help: true };
  try {
    request = parseArguments(process.argv.slice(2));
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 2;
  }
  if ("help" in request) {
    console.error(USAGE);
    return 0;
  }

  const config = loadConfig();
  if (config.authUrl !== undefined) {
    console.error(`bun run token: AUTH_URL is set (${config.authUrl}); get tokens from that identity provider, not the development one`);
    return 1;
  }

  const issuer = `http://127.0.0.1:${config.devAuthPort}`;
  let temporary: DevIdentityProvider | undefined;
  if (!(await answersAsIssuer(issuer))) {
    temporary = await startDevIdentityProvider({
      port: config.devAuthPort,
      dataDir: dataDirectory(config.databaseUrl),
      resource: config.authAudience,
      nodeEnv: config.nodeEnv,
    });
  }
  try {
    const { accessToken } = await obtainAccessTokenByLogin({ issuer, resource: config.authAudience, username: request.sub, scopes: request.scopes });
    process.stdout.write(`${accessToken}\n`);
    return 0;
  } finally {
    await temporary?.close();
  }
}

async function answersAsIssuer(issuer: string): Promise<boolean> {
  try {
    const response = await fetch(`${issuer}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(1500) });
    if (!response.ok) return false;
    const body: unknown = await response.json();
    return typeof body === "object" && body !== null && "issuer" in body && body.issuer === issuer;
  } catch {
    return false;
  }
}

if (import.meta.main) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`bun run token: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
