import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import PostalMime from "postal-mime";
import { createDatabase } from "../../app/lib/db.server.ts";

/**
 * The secrets a test run created that the server log must never hold: every public-link token and
 * session id in the database, and every token link and subject line the service e-mailed (the
 * subject of a second-factor message carries the code). Answers a line per leak.
 */
export async function secretsInLog(databaseUrl: string, log: string, smtpInbox: string): Promise<string[]> {
  const database = createDatabase(databaseUrl);
  try {
    const submissions = await database.submission.findMany({ select: { token: true } });
    const sessions = await database.session.findMany({ select: { id: true } });
    const secrets = [
      ...submissions.map((row) => ["public-link token", row.token] as const),
      ...sessions.map((row) => ["session id", row.id] as const),
      ...(await mailedSecrets(smtpInbox)),
    ];
    const leaks = secrets.filter(([, secret]) => secret.length >= 6 && log.includes(secret)).map(([kind, secret]) => `${kind}: ${secret.slice(0, 6)}…`);
    // Only API tokens' hashes are stored: any token-shaped text in the log is one that leaked.
    for (const match of log.matchAll(/\bas_[\w-]{43}\b/g)) leaks.push(`API token: ${match[0].slice(0, 8)}…`);
    return leaks;
  } finally {
    await database.$disconnect();
  }
}

async function mailedSecrets(inbox: string): Promise<(readonly [string, string])[]> {
  let files: string[];
  try {
    files = readdirSync(inbox).map((name) => path.join(inbox, name));
  } catch {
    return [];
  }
  const found: (readonly [string, string])[] = [];
  for (const file of files) {
    const mail = await PostalMime.parse(readFileSync(file));
    if (mail.subject && /\d{6}/.test(mail.subject)) found.push(["e-mail subject with a code", mail.subject]);
    for (const match of (mail.text ?? "").matchAll(/https?:\/\/\S+/g)) {
      const token = /(?:token=|\/test\/)([A-Za-z0-9_-]{16,})/.exec(match[0])?.[1];
      if (token) found.push(["e-mailed link token", token]);
    }
  }
  return found;
}
