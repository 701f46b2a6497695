# express-kernel demo server.
#   docker build -t express-kernel .
#   docker run -p 8000:8000 express-kernel
# (podman: `podman build --format docker -t express-kernel .`, or the HEALTHCHECK is dropped)
# State (the SQLite files of the demo and of the profiler) lives in /app/var, a volume the node
# user owns; keep it across containers with `-v express-kernel-var:/app/var`.
# tests/service/dockerfile.test.ts replays this file's build RUN steps, COPY
# lines, ENV, VOLUME and CMD outside Docker, then starts the CMD as an unprivileged
# user: keep instructions in shell or exec form and RUN paths relative to WORKDIR.

# ---- build: compile TypeScript, then keep production dependencies only ----
FROM node:24-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 is a native addon: node-gyp needs python3, make and g++
# whenever no prebuilt binary can be fetched
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build
# the demo needs the optional peers (better-sqlite3, bcryptjs, redis): dependencies in the image;
# then drop the dev dependencies from the tree `npm ci` installed from the lockfile (a prune
# installs nothing, so the versions stay the lockfile's and better-sqlite3 is not compiled again)
RUN node scripts/image-dependencies.js && npm prune --omit=dev --no-audit --no-fund
# better-sqlite3 needs only its compiled addon at run time: drop the SQLite sources (deps/),
# the C++ sources (src/) and node-gyp's intermediates (object files, Makefiles, the test extension)
RUN cd node_modules/better-sqlite3 \
 && mv build/Release/better_sqlite3.node better_sqlite3.node \
 && rm -rf build deps src binding.gyp \
 && mkdir -p build/Release \
 && mv better_sqlite3.node build/Release/better_sqlite3.node

# ---- runtime ----
FROM node:24-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8000 APP_ENV=dev
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/templates ./templates
# the TypeScript sources the source maps name, for the exception pages' excerpts
COPY --from=build /app/src ./src
# the demo's route file (config/routes.yaml), read at start
COPY --from=build /app/config ./config
# the only folder the node user (uid 1000 in the node images) may write: SQLITE_PATH and
# PROFILER_SQLITE default to var/demo.sqlite and var/profiler.sqlite under the WORKDIR
RUN mkdir -p var && chown 1000:1000 var
VOLUME /app/var
USER node
EXPOSE 8000
# /healthz is answered in front of the kernel (no firewall, no session, no profile written);
# podman keeps HEALTHCHECK only with `podman build --format docker` (OCI images have none)
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["node", "-e", "require('http').get({ host: '127.0.0.1', port: process.env.PORT || 8000, path: '/healthz', timeout: 4000 }, (r) => process.exit(r.statusCode === 200 ? 0 : 1)).on('error', () => process.exit(1)).on('timeout', () => process.exit(1))"]
CMD ["node", "dist/demo/server.js"]
