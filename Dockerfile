# Painéis: the API and the web app in one Node.js process, as the README's production build makes them.
#
#   DOCKER_BUILDKIT=1 docker build -t paineis .
#   DOCKER_BUILDKIT=1 docker build --secret id=ca,src=/etc/ssl/certs/ca-certificates.crt -t paineis .
#
# The second form is for a network behind a TLS-intercepting proxy: the proxy's CA bundle is given to npm and apt
# as a BuildKit secret, only inside the steps that download, and is never written into the image.

ARG NODE_VERSION=24

# Only the package manifests: the npm ci layers are rebuilt when a manifest or the lockfile changes, not the sources.
FROM node:${NODE_VERSION}-bookworm-slim AS manifests
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/api/package.json apps/api/
COPY apps/web/package.json apps/web/
COPY packages/contract/package.json packages/contract/
COPY packages/microsoft-api/package.json packages/microsoft-api/
COPY packages/microsoft-stand-ins/package.json packages/microsoft-stand-ins/
# Playwright (a devDependency, for the browser tests) downloads no browser into an image that never runs one.
ENV PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 \
    npm_config_audit=false \
    npm_config_fund=false \
    npm_config_update_notifier=false

# Production dependencies only, of the API's workspace (and the workspace packages it uses): what the compiled
# server imports from node_modules. The web app's dependencies are compiled into apps/web/dist by Vite, so they
# stay out (half of node_modules).
FROM manifests AS production-dependencies
RUN --mount=type=secret,id=ca --mount=type=cache,target=/root/.npm,sharing=locked \
    if [ -s /run/secrets/ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/ca; fi; \
    npm ci --omit=dev --workspace=@paineis/api

# Every dependency, then the build: apps/web/dist (Vite) and apps/api/dist/server.js (esbuild).
FROM manifests AS build
RUN --mount=type=secret,id=ca --mount=type=cache,target=/root/.npm,sharing=locked \
    if [ -s /run/secrets/ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/ca; fi; \
    npm ci
COPY . .
RUN npm run build

FROM node:${NODE_VERSION}-bookworm-slim
# tini as PID 1: it passes SIGTERM on to node, so the server finishes the requests in flight and closes the
# database, and it reaps orphaned processes. /data, the embedded database's folder, belongs to the node user.
RUN --mount=type=secret,id=ca \
    set -e; \
    ca=; if [ -s /run/secrets/ca ]; then ca='-o Acquire::https::CAInfo=/run/secrets/ca'; fi; \
    apt-get update $ca; \
    apt-get install -y --no-install-recommends $ca tini; \
    apt-get clean; \
    rm -rf /var/lib/apt/lists/*; \
    mkdir /data; \
    chown node:node /data
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
# Owned by root, read-only to the server: it writes only to /data. The manifests stay: the server finds the
# repository root (DATA_DIR's and WEB_DIST_DIR's base) by apps/api/package.json.
COPY --from=production-dependencies /app ./
COPY --from=build /app/apps/api/dist apps/api/dist
COPY --from=build /app/apps/web/dist apps/web/dist
USER node
VOLUME /data
EXPOSE 3000
# No curl in a slim image: node's own fetch asks /readyz (the database answers).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--enable-source-maps", "apps/api/dist/server.js"]
