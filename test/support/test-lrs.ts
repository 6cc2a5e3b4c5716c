/**
 * A learning record store for the player tests: the xAPI Statement API's POST (each statement kept
 * once, by id, with its `stored` time) and the State API, behind Basic auth and the version header the
 * spec requires, with CORS for a package served from another origin.
 */
type Json = Record<string, unknown>;

export const lrsAuth = `Basic ${btoa("lrs-key:lrs-secret")}`;
const cors = { "Access-Control-Allow-Origin": "*", "Access-Control-Allow-Methods": "GET, POST, PUT, OPTIONS", "Access-Control-Allow-Headers": "Authorization, Content-Type, X-Experience-API-Version" };

export interface TestLrs {
  readonly port: number;
  /** Every statement received, in arrival order. */
  readonly statements: Json[];
  stop(): void;
}

export function startTestLrs(): TestLrs {
  const statements: Json[] = [];
  const state = new Map<string, string>();
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      if (request.method === "OPTIONS") return new Response(null, { status: 204, headers: cors });
      if (request.headers.get("authorization") !== lrsAuth || request.headers.get("x-experience-api-version") !== "1.0.3") return new Response("no", { status: 401, headers: cors });
      if (url.pathname === "/xapi/statements" && request.method === "POST") {
        const body = (await request.json()) as Json | Json[];
        const list = Array.isArray(body) ? body : [body];
        for (const statement of list) if (!statements.some((known) => known.id === statement.id)) statements.push({ ...statement, stored: new Date().toISOString() });
        return Response.json(list.map((statement) => statement.id), { headers: cors });
      }
      if (url.pathname === "/xapi/activities/state") {
        const key = url.searchParams.toString();
        if (request.method === "GET") return state.has(key) ? new Response(state.get(key), { headers: cors }) : new Response("", { status: 404, headers: cors });
        state.set(key, await request.text());
        return new Response(null, { status: 204, headers: cors });
      }
      return new Response(null, { status: 404, headers: cors });
    },
  });
  return { port: server.port!, statements, stop: () => server.stop(true) };
}
