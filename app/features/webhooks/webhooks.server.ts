import { randomBytes } from "node:crypto";
import { Webhook as StandardWebhook } from "standardwebhooks";
import type { Actor } from "~/lib/auth/actor.server.ts";
import { requireAdmin } from "~/lib/auth/actor.server.ts";
import { decryptSecret, encryptSecret } from "~/lib/crypto.server.ts";
import { db, type Prisma } from "~/lib/db.server.ts";
import { env } from "~/lib/env.server.ts";
import { badRequest, conflict, fieldProblem, notFound } from "~/lib/problem.server.ts";
import { enqueueJobs, type JobRun, type NewJob, PermanentJobFailure } from "../jobs/jobs.server.ts";
import { DeliveryFailure, isBlockedAddress, literalAddress, safePost } from "./safe-post.server.ts";
import type { DeliveryType, FormEvent, PersonEvent, WebhookEvent } from "./webhook-events.ts";
import type { WebhookData } from "./webhook-payloads.ts";
import type { CreateWebhookInput, UpdateWebhookInput } from "./webhook-schemas.ts";
import { newId } from "~/lib/ids.server.ts";
import { recordAudit, recordUpdate } from "../audit/audit.server.ts";

/**
 * Webhooks (docs/api-contract.md §14): an administrator's endpoints, told about the organization's events.
 * An event becomes one delivery per subscribed endpoint in the transaction of the change that
 * caused it, and a durable job sends it (ADR 20): exactly once queued, retried on the Standard
 * Webhooks schedule over about three days (ADR 46) until it is answered 2xx, or at once given up
 * when the endpoint answers 410 Gone. Each delivery is signed per Standard
 * Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`) with the endpoint's secret;
 * its body is fixed when queued, so every retry sends the same bytes under the same id. A webhook
 * with `formIds` is told only the events of those forms; events about a person always (ADR 53).
 * A test delivery goes at once, from the request that asks for it, by the same path.
 */

const DELIVERY_TIMEOUT_MS = 10_000;
/** The reason recorded for a 410 answer: the receiver removed the endpoint, so no retry. */
export const GONE = "endpoint gone (410)";
const DELIVERIES_LISTED = 100;
/** Webhooks an organization may have (docs/api-contract.md §23): each one's deliveries cost every organization lane time. */
export const WEBHOOKS_PER_ORGANIZATION = 10;

const itemSelect = { id: true, url: true, events: true, formIds: true, createdAt: true, updatedAt: true } as const;
type Row = Prisma.WebhookGetPayload<{ select: typeof itemSelect }>;
const present = (row: Row) => ({ ...row, events: row.events as WebhookEvent[], formIds: row.formIds as string[] });

/** `whsec_` and 24 random bytes in base64, the form Standard Webhooks libraries take. */
const newSecret = () => `whsec_${randomBytes(24).toString("base64")}`;

/**
 * In production an endpoint is https (its deliveries carry people's names and results). An
 * endpoint that is a private address is refused at once; a name is checked when it is resolved,
 * at each delivery.
 */
function assertAllowedUrl(value: string) {
  const url = new URL(value);
  if (env().NODE_ENV === "production" && url.protocol !== "https:") {
    throw badRequest("In production a webhook's address must start with https://.", [fieldProblem("url", "webhookHttps")]);
  }
  const address = literalAddress(url);
  if (!env().WEBHOOK_ALLOW_PRIVATE_ADDRESSES && address && isBlockedAddress(address)) {
    throw badRequest("Webhooks cannot post to loopback, private or link-local addresses.", [fieldProblem("url", "webhookPrivateAddress")]);
  }
}

/**
 * The forms a webhook names must be live forms of the caller's organization (400 naming each other
 * one). On a change, the ones it names already may stay, though deleted since: what GET answered
 * can be sent back.
 */
