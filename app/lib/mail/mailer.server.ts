import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import { env } from "../env.server.ts";

export type OutgoingMail = { to: string; subject: string; text: string; html?: string };

/**
 * Sends e-mail through SMTP_URL (required in production). Without it (development) each message is
 * written as an .eml file under the data folder, so codes and links can be picked up without a
 * mail server. The log names the file only: a subject or a body may carry a code or a link.
 */
let transport: Transporter | undefined;

/**
 * The SMTP client's timeouts (nodemailer's defaults wait up to 2 minutes to connect and 10 for each
 * reply): well below the job runner's MAX_RUN_MS, the longest a run's lease is renewed for (ADR
 * 46), so a slow mail server fails the attempt rather than outliving its lease and getting a
 * second copy from another instance.
 */
export const SMTP_TIMEOUTS = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 } as const;

/**
 * One pooled connection per sending lane (links and reminders; alerts about flagged results): a
 * connection per message spent most of a bulk send on TCP, TLS and the greeting (ADR 82). A
 * connection the server dropped fails that message's attempt, which the job queue tries again.
 */
function smtpTransport(url: string): Transporter {
  transport ??= nodemailer.createTransport({ url, pool: true, maxConnections: 2, ...SMTP_TIMEOUTS });
  return transport;
}

/**
 * A mail server's reply that refused a message: `permanent` for a 5xx reply (an unknown mailbox,
 * a message rejected), which trying again cannot change; a 4xx reply is temporary (RFC 5321 §4.2.1).
 * `reply` is the server's own text, shown to the teacher as given; null when no server answered
 * (refused connection, timeout), which is always temporary.
 */
export function mailRefusal(error: unknown): { permanent: boolean; reply: string | null } {
  const { responseCode, response } = (error ?? {}) as { responseCode?: unknown; response?: unknown };
  const code = typeof responseCode === "number" ? responseCode : null;
  const reply = typeof response === "string" && response.trim() ? response.trim().slice(0, 500) : code !== null ? String(code) : null;
  return { permanent: code !== null && code >= 500 && code < 600, reply };
}

export async function sendMail(mail: OutgoingMail): Promise<void> {
  const { SMTP_URL, MAIL_FROM, dataDir } = env();
  const message = { from: MAIL_FROM, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html };
  if (SMTP_URL) {
    await smtpTransport(SMTP_URL).sendMail(message);
    return;
  }
  const built = await nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" }).sendMail(message);
  const folder = path.join(dataDir, "mail");
  mkdirSync(folder, { recursive: true });
  const file = path.join(folder, `${new Date().toISOString().replaceAll(":", "-")}-${randomBytes(3).toString("hex")}.eml`);
  writeFileSync(file, built.message as Buffer);
  console.log(`[mail] no SMTP_URL: message written to ${path.relative(process.cwd(), file)}`);
}
