# The app image of docker-compose.yml (graph server and worker pool run the same image).
FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
COPY schema/package.json schema/
COPY graph/package.json graph/
COPY workers/package.json workers/
COPY web/package.json web/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build
# glibc: buffers over 128 KB always get their own mapping, returned when freed. Without it glibc raises
# the threshold after the first large free and keeps later ones in its heap: an Excel import left the
# process ~50 MB bigger after each job (bench/README.md, import). npm start and npm run workers set it too.
ENV MALLOC_MMAP_THRESHOLD_=131072
