import { env } from "./env.server.ts";
import { Prisma } from "./db.server.ts";

/**
 * Thousands of new rows written with multi-row INSERT statements. Prisma's `createMany` passes
 * every value through its query compiler: a roster of 5,000 people took 3–5 s there, against
 * about 0.3 s as a few statements of 500 rows (docs/benchmarks.md, "Long writes"). For the imports
 * only; everything else goes through the client.
 *
 * `columns` are the table's own names; every row gives a value for each (a database default is
 * not used, so `createdAt`/`updatedAt` come from the caller). Enum columns are named with their
 * type: PostgreSQL needs the cast, SQLite stores the text as is. Dates are written by the driver
 * adapter exactly as Prisma writes them.
 */
export async function insertRows(
  tx: Prisma.TransactionClient,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
  options: { enumTypes?: Readonly<Record<string, string>> } = {},
): Promise<void> {
  if (rows.length === 0) return;
  const postgres = env().databaseProvider === "postgresql";
  const head = Prisma.raw(`INSERT INTO ${quote(table)} (${columns.map(quote).join(", ")}) VALUES `);
  const castAt = columns.map((column) => (postgres && options.enumTypes?.[column] ? Prisma.raw(quote(options.enumTypes[column])) : null));
  // Well under both databases' limit on bound values (SQLite 32,766, PostgreSQL 65,535).
  const perStatement = Math.max(1, Math.floor(8000 / columns.length));
  for (let from = 0; from < rows.length; from += perStatement) {
    const tuples = rows.slice(from, from + perStatement).map(
      (row) =>
        Prisma.sql`(${Prisma.join(
          row.map((value, index) => {
            const cast = castAt[index];
            return cast ? Prisma.sql`CAST(${value} AS ${cast})` : value;
          }),
        )})`,
    );
    await tx.$executeRaw`${head}${Prisma.join(tuples)}`;
  }
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
