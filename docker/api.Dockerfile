# The API image: HTTP only, never a browser. Build from the repository root:
#   docker build -f docker/api.Dockerfile -t scraper-api .
# The same image runs the migrations: node dist/scripts/migrate.js (needs only DATABASE_URL).

# The base of both stages. For a reproducible build pin it by digest where a registry is reachable:
#   --build-arg NODE_IMAGE=node:24-bookworm-slim@sha256:<digest>
# (`docker buildx imagetools inspect node:24-bookworm-slim` prints the digest). Where none is,
# a local stand-in builds from npm's Node binary (docs/deploy.md, "Building the images").
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# Puppeteer is a peer of puppeteer-cluster; its browser download is never wanted (Debian's Chromium
# is used) and install scripts are skipped altogether.
ENV PUPPETEER_SKIP_DOWNLOAD=1
COPY package.json package-lock.json .puppeteerrc.cjs ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY libs ./libs
COPY apps ./apps
COPY scripts ./scripts
# Production dependencies only: optional ones go too, since here they are the TypeScript toolchain
# (ts-node, typescript, @swc: optional peers of typeorm and cosmiconfig) and native speed-ups the
# apps run without.
RUN npm run build && npm prune --omit=dev --omit=optional --ignore-scripts

FROM ${NODE_IMAGE}
# tini as PID 1 forwards SIGTERM to node and reaps orphans.
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production
WORKDIR /app
# Owned by root and not writable by the app, so the root filesystem can be mounted read-only.
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist/libs ./dist/libs
COPY --from=build /app/dist/apps/api ./dist/apps/api
COPY --from=build /app/dist/scripts ./dist/scripts
# The node image's unprivileged user, by number so Kubernetes can check runAsNonRoot.
USER 1000:1000
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT || 3000}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/apps/api/src/main.js"]
