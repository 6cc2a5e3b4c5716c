# Multi-stage build: install and compile to one self-contained binary, then ship it on a small
# runtime image as a non-root user with a health check.
FROM oven/bun:1.4.5 AS build
WORKDIR /app
COPY package.json package-lock.json bunfig.toml tsconfig.json ./
RUN bun install --frozen-lockfile --production --ignore-scripts || bun install --production --ignore-scripts
COPY src ./src
# The player's bundles are generated, and embedded into the binary by the next step.
RUN bun run src/build-player.ts
# Whitespace only: Bun 1.4.5's syntax and identifier minifiers miscompile oidc-provider's token endpoint
# (the development sign-in answers 500); test/build-binary.test.ts builds with these very lines.
# The heavy-work thread's entry and the OpenAPI check's thread are further entrypoints: Bun bundles each
# separately into the binary, and src/service.ts names them by the same paths relative to src/
# (./workers/worker-entry.ts, ./discovery/openapi-check-worker.ts).
RUN bun build --compile --minify-whitespace --sourcemap src/main.ts src/workers/worker-entry.ts src/discovery/openapi-check-worker.ts --outfile /app/course-authoring-service

FROM debian:bookworm-slim AS runtime
RUN useradd --system --uid 10001 --home-dir /app service && mkdir -p /app/data && chown -R service /app
WORKDIR /app
COPY --from=build --chown=service /app/course-authoring-service /app/course-authoring-service
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 DATABASE_URL=sqlite:///app/data/course-authoring.db
USER service
EXPOSE 3000
VOLUME ["/app/data"]
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
  CMD ["/app/course-authoring-service", "--health-check"]
ENTRYPOINT ["/app/course-authoring-service"]
