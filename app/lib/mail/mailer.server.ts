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

function smtpTransport(url: string): Transporter {
  transport ??= nodemailer.createTransport(url);
  return transport;
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
