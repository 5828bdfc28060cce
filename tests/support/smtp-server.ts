import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { SMTPServer } from "smtp-server";

/**
 * What a test may do to the loopback mail server: make it slow at a moment it chooses, and hear of
 * every recipient named and every message accepted (tests/operations/jobs-across-instances.test.ts).
 * A hold is a promise the server waits for before it answers: the test settles it when it has seen
 * what it wanted to see meanwhile, so nothing waits for a length of time.
 */
export type SmtpServerOptions = {
  /**
   * Called as a recipient is named (RCPT TO); while the promise it answers is pending the server
   * does not reply. The message has not been sent yet: a client that goes away meanwhile leaves
   * nothing behind, as with a real server that is slow to take a recipient.
   */
  holdRecipient?: (recipient: string) => Promise<void> | undefined;
  /**
   * Called once a message has arrived whole (after DATA's final dot); while the promise it answers
   * is pending the server does not say whether it took it, as a real server answering late. It
   * then keeps the message, even when the client has gone away in the meantime: a second copy
   * sent by someone else would be a second message in the inbox.
   */
  holdMessage?: (recipients: string[]) => Promise<void> | undefined;
  /** Each recipient named, before any hold. */
  onRecipient?: (recipient: string) => void;
  /** Each message kept, once it is in the inbox. */
  onMessage?: (recipients: string[]) => void;
};

/**
 * A real SMTP server on loopback for the test run. Every message the app sends is written to
 * `inbox` as an .eml file (named by arrival order) for the tests to read; recipients whose address
 * starts with "refused-" are refused for good (550), those starting "busy-" for now (451).
 */
export async function startSmtpServer(inbox: string, port = 0, options: SmtpServerOptions = {}): Promise<{ port: number; close: () => Promise<void> }> {
  mkdirSync(inbox, { recursive: true });
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    // Closing, it tells the clients still connected "421 shutting down" at once, as a mail server
    // that restarts does, rather than waiting 30 s for them to leave: the app keeps its connection
    // open between messages (ADR 82) and opens a new one for the next.
    closeTimeout: 1,
    // A mailbox that does not exist: addresses starting "refused-" are refused, as a real server
    // refuses an unknown recipient, for the tests of a message the mail server did not accept.
    onRcptTo(address, _session, callback) {
      // A mailbox over its limit, or greylisting: "busy-" addresses are refused for now (451).
      const recipient = address.address.toLowerCase();
      options.onRecipient?.(recipient);
      const answer = () => {
        if (recipient.startsWith("busy-")) return callback(Object.assign(new Error("Try again later"), { responseCode: 451 }));
        if (!recipient.startsWith("refused-")) return callback();
        const refusal = Object.assign(new Error("Mailbox unavailable"), { responseCode: 550 });
        return callback(refusal);
      };
      const hold = options.holdRecipient?.(recipient);
      if (hold) void hold.then(answer);
      else answer();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const recipients = session.envelope.rcptTo.map((r) => r.address).join(",");
        const addresses = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
        const keep = () => {
          const name = `${String(++count).padStart(6, "0")}-${Date.now()}.eml`;
          writeFileSync(path.join(inbox, name), Buffer.concat([Buffer.from(`X-Test-Recipients: ${recipients}\r\n`), ...chunks]));
          options.onMessage?.(addresses);
          callback();
        };
        const hold = options.holdMessage?.(addresses);
        if (hold) void hold.then(keep);
        else keep();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const listening = (server.server.address() as { port: number }).port;
  return { port: listening, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
