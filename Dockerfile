# syntax=docker/dockerfile:1
# holdpoint image: build with dev dependencies, run with production dependencies only, as the `node` user.
# Node 22 LTS (package.json needs Node >= 20.19). Override with --build-arg NODE_IMAGE=node:20-bookworm-slim.
ARG NODE_IMAGE=node:22-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/copy-assets.mjs ./scripts/
COPY src ./src
# `npm run build` is tsc plus scripts/copy-assets.mjs, which copies the store's Lua scripts next to the
# compiled modules (src/**/*.lua -> dist/src/**/*.lua; see src/store/README.md).
RUN npm run build

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
# LICENSE travels with the image (MIT, as package.json says).
COPY package.json package-lock.json LICENSE ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
USER node
EXPOSE 3000
# Every role serves /readyz on PORT (default 3000): 200 once Redis answers, the worker runs (worker roles)
# and Slack is connected (web roles), so "healthy" means ready. Slim images have no curl: use Node's fetch.
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# ROLE (all, web, worker) selects what the process does; main.js handles SIGTERM itself. The flag gives V8 a
# larger young generation (fewer promotions, far less GC under bursts): see scripts/node-flags.mjs.
CMD ["node", "--max-semi-space-size=64", "dist/src/main.js"]
