import { createHash } from "node:crypto";
import type { Prisma } from "./db.server.ts";
import { json } from "./http.server.ts";
import { ApiError } from "./problem.server.ts";

/**
 * Entity tags of the records a client edits (docs/api-contract.md §23, ADR 55): a form, a student, a candidate
 * and a group. A tag names the record's stored version, its id and `updatedAt`, so it changes
 * exactly when the record does in the sense of the lists read with `updatedSince` (ADR 52). It is
 * strong, because `If-Match` compares strongly (RFC 9110 §13.1.1): a `W/` tag never matches.
 */
export type Versioned = { id: string; updatedAt: Date };

export function entityTag(record: Versioned): string {
  const digest = createHash("sha256").update(`${record.id}\n${record.updatedAt.toISOString()}`).digest("base64url");
  return `"${digest.slice(0, 27)}"`;
}

/** A record as JSON with its tag: the answer of a GET, a PUT or a POST that created it. */
export const versionedJson = (record: Versioned, status = 200) => json(record, { status, headers: { ETag: entityTag(record) } });

/** What `If-Match` asks for: any current version (`*`), or one of the tags listed. */
export type IfMatch = "*" | readonly string[];

/**
 * The request's `If-Match`, or null without one. Only strong tags are kept (a weak one can never
 * match); a value that holds no tag at all matches nothing, so the write is refused with 412.
 */
export function readIfMatch(request: Request): IfMatch | null {
  const header = request.headers.get("if-match");
  if (header === null) return null;
  if (header.trim() === "*") return "*";
  return [...header.matchAll(/(W\/)?("[\x21\x23-\x7e\x80-\xff]*")/g)].flatMap((match) => (match[1] ? [] : [match[2]!]));
}

export const preconditionFailed = () =>
  new ApiError(412, "PRECONDITION_FAILED", "The record has changed since the version named in If-Match. Read it again, then send the change.");

type VersionedTable = "form" | "student" | "candidate" | "group";
type VersionDelegate = {
  findUnique(args: { where: { id: string }; select: { id: true; updatedAt: true } }): Promise<Versioned | null>;
  updateMany(args: { where: { id: string; updatedAt: Date }; data: { updatedAt: Date } }): Promise<{ count: number }>;
};

/**
 * The first statement of a conditional write's transaction: refuses it with 412 unless the
 * record's version is one `ifMatch` names, and holds the record until the transaction ends, so no
 * other write can come between the check and this one. The version is read and then claimed by an
 * update conditioned on it (a compare-and-set): a write that committed in between leaves nothing to
 * claim (PostgreSQL re-reads the row it waited for), and on SQLite the transaction is already the
 * only writer. The claim writes the value it read; the write that follows sets the new one.
 */
export async function claimVersion(tx: Prisma.TransactionClient, table: VersionedTable, id: string, ifMatch: IfMatch | null): Promise<void> {
  if (ifMatch === null || ifMatch === "*") return;
  const delegate = tx[table] as unknown as VersionDelegate;
  const current = await delegate.findUnique({ where: { id }, select: { id: true, updatedAt: true } });
  if (!current || !ifMatch.includes(entityTag(current))) throw preconditionFailed();
  const { count } = await delegate.updateMany({ where: { id, updatedAt: current.updatedAt }, data: { updatedAt: current.updatedAt } });
  if (count !== 1) throw preconditionFailed();
}
