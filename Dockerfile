# One image for every service; the `agent` target adds the device tooling.
#   docker build -t qa-platform .                          (services, the default target)
#   docker build --target agent -t qa-platform-agent .     (agent)
FROM node:20-bookworm-slim AS base

ENV NODE_ENV=production \
    NPM_CONFIG_UPDATE_NOTIFIER=false \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/app/data

WORKDIR /app

COPY package.json package-lock.json ./
# `npm ci` builds the web console and dfctl (the prepare script) from these, into console/dist and
# dist/dfctl; the server's bundle is built once the sources are in.
COPY scripts/build-console.mjs scripts/build-dfctl.mjs scripts/build-clients.mjs scripts/build-server.mjs scripts/
COPY console console
COPY cli cli
# node-pty (the agent's terminals) compiles its native module at install: the compilers are there for
# that step only.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
    && npm ci --omit=dev && npm cache clean --force \
    && apt-get purge -y python3 make g++ && apt-get autoremove -y && rm -rf /var/lib/apt/lists/*

# The source stays owned by root; the process may write only under DATA_DIR. The server runs compiled
# (dist/server, `npm start`'s bundle); the agent from its TypeScript sources.
COPY . .
RUN node scripts/build-server.mjs --force && mkdir -p /app/data && chown node:node /app/data

USER node
EXPOSE 8080

# node itself (not npx) is the process, so SIGTERM reaches the application and it can drain.
CMD ["node", "dist/server/main.mjs"]


FROM base AS agent

USER root
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium chromium-driver adb fonts-liberation \
 && rm -rf /var/lib/apt/lists/*
USER node

CMD ["node", "--import", "tsx", "agent/main.ts"]


# Last stage, so that a plain `docker build .` gives the service image.
FROM base AS service
