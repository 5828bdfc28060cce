import { type Actor, isAdmin } from "~/lib/auth/actor.server.ts";
import { db } from "~/lib/db.server.ts";
import { forbidden, notFound } from "~/lib/problem.server.ts";
import type { UpdateOrganizationInput } from "./organization-schemas.ts";
import { recordUpdate } from "../audit/audit.server.ts";

const organizationSelect = { id: true, name: true, timeZone: true, kind: true, updatedAt: true } as const;

/** The caller's own organization (a SUPER_ADMIN's too: settings are per organization). */
export async function getOrganization(actor: Actor) {
  const organization = await db.organization.findFirst({ where: { id: actor.organizationId, deletedAt: null }, select: organizationSelect });
  if (!organization) throw notFound("organization");
  return organization;
}

/** An administrator's change of the organization's name, time zone or kind; everything else stays. */
export async function updateOrganization(actor: Actor, input: UpdateOrganizationInput) {
  if (!isAdmin(actor)) throw forbidden("Only administrators may change the organization's settings.");
  await getOrganization(actor);
  return db.$transaction(async (tx) => {
    const updated = await tx.organization.update({
      where: { id: actor.organizationId },
      data: {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.timeZone !== undefined ? { timeZone: input.timeZone } : {}),
        ...(input.kind !== undefined ? { kind: input.kind } : {}),
      },
      select: organizationSelect,
    });
    await recordUpdate(tx, actor, "organization.updated", { id: actor.organizationId }, input);
    return updated;
  });
}
