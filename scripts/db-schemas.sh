#!/usr/bin/env bash
# Regenerates prisma/postgres/schema.prisma from prisma/sqlite/schema.prisma and both
# generated clients. For a schema change, also add a migration pair:
#   npx --no-install prisma migrate diff --from-schema-datamodel OLD --to-schema-datamodel prisma/sqlite/schema.prisma --script > prisma/migrations/sqlite/NNNN_name.sql
#   (same with the postgres schema and DATABASE_URL=postgresql://… for prisma/migrations/postgres)
set -euo pipefail
cd "$(dirname "$0")/.."
sed -e 's/provider = "sqlite"/provider = "postgresql"/' \
    -e 's#lib/generated/sqlite#lib/generated/postgres#' \
    -e 's#^// The one source.*#// GENERATED from prisma/sqlite/schema.prisma by `npm run db:schemas`: edit that file.#' \
    -e '/^\/\/ prisma\/postgres/d;/^\/\/ from this file/d;/^\/\/ checks that/d' \
    prisma/sqlite/schema.prisma > prisma/postgres/schema.prisma
mkdir -p data
# The pinned prisma in node_modules, never whatever `npx prisma` would fetch from the registry.
prisma=node_modules/.bin/prisma
[ -x "$prisma" ] || { echo "db-schemas: $prisma is missing; run npm ci first" >&2; exit 1; }
"$prisma" generate --schema prisma/sqlite/schema.prisma >/dev/null
DATABASE_URL=postgresql://localhost/unused "$prisma" generate --schema prisma/postgres/schema.prisma >/dev/null
