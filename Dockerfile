# express-kernel demo server.
#   docker build -t express-kernel .
#   docker run -p 8000:8000 express-kernel
# tests/service/dockerfile.test.ts replays this file's build RUN steps, COPY
# lines, ENV and CMD outside Docker: keep instructions in shell or exec form.

# ---- build: compile TypeScript, then keep production dependencies only ----
FROM node:22-bookworm-slim AS build
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
RUN npm prune --omit=dev --no-audit --no-fund

# ---- runtime ----
FROM node:22-bookworm-slim AS runtime
WORKDIR /app
# SQLite (books, sessions, throttling) lives where the node user can write; mount a volume
# there and set SQLITE_PATH to keep it across containers
ENV HOST=0.0.0.0 PORT=8000 APP_ENV=dev SQLITE_PATH=/tmp/express-kernel/demo.sqlite
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/templates ./templates
COPY --from=build /app/config ./config
USER node
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["node", "-e", "require('http').get({ host: '127.0.0.1', port: process.env.PORT || 8000, path: '/api', timeout: 4000 }, (r) => process.exit(r.statusCode === 200 ? 0 : 1)).on('error', () => process.exit(1)).on('timeout', () => process.exit(1))"]
CMD ["node", "dist/server.js"]
