import net from "node:net";

/**
 * HTTP/1.1 over a plain socket, for what fetch will not send: malformed request lines and headers,
 * a body that arrives slowly or never ends, a declared length that is a lie.
 */
export type RawResponse = { status: number; headers: Record<string, string>; body: string; closed: boolean };

export function parseResponse(raw: Buffer): RawResponse | null {
  const text = raw.toString("latin1");
  const end = text.indexOf("\r\n\r\n");
  if (end === -1) return null;
  const [statusLine = "", ...lines] = text.slice(0, end).split("\r\n");
  const status = Number(statusLine.split(" ")[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = raw.subarray(end + 4);
  if (headers["transfer-encoding"] === "chunked") body = dechunk(body);
  return { status, headers, body: body.toString("utf8"), closed: false };
}

/** The body of a chunked response (as much of it as has arrived). */
function dechunk(raw: Buffer): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = raw.indexOf("\r\n", offset);
    if (lineEnd === -1) break;
    const size = parseInt(raw.subarray(offset, lineEnd).toString("latin1"), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/** Whether a chunked response has arrived whole. */
const chunkedComplete = (raw: Buffer) => raw.includes("\r\n0\r\n\r\n");

/** An open request: write more of it, then wait for the answer. */
export type OpenRequest = {
  socket: net.Socket;
  write: (data: string | Buffer) => Promise<void>;
  /** The first response on the connection, once the server has sent its headers and closed or ended the body. */
  response: Promise<RawResponse>;
};

/**
 * Opens a connection and sends `head`. With `awaitContinue` the head carries
 * `Expect: 100-continue`, and this resolves only once the server has answered "100 Continue",
 * which it does when the request has reached the application: a sure sign it is in progress.
 */
export function openRequest(port: number, head: string | Buffer, options: { awaitContinue?: boolean } = {}): Promise<OpenRequest> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    let awaitingContinue = options.awaitContinue === true;
    const response = new Promise<RawResponse>((done) => {
      let settled = false;
      const settle = (closed: boolean) => {
        if (settled) return;
        const parsed = parseResponse(Buffer.concat(chunks));
        if (!parsed && !closed) return;
        const lengthHeader = parsed?.headers["content-length"];
        if (!closed && parsed && lengthHeader !== undefined && Buffer.byteLength(parsed.body) < Number(lengthHeader)) return;
        if (!closed && parsed && lengthHeader === undefined && !chunkedComplete(Buffer.concat(chunks))) return;
        settled = true;
        done(parsed ? { ...parsed, closed } : { status: 0, headers: {}, body: "", closed: true });
      };
      socket.on("data", (chunk) => {
        chunks.push(chunk);
        if (awaitingContinue) {
          const received = Buffer.concat(chunks);
          const end = received.indexOf("\r\n\r\n");
          if (end === -1) return;
          chunks.splice(0, chunks.length, received.subarray(end + 4));
          awaitingContinue = false;
          resolve(open);
        }
        settle(false);
      });
      socket.on("close", () => settle(true));
      socket.on("error", () => settle(true));
    });
    const open: OpenRequest = {
      socket,
      response,
      write: (data) =>
        new Promise<void>((done) => {
          if (socket.destroyed) return done();
          socket.write(data, () => done());
        }),
    };
    socket.once("connect", () => {
      socket.write(head, (error) => (error ? reject(error) : undefined));
      if (!options.awaitContinue) resolve(open);
    });
    socket.once("error", reject);
  });
}

/**
 * Starts a request that declares a body of `declared` bytes and sends it a megabyte at a time, as
 * a client does, until the server answers (or everything is sent). Answers the response and how
 * many bytes went out.
 */
export async function sendOversized(port: number, head: string, declared: number): Promise<{ response: RawResponse; sent: number }> {
  const request = await openRequest(port, head);
  const chunk = Buffer.alloc(1024 * 1024, "a");
  let answered = false;
  void request.response.then(() => (answered = true));
  let sent = 0;
  while (sent < declared && !answered && !request.socket.destroyed) {
    await request.write(chunk);
    sent += chunk.length;
    // Give the answer a turn to arrive, as a real client reads while it writes.
    await new Promise((resolve) => setImmediate(resolve));
  }
  const response = await request.response;
  request.socket.destroy();
  return { response, sent };
}

/** Sends `request` as it is and waits for the first answer (or the connection closing). */
export async function rawRequest(port: number, request: string | Buffer): Promise<RawResponse> {
  const open = await openRequest(port, request);
  const response = await open.response;
  open.socket.destroy();
  return response;
}
