# One image for the API (+ client) and the payment service; compose picks the command.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.base.json ./
COPY packages/shared/package.json packages/shared/
COPY server/package.json server/
COPY payment-service/package.json payment-service/
COPY simulator/package.json simulator/
COPY client/package.json client/
COPY deploy/package.json deploy/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app /app
EXPOSE 5000 27684
CMD ["node", "server/dist/index.js"]
