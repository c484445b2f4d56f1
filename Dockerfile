# The app image of docker-compose.yml (graph server and worker pool run the same image).
FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
COPY schema/package.json schema/
COPY graph/package.json graph/
COPY workers/package.json workers/
COPY web/package.json web/
COPY patches/ patches/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build
# glibc: buffers over 512 KB always get their own mapping, returned when freed. Without a fixed value
# glibc raises the threshold after the first large free and keeps later ones in its heap: an Excel
# import's per-chunk buffers peaked the process at 350 MB (294 with it). 512 KB, not 128: smaller
# buffers (a 0.3 MB schedule grid answer) stay in the heap, a mapping each cost CPU (bench/README.md,
# import). npm start and npm run workers set it too.
ENV MALLOC_MMAP_THRESHOLD_=524288
# V8: 32 MB semi-spaces (16 by default) for a young generation that outlives an import chunk in
# flight: a 100,000-row apply's server CPU 2.8-2.9 -> 2.5 s, peak RSS +20-30 MB (bench/README.md,
# import). npm start and npm run workers pass the same flag.
ENV NODE_OPTIONS=--max-semi-space-size=32
