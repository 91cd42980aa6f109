# One image for the API and the workers; docker-compose.yml picks the command.
FROM node:20-slim
WORKDIR /app
ENV NODE_ENV=production
# glibc's malloc keeps freed blocks of a few MB (big answers, query buffers) unless its mmap
# threshold is fixed: the resident set then grows with every big article (bench/memory.ts).
ENV MALLOC_MMAP_THRESHOLD_=131072
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY bin ./bin
COPY config ./config
COPY src ./src
COPY examples ./examples
USER node
EXPOSE 8080
ENTRYPOINT ["node", "bin/metaserver.js"]
CMD ["api"]
