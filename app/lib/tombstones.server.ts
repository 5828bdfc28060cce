import { type Actor, isAdmin, organizationScope } from "./auth/actor.server.ts";
import { type ChangeKey, Deletion, deletionsNeeded, liveWindow, mergeChanges } from "./changes.ts";
import { db, type Prisma } from "./db.server.ts";
import { skipTake } from "./schemas.ts";

/**
 * Incremental reads (docs/api-contract.md §23, docs/decisions/0052-changes-and-tombstones.md): every list
 * accepts `updatedSince` and then answers the items changed at or after it and the deletions since
 * then, oldest change first. Deletions are tombstones: a row per deleted item, written in the
 * transaction that deletes it, kept TOMBSTONE_KEPT_DAYS days.
 */

/** The lists a tombstone leaves; `submission` is both the submissions' and the reports' list. */
export type TombstoneKind = "form" | "student" | "candidate" | "group" | "submission";

/**
 * Who is told of a tombstone: everyone who could read the item (ALL), administrators and the
 * item's owner (OWNER), or the teachers other than its owner (OTHERS: a form no longer a template
 * leaves their lists, not its author's nor the administrators').
 */
export type TombstoneAudience = "ALL" | "OWNER" | "OTHERS";

/** How long a deletion can be read back; a client away longer reads its lists in full again. */
export const TOMBSTONE_KEPT_DAYS = 90;

/** Records that an item left the lists, in the transaction `tx` that deletes (or withdraws) it. */
export async function recordTombstone(
  tx: Prisma.TransactionClient,
  tombstone: { organizationId: string; kind: TombstoneKind; itemId: string; ownerId?: string | null; audience: TombstoneAudience; deletedAt: Date },
) {
  await tx.tombstone.create({ data: { ...tombstone, ownerId: tombstone.ownerId ?? null }, select: { id: true } });
}

/**
 * The tombstones of `kind` the caller is told of, by the same rules as the lists' scope: the
 * organization (a SUPER_ADMIN's every organization), and for what teachers read only in part
 * (forms, submissions) the audience. A student's own login reads its own submissions, which are
 * never deleted while it has one: none.
 */
function visibleTombstonesWhere(actor: Actor, kind: TombstoneKind): Prisma.TombstoneWhereInput | null {
  if (actor.role === "STUDENT") return null;
  const base: Prisma.TombstoneWhereInput = { kind, ...organizationScope(actor) };
  if (isAdmin(actor)) return { ...base, audience: { in: ["ALL", "OWNER"] } };
  return {
    ...base,
    OR: [{ audience: "ALL" }, { audience: "OWNER", ownerId: actor.userId }, { audience: "OTHERS", NOT: { ownerId: actor.userId } }],
  };
}

/** Where a list's rows begin to count as changes. */
export const changedSince = (since: Date) => ({ updatedAt: { gte: since } });

/** The order of changes: oldest first, the id breaking ties. */
export const OLDEST_CHANGE_FIRST = [{ updatedAt: "asc" as const }, { id: "asc" as const }];

/**
 * One page of a list's changes since `since`: its live items changed since then and its
 * tombstones, merged (app/lib/changes.ts), and the total of both. `live.page(offset, limit)` reads
 * the list's items changed since then in OLDEST_CHANGE_FIRST order (its scope and filters
 * applied), `live.count()` counts them. Deletions are listed whatever the list's other filters:
 * a deleted item no longer answers them, and a client drops the ids it holds.
 */
export async function changesPage<Item extends ChangeKey>(
  actor: Actor,
  kind: TombstoneKind,
  since: Date,
  query: { page: number; limit: number },
  live: { page: (offset: number, limit: number) => Promise<Item[]>; count: () => Promise<number> },
): Promise<{ items: (Item | Deletion)[]; total: number }> {
  const page = skipTake(query);
  const scope = visibleTombstonesWhere(actor, kind);
  const where: Prisma.TombstoneWhereInput | null = scope && { AND: [scope, { deletedAt: { gte: since } }] };
  const [tombstones, liveTotal] = await Promise.all([
    where
      ? db.tombstone.findMany({
          where,
          select: { itemId: true, deletedAt: true },
          orderBy: [{ deletedAt: "asc" }, { itemId: "asc" }],
          take: deletionsNeeded(page),
        })
      : [],
    live.count(),
  ]);
  // Fewer than were asked for are all of them: counted only when there may be more.
  const deletionTotal = where && tombstones.length === deletionsNeeded(page) ? await db.tombstone.count({ where }) : tombstones.length;
  const deletions = tombstones.map((tombstone) => new Deletion(tombstone.itemId, tombstone.deletedAt));
  const window = liveWindow(page, deletions.length);
  const items = await live.page(window.offset, window.limit);
  return { items: mergeChanges(page, window, items, deletions), total: liveTotal + deletionTotal };
}

/** Tombstones past TOMBSTONE_KEPT_DAYS, for the hourly housekeeping. */
export const purgeOldTombstones = (now: Date) =>
  db.tombstone.deleteMany({ where: { deletedAt: { lte: new Date(now.getTime() - TOMBSTONE_KEPT_DAYS * 24 * 60 * 60 * 1000) } } });
