# syntax=docker/dockerfile:1
# One marketplace server node: the API, the site and the widget SDK, run from source by tsx as `pnpm start`
# runs it. The production layout (a load balancer, several of these nodes, PostgreSQL, Redis and an
# S3-compatible bucket) is compose.yaml; docs/operating.md explains every setting.
#
#   docker build -t plugin-marketplace .
#   docker run -p 8080:8080 -v mp-data:/var/lib/marketplace plugin-marketplace   # one process, embedded database

ARG NODE_IMAGE=node:20-bookworm-slim

# Stage 1: every dependency, then the site (site/dist) and the widget SDK (packages/elements/dist), built as
# `pnpm start` builds them (`pnpm build`).
FROM ${NODE_IMAGE} AS build
# pnpm runs through npx at the version pinned in package.json, as the README's commands run it; Corepack's
# signature check fails on some machines, so it is not used.
ARG PNPM_VERSION=10.34.9
ENV COREPACK_INTEGRITY_KEYS=0 CI=true
WORKDIR /src
COPY . .
RUN npx -y "pnpm@${PNPM_VERSION}" install --frozen-lockfile \
 && npx -y "pnpm@${PNPM_VERSION}" build

# Stage 2: the production dependencies of the server and of the site (the server render of the public pages,
# site/dist/server/entry-server.js, imports jsdom and DOMPurify from site/node_modules), the built site and SDK
# beside the sources.
FROM ${NODE_IMAGE}
ARG PNPM_VERSION=10.34.9
ENV COREPACK_INTEGRITY_KEYS=0 CI=true
WORKDIR /app
COPY . .
RUN npx -y "pnpm@${PNPM_VERSION}" install --frozen-lockfile --prod --filter "@marketplace/server..." --filter "@marketplace/site" \
 && npm cache clean --force \
 && rm -rf /root/.cache /root/.local/share/pnpm
COPY --from=build /src/site/dist ./site/dist
COPY --from=build /src/packages/elements/dist ./packages/elements/dist

# A non-root user owns the data folder: with DATABASE_URL and S3_BUCKET it holds only temporary upload
# files and the local admin socket (`mp`); without them, the embedded database and the files too.
RUN mkdir -p /var/lib/marketplace && chown node:node /var/lib/marketplace
USER node
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/var/lib/marketplace \
    DEMO=false
VOLUME ["/var/lib/marketplace"]
EXPOSE 8080
WORKDIR /app/packages/server
# The load balancer's check too: GET / answers 200 while the node serves (see docs/operating.md).
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node itself is the process that receives SIGTERM (compose stop, docker stop) and closes cleanly.
CMD ["node", "--import", "tsx", "src/server.ts"]
