import { flagAlertJob } from "../flags/flag-alerts.server.ts";
import { remindJob, sendLinkJob } from "../submissions/delivery.server.ts";
import { deliverWebhook } from "../webhooks/webhooks.server.ts";
import { scheduleOccurrenceJob } from "../schedules/schedule-occurrences.server.ts";
import { retentionJob } from "../retention/retention.server.ts";
import { type JobHandler, type JobKind, startJobWorker } from "./jobs.server.ts";
import { env } from "~/lib/env.server.ts";

/** Every kind of job and what does it. */
export const JOB_HANDLERS: Record<JobKind, JobHandler> = {
  sendLink: sendLinkJob,
  remind: remindJob,
  flagAlert: flagAlertJob,
  webhook: deliverWebhook,
  schedule: scheduleOccurrenceJob,
  retention: retentionJob,
};

/**
 * The worker of this instance (server/main.ts starts it after listening); answers its stop, which
 * waits for the runs in progress up to a timeout and hands back the rest (ADR 46).
 */
export const startBackgroundJobs = () => {
  const { JOB_POLL_MS, JOB_LEASE_MS, JOB_HEARTBEAT_MS } = env();
  return startJobWorker(JOB_HANDLERS, JOB_POLL_MS, { leaseMs: JOB_LEASE_MS, heartbeatMs: JOB_HEARTBEAT_MS });
};
