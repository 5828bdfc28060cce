/**
 * Column values from raw queries (`$queryRaw`) as each driver gives them: PostgreSQL's are typed,
 * SQLite's booleans come as 0/1 and its dates and JSON may come as text. The hot paths that read
 * one joined row instead of the ORM's relations (ADR 33) turn them into what Prisma would give.
 */
export const rawBoolean = (value: unknown) => value === true || value === 1 || value === 1n;
export const rawDate = (value: unknown) => (value === null || value === undefined ? null : value instanceof Date ? value : new Date(String(value)));
export const rawJson = (value: unknown): unknown => (typeof value === "string" ? JSON.parse(value) : value);
