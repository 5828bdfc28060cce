import { type Actor, isAdmin } from "~/lib/auth/actor.server.ts";
import { db, Prisma } from "~/lib/db.server.ts";
import { forbidden, notFound } from "~/lib/problem.server.ts";
import { policyColumns, policyOf, retentionColumnsSelect } from "../retention/retention-policy.ts";
import { scheduleRetentionRuns } from "../retention/retention.server.ts";
import type { UpdateOrganizationInput } from "./organization-schemas.ts";
import { recordUpdate } from "../audit/audit.server.ts";
import { readPrivacyNotice, storedPrivacyNotice } from "./privacy-notice.ts";

const organizationSelect = {
  id: true,
  name: true,
  timeZone: true,
  kind: true,
  ...retentionColumnsSelect,
  privacyNotice: true,
  updatedAt: true,
} as const;

type OrganizationRow = Prisma.OrganizationGetPayload<{ select: typeof organizationSelect }>;

/** The organization as the API answers it: its policy and notice read out of their columns. */
function presentOrganization({ retentionResultsMonths, retentionInactivePeopleMonths, retentionAction, privacyNotice, ...row }: OrganizationRow) {
  return {
    ...row,
    retention: policyOf({ retentionResultsMonths, retentionInactivePeopleMonths, retentionAction }),
    privacyNotice: readPrivacyNotice(privacyNotice),
  };
}

async function findOrganization(actor: Actor) {
  const organization = await db.organization.findFirst({ where: { id: actor.organizationId, deletedAt: null }, select: organizationSelect });
  if (!organization) throw notFound("organization");
  return organization;
}

/** The caller's own organization (a SUPER_ADMIN's too: settings are per organization). */
export async function getOrganization(actor: Actor) {
  return presentOrganization(await findOrganization(actor));
}

/**
 * An administrator's change of the organization's name, time zone, kind, retention policy or
 * privacy notice; everything else stays. A policy set queues its daily run, a policy removed
 * removes it, in the same transaction (ADR 89).
 */
export async function updateOrganization(actor: Actor, input: UpdateOrganizationInput, now = new Date()) {
  if (!isAdmin(actor)) throw forbidden("Only administrators may change the organization's settings.");
  await findOrganization(actor);
  const updated = await db.$transaction(async (tx) => {
    const organization = await tx.organization.update({
      where: { id: actor.organizationId },
      data: {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.timeZone !== undefined ? { timeZone: input.timeZone } : {}),
        ...(input.kind !== undefined ? { kind: input.kind } : {}),
        ...(input.retention !== undefined ? policyColumns(input.retention) : {}),
        ...(input.privacyNotice !== undefined ? { privacyNotice: storedPrivacyNotice(input.privacyNotice) ?? Prisma.DbNull } : {}),
      },
      select: organizationSelect,
    });
    await recordUpdate(tx, actor, "organization.updated", { id: organization.id }, input);
    if (input.retention !== undefined) await scheduleRetentionRuns(tx, organization.id, input.retention !== null, organization.timeZone, now);
    return organization;
  });
  return presentOrganization(updated);
}
