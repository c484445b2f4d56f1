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
