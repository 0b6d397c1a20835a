# Two stages: the first installs everything and builds the client; the image that runs holds the
# server's sources, the production dependencies and the built client only, and runs as `node`.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The install scripts and the test runner's plugin (a package of this repository) live in scripts/.
COPY scripts ./scripts
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build:client

FROM node:24-bookworm-slim
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 DATA_DIR=/data CLIENT_DIR=/app/dist/client
WORKDIR /app
COPY package.json package-lock.json ./
# The image's own Node 24 runs the server: no install scripts are needed at run time.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY tsconfig.json ./
COPY server ./server
COPY domain ./domain
COPY projections ./projections
COPY storage ./storage
COPY migrations ./migrations
COPY --from=build /app/dist/client ./dist/client
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
CMD ["node", "server/main.ts"]
