import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { SMTPServer } from "smtp-server";

/**
 * A real SMTP server on loopback for the test run. Every message the app sends is written to
 * `inbox` as an .eml file (named by arrival order) for the tests to read; recipients whose address
 * starts with "refused-" are refused for good (550), those starting "busy-" for now (451).
 */
export async function startSmtpServer(inbox: string, port = 0): Promise<{ port: number; close: () => Promise<void> }> {
  mkdirSync(inbox, { recursive: true });
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    // A mailbox that does not exist: addresses starting "refused-" are refused, as a real server
    // refuses an unknown recipient, for the tests of a message the mail server did not accept.
    onRcptTo(address, _session, callback) {
      // A mailbox over its limit, or greylisting: "busy-" addresses are refused for now (451).
      const recipient = address.address.toLowerCase();
      if (recipient.startsWith("busy-")) return callback(Object.assign(new Error("Try again later"), { responseCode: 451 }));
      if (!recipient.startsWith("refused-")) return callback();
      const refusal = Object.assign(new Error("Mailbox unavailable"), { responseCode: 550 });
      return callback(refusal);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const recipients = session.envelope.rcptTo.map((r) => r.address).join(",");
        const name = `${String(++count).padStart(6, "0")}-${Date.now()}.eml`;
        writeFileSync(path.join(inbox, name), Buffer.concat([Buffer.from(`X-Test-Recipients: ${recipients}\r\n`), ...chunks]));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const listening = (server.server.address() as { port: number }).port;
  return { port: listening, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
