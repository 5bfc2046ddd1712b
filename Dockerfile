# Build the client, then run the server with only what it needs.
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npm run build

FROM node:22-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN npm ci --omit=dev
COPY --from=build /app/dist ./dist
COPY events ./events
COPY projections ./projections
COPY server ./server
EXPOSE 3000
CMD ["npx", "tsx", "server/main.ts"]