async function assertOrganizationForms(actor: Actor, formIds: string[] | undefined, kept: readonly string[] = []) {
  const asked = (formIds ?? []).filter((id) => !kept.includes(id));
  if (asked.length === 0) return;
  const found = await db.form.findMany({ where: { id: { in: asked }, organizationId: actor.organizationId, deletedAt: null }, select: { id: true } });
  const known = new Set([...kept, ...found.map((form) => form.id)]);
  const problems = formIds!.flatMap((id, index) => (known.has(id) ? [] : [fieldProblem(`formIds.${index}`, "webhookForm")]));
  if (problems.length > 0) throw badRequest("A webhook can only name forms of its organization.", problems);
}

const webhookLimit = () =>
  conflict(`An organization can have at most ${WEBHOOKS_PER_ORGANIZATION} webhooks: remove one before adding another.`, "WEBHOOK_LIMIT");

/**
 * Runs `write` in a serializable transaction, again when PostgreSQL refused it for a concurrent
 * one (P2034): the count it read and the row it wrote then stand together. SQLite has one writer.
 */
async function serializable<T>(write: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.$transaction(write, { isolationLevel: "Serializable" });
    } catch (error) {
      // P2034 when a statement is refused; a refused COMMIT reaches us as the adapter's own error.
      const refused = error as { code?: unknown; message?: unknown; cause?: { kind?: unknown } } | null;
      const conflicting = refused?.code === "P2034" || refused?.cause?.kind === "TransactionWriteConflict" || refused?.message === "TransactionWriteConflict";
      if (!conflicting || attempt >= 8) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}

async function findWebhook(actor: Actor, id: string) {
  requireAdmin(actor);
  const row = await db.webhook.findFirst({ where: { id, organizationId: actor.organizationId }, select: itemSelect });
  if (!row) throw notFound("webhook");
  return row;
}

