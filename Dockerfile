# oikos: one image for `oikos start` and `oikos worker`.
FROM node:24-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
RUN apt-get update \
  && apt-get install -y --no-install-recommends openssh-client ca-certificates tini \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY vendor ./vendor
RUN npm ci --omit=dev --no-audit --no-fund
COPY . .
# `oikos` on PATH: `docker compose exec oikos oikos chat` opens the terminal chat in the container.
RUN ln -s /app/bin/oikos.js /usr/local/bin/oikos \
  && mkdir -p /app/data && chown -R node:node /app/data
USER node
ENV OIKOS_DATA_DIR=/app/data OIKOS_SHELL=false OIKOS_HTTP_HOST=0.0.0.0 OIKOS_HTTP_PORT=8420
EXPOSE 8420
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s CMD node -e "fetch('http://127.0.0.1:8420/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["/usr/bin/tini", "--", "node", "bin/oikos.js"]
CMD ["start"]
