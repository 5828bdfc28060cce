import type { Actor } from "~/lib/auth/actor.server.ts";
import { isAdmin, organizationScope } from "~/lib/auth/actor.server.ts";
import { apiTokenHash, newApiToken } from "~/lib/auth/api-token.server.ts";
import { db } from "~/lib/db.server.ts";
import { forbidden, notFound } from "~/lib/problem.server.ts";
import { linkExpiry } from "../submissions/link-expiry.server.ts";
import type { CreateApiTokenInput } from "./api-token-schemas.ts";

/**
 * A user's personal API tokens (contract §14). Created only from a signed-in session (a token
 * cannot make more tokens), shown once, listed without their secret; deleted by their owner or by
 * an administrator of the owner's organization.
 */

/** A user keeps at most this many tokens: one per integration, with room to rotate. */
export const MAX_TOKENS_PER_USER = 20;

const listSelect = { id: true, name: true, createdAt: true, expiresAt: true, lastUsedAt: true } as const;

export async function createApiToken(actor: Actor, input: CreateApiTokenInput) {
  if (actor.via !== "session") throw forbidden("API tokens are created from a signed-in session, not with another token.");
  const expiresAt = linkExpiry(input.expiresAt, actor.timeZone);
  if ((await db.apiToken.count({ where: { userId: actor.userId } })) >= MAX_TOKENS_PER_USER) {
    throw forbidden(`A user keeps at most ${MAX_TOKENS_PER_USER} tokens: delete one first.`);
  }
  const token = newApiToken();
  const row = await db.apiToken.create({
    data: { userId: actor.userId, name: input.name, tokenHash: apiTokenHash(token), expiresAt },
    select: { id: true, name: true, createdAt: true, expiresAt: true },
  });
  return { ...row, token };
}

export async function listApiTokens(actor: Actor) {
  return listTokensOf(actor.userId);
}

function listTokensOf(userId: string) {
  return db.apiToken.findMany({ where: { userId }, select: listSelect, orderBy: [{ createdAt: "desc" }, { id: "desc" }] }).then((tokens) => ({ tokens }));
}

/** An administrator's view of a user's tokens. Scope before role: a user of another organization is 404 to anyone. */
export async function listUserApiTokens(actor: Actor, userId: string) {
  const user = await db.user.findFirst({ where: { id: userId, ...organizationScope(actor) }, select: { id: true } });
  if (!user) throw notFound("user");
  if (!isAdmin(actor)) throw forbidden();
  return listTokensOf(user.id);
}

/** The owner's, or an administrator's of the owner's organization; anyone else's is 404. */
export async function deleteApiToken(actor: Actor, id: string) {
  const token = await db.apiToken.findFirst({
    where: { id, ...(isAdmin(actor) ? { user: organizationScope(actor) } : { userId: actor.userId }) },
    select: { id: true },
  });
  if (!token) throw notFound("API token");
  await db.apiToken.deleteMany({ where: { id } });
  return { id };
}