export async function listWebhooks(actor: Actor) {
  requireAdmin(actor);
  const rows = await db.webhook.findMany({
    where: { organizationId: actor.organizationId },
    select: itemSelect,
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return { webhooks: rows.map(present) };
}

/** How many forms the webhooks page offers to choose from, by title. */
const FORM_CHOICES = 500;

/** The forms a webhook of the caller's organization can name, for the page's choice. */
export async function webhookFormChoices(actor: Actor) {
  requireAdmin(actor);
  return db.form.findMany({
    where: { organizationId: actor.organizationId, deletedAt: null },
    select: { id: true, title: true },
    orderBy: [{ title: "asc" }, { id: "asc" }],
    take: FORM_CHOICES,
  });
}

export async function getWebhook(actor: Actor, id: string) {
  return present(await findWebhook(actor, id));
}

export async function createWebhook(actor: Actor, input: CreateWebhookInput) {
  requireAdmin(actor);
  assertAllowedUrl(input.url);
  await assertOrganizationForms(actor, input.formIds);
  const secret = newSecret();
  // Counted and written in one serializable transaction: two creates at once cannot both be the 10th.
  const row = await serializable(async (tx) => {
    if ((await tx.webhook.count({ where: { organizationId: actor.organizationId } })) >= WEBHOOKS_PER_ORGANIZATION) throw webhookLimit();
    const created = await tx.webhook.create({
      data: {
        organizationId: actor.organizationId,
        createdById: actor.userId,
        url: input.url,
        events: input.events,
        formIds: input.formIds ?? [],
        secret: encryptSecret(secret),
      },
      select: itemSelect,
    });
    await recordAudit(tx, { by: actor, action: "webhook.created", targetId: created.id, details: { events: input.events, forms: input.formIds?.length ?? 0 } });
    return created;
  });
  return { ...present(row), secret };
}

export async function updateWebhook(actor: Actor, id: string, input: UpdateWebhookInput) {
  const existing = await findWebhook(actor, id);
  if (input.url) assertAllowedUrl(input.url);
  await assertOrganizationForms(actor, input.formIds, existing.formIds as string[]);
  const row = await db.$transaction(async (tx) => {
    const updated = await tx.webhook.update({
      where: { id },
      data: {
        ...(input.url ? { url: input.url } : {}),
        ...(input.events ? { events: input.events } : {}),
        ...(input.formIds ? { formIds: input.formIds } : {}),
      },
      select: itemSelect,
    });
    await recordUpdate(tx, actor, "webhook.updated", { id }, input);
    return updated;
  });
  return present(row);
}

/** Gone with its deliveries; deliveries still queued find nothing to send. */
export async function deleteWebhook(actor: Actor, id: string) {
  await findWebhook(actor, id);
  await db.$transaction(async (tx) => {
    // deleteMany: a removal at the same moment (another tab) is no error, and recorded by that one.
    const { count } = await tx.webhook.deleteMany({ where: { id } });
    if (count > 0) await recordAudit(tx, { by: actor, action: "webhook.deleted", targetId: id });
  });
  return { id };
}

const deliverySelect = {
  id: true,
  event: true,
  status: true,
  attempts: true,
  lastStatusCode: true,
  lastError: true,
  lastAttemptAt: true,
  deliveredAt: true,
  createdAt: true,
} as const;

export async function listDeliveries(actor: Actor, id: string) {
  await findWebhook(actor, id);
  const deliveries = await db.webhookDelivery.findMany({
    where: { webhookId: id },
    select: deliverySelect,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: DELIVERIES_LISTED,
  });
  return {
    deliveries: deliveries.map((delivery) => ({
      ...delivery,
      event: delivery.event as DeliveryType,
      status: delivery.status as "PENDING" | "SUCCEEDED" | "FAILED",
    })),
  };
}

/** "Send again": the same delivery (same id and body, so a receiver can tell it is one event), queued anew. */
export async function resendDelivery(actor: Actor, id: string, deliveryId: string) {
  await findWebhook(actor, id);
  const delivery = await db.webhookDelivery.findFirst({ where: { id: deliveryId, webhookId: id }, select: { id: true } });
  if (!delivery) throw notFound("delivery");
  await db.$transaction(async (tx) => {
    await tx.webhookDelivery.update({ where: { id: deliveryId }, data: { status: "PENDING", attempts: 0 } });
    await enqueueJobs(tx, [deliveryJob({ webhookId: id, organizationId: actor.organizationId }, deliveryId)]);
  });
  return { id: deliveryId, status: "PENDING" as const };
}

/** An endpoint that asked for an event, with its organization (whose share of the lanes its deliveries take). */
export type Subscriber = { webhookId: string; organizationId: string };

/**
 * The organization's endpoints that asked for `event`, read before the change's transaction: on
 * SQLite a transaction holds the only connection, so the hot writes (a submit) keep only their
 * own statements inside it, and none at all for webhooks when no endpoint wants the event (the
 * usual case). An endpoint added between this read and the commit misses that one event.
 * An event about a form (`formId`) goes to the endpoints that chose no forms or chose that one;
 * an event about a person is about no form and goes to every endpoint that asked for it (ADR 53).
 */
export async function webhookSubscribers(organizationId: string, event: PersonEvent): Promise<Subscriber[]>;
export async function webhookSubscribers(organizationId: string, event: FormEvent, formId: string): Promise<Subscriber[]>;
export async function webhookSubscribers(organizationId: string, event: WebhookEvent, formId?: string): Promise<Subscriber[]> {
  const webhooks = await db.webhook.findMany({ where: { organizationId }, select: { id: true, events: true, formIds: true } });
  const forForm = (formIds: string[]) => formId === undefined || formIds.length === 0 || formIds.includes(formId);
  return webhooks
    .filter((webhook) => (webhook.events as string[]).includes(event) && forForm(webhook.formIds as string[]))
    .map((webhook) => ({ webhookId: webhook.id, organizationId }));
}

/** A delivery's body: the same bytes for every attempt. */
const deliveryBody = <T extends DeliveryType>(type: T, timestamp: string, data: WebhookData<T>) => JSON.stringify({ type, timestamp, data });

/** The deliveries and jobs of one event per item of `data`, for each subscriber. */
function eventRows<E extends WebhookEvent>(subscribers: Subscriber[], event: E, data: readonly WebhookData<E>[]) {
  const timestamp = new Date().toISOString();
  const queued = data.flatMap((item) => {
    const payload = deliveryBody(event, timestamp, item);
    return subscribers.map((subscriber) => ({ subscriber, delivery: { id: newId(), webhookId: subscriber.webhookId, event, payload } }));
  });
  return { deliveries: queued.map(({ delivery }) => delivery), jobs: queued.map(({ subscriber, delivery }) => deliveryJob(subscriber, delivery.id)) };
}

/**
 * The job that sends a delivery: one endpoint's deliveries are sent one at a time (ADR 30, lanes),
 * and one organization's take at most GROUP_RUNS lanes at once (ADR 44).
 */
function deliveryJob(subscriber: Subscriber, deliveryId: string): NewJob {
  return {
    kind: "webhook",
    payload: { deliveryId },
    concurrencyKey: `webhook:${subscriber.webhookId}`,
    groupKey: `organization:${subscriber.organizationId}`,
  };
}

/** Queues `event` for `subscribers` in the caller's interactive transaction: the deliveries exist exactly when the change does. */
export async function emitWebhookEvent<E extends WebhookEvent>(tx: Prisma.TransactionClient, subscribers: Subscriber[], event: E, data: WebhookData<E>) {
  await emitWebhookEvents(tx, subscribers, event, [data]);
}

/** One event per item of `data` (the people an import created, the links a bulk assignment made), queued as emitWebhookEvent does, in two statements. */
export async function emitWebhookEvents<E extends WebhookEvent>(
  tx: Prisma.TransactionClient,
  subscribers: Subscriber[],
  event: E,
  data: readonly WebhookData<E>[],
) {
  if (subscribers.length === 0 || data.length === 0) return;
  const rows = eventRows(subscribers, event, data);
  await tx.webhookDelivery.createMany({ data: rows.deliveries });
  await enqueueJobs(tx, rows.jobs);
}

/**
 * The writes that queue `event`, to run in one batch transaction with the change itself (`[]` when
 * no webhook wants it): a change that was one statement stays one short transaction, rather than
 * an interactive one holding SQLite's only connection while it awaits.
 */
export function webhookEventWrites<E extends WebhookEvent>(subscribers: Subscriber[], event: E, data: WebhookData<E>): Prisma.PrismaPromise<unknown>[] {
  if (subscribers.length === 0) return [];
  const rows = eventRows(subscribers, event, [data]);
  return [db.webhookDelivery.createMany({ data: rows.deliveries }), enqueueJobs(db, rows.jobs) as Prisma.PrismaPromise<unknown>];
}

/**
 * Removes the organization's deliveries whose body names one of `ids` (a person's records and
 * their submissions), in the transaction `tx` that erases the person (ADR 88): the log would keep
 * their name and record number, and one not sent yet would send them after the erasure. A
 * delivery's job that runs afterwards finds nothing to send and ends quietly.
 */
export async function forgetDeliveriesAbout(tx: Prisma.TransactionClient, organizationId: string, ids: readonly string[]): Promise<void> {
  // Ids are letters and digits, so `contains` matches them exactly; a few hundred per statement.
  for (let start = 0; start < ids.length; start += 200) {
    const chunk = ids.slice(start, start + 200);
    await tx.webhookDelivery.deleteMany({ where: { webhook: { organizationId }, OR: chunk.map((id) => ({ payload: { contains: `"${id}"` } })) } });
  }
}

/** What one attempt of a delivery came to: the endpoint's status (0: none) and why it failed (null: delivered). */
type Attempt = { sentAt: Date; status: number; error: string | null };

/**
 * One signed POST of a delivery to its endpoint. A 2xx answer is success; 410 Gone (the receiver
 * says the endpoint is no more, as Standard Webhooks has it) and any other status or failure (a
 * refused address, a timeout) are recorded as one of the generic reasons of DeliveryFailure: never
 * what a name resolved to, an address or a port.
 */
async function sendDelivery(delivery: { id: string; payload: string }, webhook: { url: string; secret: string }): Promise<Attempt> {
  const sentAt = new Date();
  const signature = new StandardWebhook(decryptSecret(webhook.secret)).sign(delivery.id, sentAt, delivery.payload);
  let status = 0;
  let error: string | null = null;
  try {
    ({ status } = await safePost(
      webhook.url,
      delivery.payload,
      {
        "content-type": "application/json",
        "user-agent": "assessment-service-webhooks",
        "webhook-id": delivery.id,
        "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
        "webhook-signature": signature,
      },
      { allowPrivate: env().WEBHOOK_ALLOW_PRIVATE_ADDRESSES, timeoutMs: DELIVERY_TIMEOUT_MS },
    ));
    if (status === 410) error = GONE;
    else if (status < 200 || status >= 300) error = `answered ${status}`;
  } catch (failure) {
    error = failure instanceof DeliveryFailure ? failure.reason : "connection failed";
  }
  return { sentAt, status, error };
}

/** The delivery's columns after `attempt`, its `attempts`-th; `last`: a failure is final. */
const attemptRecord = (attempt: Attempt, attempts: number, last: boolean) => ({
  attempts,
  lastAttemptAt: attempt.sentAt,
  lastStatusCode: attempt.status || null,
  lastError: attempt.error?.slice(0, 500) ?? null,
  status: attempt.error === null ? "SUCCEEDED" : last ? "FAILED" : "PENDING",
  ...(attempt.error === null ? { deliveredAt: new Date() } : {}),
});

/**
 * The job: sends one delivery, and records how it went. A failure is thrown, for the queue to try
 * again later, until the last try of its schedule (ADR 46), which marks it FAILED; a 410 Gone
 * fails it at once. A webhook removed while its delivery was under way took the delivery with
 * it: the attempt's outcome has nowhere to go, and the job ends quietly.
 */
export async function deliverWebhook(jobPayload: Prisma.JsonValue, run: JobRun) {
  const deliveryId = (jobPayload as { deliveryId?: string } | null)?.deliveryId;
  if (!deliveryId) return;
  const delivery = await db.webhookDelivery.findUnique({ where: { id: deliveryId }, include: { webhook: { select: { url: true, secret: true } } } });
  if (!delivery || delivery.status === "SUCCEEDED") return;
  const attempt = await sendDelivery(delivery, delivery.webhook);
  const gone = attempt.error === GONE;
  const { count } = await db.webhookDelivery.updateMany({
    where: { id: delivery.id },
    data: attemptRecord(attempt, delivery.attempts + 1, gone || run.lastAttempt),
  });
  if (count === 0) return;
  if (gone) throw new PermanentJobFailure(`webhook delivery ${delivery.id}: ${attempt.error}`);
  if (attempt.error !== null) throw new Error(`webhook delivery ${delivery.id}: ${attempt.error}`);
}

/**
 * "Send test" (POST /api/webhooks/:id/test): a `webhook.test` delivery sent at once, from this
 * request, signed and posted as every delivery is, then kept in the delivery log as its one and
 * only attempt (a failure is not retried; "send again" queues it like any other). It is recorded
 * after the attempt, so no test is ever left waiting; a webhook removed meanwhile keeps no log,
 * and the answer still says what the endpoint did.
 */
export async function testWebhook(actor: Actor, id: string) {
  await findWebhook(actor, id);
  const webhook = await db.webhook.findUnique({ where: { id }, select: { url: true, secret: true } });
  // Removed by another request since.
  if (!webhook) throw notFound("webhook");
  const delivery = { id: newId(), payload: deliveryBody("webhook.test", new Date().toISOString(), { webhookId: id, requestedById: actor.userId }) };
  const attempt = await sendDelivery(delivery, webhook);
  try {
    await db.webhookDelivery.create({
      data: { ...delivery, webhookId: id, event: "webhook.test", createdAt: attempt.sentAt, ...attemptRecord(attempt, 1, true) },
      select: { id: true },
    });
  } catch (error) {
    // P2003: the webhook is gone (its foreign key); anything else is ours to report.
    if ((error as { code?: unknown } | null)?.code !== "P2003") throw error;
  }
  return { delivered: attempt.error === null, status: attempt.status || null, error: attempt.error, deliveryId: delivery.id };
}
