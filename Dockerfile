# The service image of the scaled-out shape (docker-compose.yml): the same image runs the API
# (`npm run api`, the default) and the workers (`npm run worker`). TypeScript runs through tsx
# (a production dependency), so there is no build step.
FROM node:20-bookworm-slim

WORKDIR /app

# Dependencies first: this layer stays cached while only the source changes. Native modules
# (Temporal core bridge, argon2) ship prebuilt for glibc, so no compiler is needed.
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force

# The source stays owned by root: the service only reads it.
COPY . .

# Blobs (and anything else under DATA_DIR) live on a volume mounted here. A named volume takes
# the owner of this directory when it is first created, so the `node` user can write to it.
RUN mkdir -p /data && chown node:node /data
ENV DATA_DIR=/data \
    PORT=3000

USER node
EXPOSE 3000
CMD ["npm", "run", "api"]
