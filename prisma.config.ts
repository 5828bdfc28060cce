import { defineConfig } from "prisma/config";

// The CLI reads this for `prisma generate`. Migrations are applied by scripts/migrate.ts, which
// works offline (see docs/decisions/0002-migrations.md). Where Prisma's native engine is available,
// `prisma migrate status/deploy` also work: a PostgreSQL DATABASE_URL selects the derived schema and
// the PostgreSQL migrations.
const url = process.env.DATABASE_URL ?? "file:./data/app.db";
const provider = /^postgres(ql)?:\/\//i.test(url) ? "postgresql" : "sqlite";

export default defineConfig({
  schema: provider === "postgresql" ? "prisma/postgresql/schema.prisma" : "prisma/schema.prisma",
  migrations: { path: `prisma/migrations/${provider}` },
  datasource: { url },
});
