/** Baseline: a bare `Bun.serve` handler answering what /api/health answers, with nothing else. */
const body = JSON.stringify({ status: "ok" });
const server = Bun.serve({
  port: Number(process.env.PORT ?? 0),
  hostname: "127.0.0.1",
  fetch: () => new Response(body, { headers: { "Content-Type": "application/json" } }),
});
console.log(JSON.stringify({ port: server.port }));
