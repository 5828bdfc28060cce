import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import PostalMime from "postal-mime";
import { inject } from "vitest";
import { waitFor } from "./wait.ts";

export type ReceivedMail = { to: string[]; subject: string; text: string; html: string; file: string };

async function read(file: string): Promise<ReceivedMail> {
  const raw = readFileSync(file);
  const parsed = await PostalMime.parse(raw);
  const recipients = /^X-Test-Recipients: (.*)$/m.exec(raw.toString("utf8"))?.[1] ?? "";
  return {
    to: recipients.split(",").filter(Boolean),
    subject: parsed.subject ?? "",
    text: parsed.text ?? "",
    html: parsed.html ?? "",
    file,
  };
}

/** Every message the test SMTP server has received for `to`, oldest first. */
export async function mailTo(to: string): Promise<ReceivedMail[]> {
  const inbox = inject("smtpInbox");
  const files = readdirSync(inbox)
    .sort()
    .map((name) => path.join(inbox, name));
  const mails = await Promise.all(files.map(read));
  return mails.filter((mail) => mail.to.includes(to.toLowerCase()));
}

/** Waits (up to 10 s) for a new message to `to` beyond the `seen` count, and answers it. */
export async function waitForMail(to: string, seen = 0): Promise<ReceivedMail> {
  const mails = await waitFor(
    () => mailTo(to),
    (mails) => mails.length > seen,
    `an e-mail to ${to}`,
    { timeoutMs: 10_000 },
  );
  return mails[mails.length - 1]!;
}
