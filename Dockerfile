# paygate sandbox image: `docker build -t paygate .` then `docker run --rm -p 4080:4080 paygate`.
# The entrypoint is the CLI: `docker run --rm paygate <command>` runs any paygate command; the default command is
# `sandbox start`, listening on 0.0.0.0:4080 with its store in the /data volume. Settings come from the environment
# (flags win): PAYGATE_PORT, PAYGATE_HOST, PAYGATE_STORE (a file or postgres://…), PAYGATE_FIXTURES,
# PAYGATE_PUBLIC_URL, PAYGATE_HTTPS=1, PAYGATE_ADMIN_TOKEN. Classic builder compatible (no BuildKit-only syntax).
# BASE: any Node 20 image with the official slim layout (node/npm in /usr/local/bin, a `node` user, uid 1000).
ARG BASE=node:20-slim

# Build: dev dependencies, compile, `npm pack` (what npm would publish), then the production dependencies of
# that package, installed from the same lockfile and the npm cache the first install filled.
FROM ${BASE} AS build
# Marks the build stage, so a test run can tell its own leftover stages (kept as the next build's cache) from others.
LABEL org.paygate.stage=build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY . .
RUN npm pack --silent --pack-destination /tmp \
 && mkdir -p /app \
 && tar -xzf /tmp/paygate-*.tgz -C /app --strip-components=1 \
 && cp package-lock.json /app/ \
 && cd /app \
 && npm ci --omit=dev --omit=optional --omit=peer --ignore-scripts --prefer-offline --no-audit --no-fund \
 && rm -f package-lock.json

# Run: the package and its production dependencies only, owned by root, run as the unprivileged `node` user.
FROM ${BASE}
ENV NODE_ENV=production \
    PAYGATE_HOST=0.0.0.0 \
    PAYGATE_PORT=4080 \
    PAYGATE_STORE=/data/sandbox.json
COPY --from=build /app /app
RUN mkdir -p /data && chown node:node /data
WORKDIR /data
USER node
VOLUME /data
EXPOSE 4080
# No curl in slim images: Node asks /livez (over TLS too when PAYGATE_HTTPS is on; the certificate is self-signed).
HEALTHCHECK --interval=5s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "const t=/^(1|true|yes|on)$/i.test(process.env.PAYGATE_HTTPS||'');require(t?'https':'http').get({host:'127.0.0.1',port:process.env.PAYGATE_PORT||4080,path:'/livez',rejectUnauthorized:false},(r)=>process.exit(r.statusCode>=200&&r.statusCode<300?0:1)).on('error',()=>process.exit(1))"]
# --max-semi-space-size=8: V8's young generation capped at 8 MB a half (16 by default): scavenges twice as often,
# each half as long (docs/performance.md#node-flags).
ENTRYPOINT ["node", "--max-semi-space-size=8", "/app/bin/paygate.js"]
CMD ["sandbox", "start"]
