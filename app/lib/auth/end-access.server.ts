import type { Prisma } from "../db.server.ts";
import { ApiError } from "../problem.server.ts";
import type { Actor } from "./actor.server.ts";

/**
 * How an account's ways in end when someone acts to recover it (ADR 43).
 */

/**
 * Ends every way into an account: its sessions and its personal API tokens. Each recovery action
 * (the owner's password change, a reset by e-mailed link, an administrator's "revoke sessions",
 * second-factor reset or deactivation) calls this inside the transaction that makes its change,
 * so no credential issued before it outlives it. Answers how many of each ended.
 */
export async function endAccountAccess(tx: Prisma.TransactionClient, userId: string): Promise<{ sessions: number; tokens: number }> {
  const sessions = await tx.session.deleteMany({ where: { userId } });
  const tokens = await tx.apiToken.deleteMany({ where: { userId } });
  return { sessions: sessions.count, tokens: tokens.count };
}

/**
 * What only a signed-in session may do to its own account: change the password, the second factor
 * or the API tokens. A token that leaked must not lock its owner out or plant credentials that
 * outlive a reset, so a token-authenticated call to any of these is 403 TOKEN_SCOPE.
 */
export function requireSessionCaller(actor: Actor): Actor {
  if (actor.via === "token") {
    throw new ApiError(403, "TOKEN_SCOPE", "An API token cannot change its owner's password, second factor or tokens: sign in to do this.");
  }
  return actor;
}
