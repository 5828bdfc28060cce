import type { Actor } from "~/lib/auth/actor.server.ts";
import { isAdmin, organizationScope } from "~/lib/auth/actor.server.ts";
import { apiTokenHash, newApiToken } from "~/lib/auth/api-token.server.ts";
import { requireSessionCaller } from "~/lib/auth/end-access.server.ts";
import { db } from "~/lib/db.server.ts";
import { forbidden, notFound } from "~/lib/problem.server.ts";
import { linkExpiry } from "../submissions/link-expiry.server.ts";
import { assertMayManage, findManagedUser } from "../users/user-admin.server.ts";
import type { CreateApiTokenInput } from "./api-token-schemas.ts";
import { scopesOf } from "./token-scopes.ts";
import { recordAudit } from "../audit/audit.server.ts";

/**
 * A user's personal API tokens (docs/api-contract.md §14). Created and deleted only from a signed-in session
 * (a token cannot make or end tokens: 403 TOKEN_SCOPE), shown once, listed without their secret;
 * deleted by their owner or by an administrator who may manage the owner. Every recovery action
 * ends them all (ADR 43, app/lib/auth/end-access.server.ts). A read-only token (scopes ["read"])
 * is refused every write where a bearer token becomes the caller (ADR 54,
 * app/lib/auth/api-token.server.ts).
 */

/** A user keeps at most this many tokens: one per integration, with room to rotate. */
export const MAX_TOKENS_PER_USER = 20;

const listSelect = { id: true, name: true, readOnly: true, createdAt: true, expiresAt: true, lastUsedAt: true } as const;

/** A stored token as the API shows it: its `readOnly` column as `scopes`. */
const shown = <T extends { readOnly: boolean }>({ readOnly, ...token }: T) => ({ ...token, scopes: scopesOf({ readOnly }) });

export async function createApiToken(actor: Actor, input: CreateApiTokenInput) {
  requireSessionCaller(actor);
  const expiresAt = linkExpiry(input.expiresAt, actor.timeZone);
  if ((await db.apiToken.count({ where: { userId: actor.userId } })) >= MAX_TOKENS_PER_USER) {
    throw forbidden(`A user keeps at most ${MAX_TOKENS_PER_USER} tokens: delete one first.`);
  }
  const token = newApiToken();
  const row = await db.$transaction(async (tx) => {
    const created = await tx.apiToken.create({
      data: { userId: actor.userId, name: input.name, tokenHash: apiTokenHash(token), readOnly: !input.scopes.includes("write"), expiresAt },
      select: { id: true, name: true, readOnly: true, createdAt: true, expiresAt: true },
    });
    await recordAudit(tx, { by: actor, action: "token.created", targetId: created.id, details: { scopes: scopesOf(created) } });
    return created;
  });
  return { ...shown(row), token };
}

export async function listApiTokens(actor: Actor) {
  return listTokensOf(actor.userId);
}

function listTokensOf(userId: string) {
  return db.apiToken
    .findMany({ where: { userId }, select: listSelect, orderBy: [{ createdAt: "desc" }, { id: "desc" }] })
    .then((tokens) => ({ tokens: tokens.map(shown) }));
}

/**
 * An administrator's view of a user's tokens, for the users they may manage (the users API's rule):
 * a user of another organization is 404 to anyone, a SUPER_ADMIN's tokens are 403 to an ADMIN.
 */
export async function listUserApiTokens(actor: Actor, userId: string) {
  const { user } = await findManagedUser(actor, userId);
  return listTokensOf(user.id);
}

/**
 * The owner's, or one of a user the administrator may manage (403 for a SUPER_ADMIN's token and an
 * ADMIN); a token of anyone else is 404. Only from a session.
 */
export async function deleteApiToken(actor: Actor, id: string) {
  requireSessionCaller(actor);
  const token = await db.apiToken.findFirst({
    where: { id, ...(isAdmin(actor) ? { user: organizationScope(actor) } : { userId: actor.userId }) },
    select: { id: true, userId: true, user: { select: { role: true, organizationId: true } } },
  });
  if (!token) throw notFound("API token");
  if (token.userId !== actor.userId) assertMayManage(actor, token.user);
  await db.$transaction(async (tx) => {
    const { count } = await tx.apiToken.deleteMany({ where: { id } });
    // Deleted meanwhile by another request, which recorded it.
    if (count === 0) return;
    await recordAudit(tx, { by: actor, action: "token.deleted", targetId: id, organizationId: token.user.organizationId, details: { ownerId: token.userId } });
  });
  return { id };
}
