# One image for the API and the workers; docker-compose.yml picks the command.
# test/deploy/dockerfile.test.ts lays out what the COPY lines copy, runs the RUN lines and
# starts `api` and `worker` from there: keep to the instructions it reads (FROM, WORKDIR,
# ENV, COPY, RUN, USER, EXPOSE, ENTRYPOINT and CMD in exec form).
FROM node:20-slim
WORKDIR /app
ENV NODE_ENV=production
# glibc's malloc keeps freed blocks of a few MB (big answers, query buffers) unless its mmap
# threshold is fixed: the resident set then grows with every big article (bench/memory.ts).
ENV MALLOC_MMAP_THRESHOLD_=131072
# The bundle is built below, as root, and run as `node`: outside node_modules, and a start
# runs from it only (bin/metaserver.js refuses to compile the sources through tsx).
ENV METASERVER_BUNDLE_DIR=build
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
# Everything bin/metaserver.js loads: it finds the bundle through scripts/bundle.mjs.
COPY bin ./bin
COPY scripts ./scripts
COPY config ./config
COPY src ./src
COPY examples ./examples
RUN node scripts/bundle.mjs
USER node
EXPOSE 8080
ENTRYPOINT ["node", "bin/metaserver.js"]
CMD ["api"]
