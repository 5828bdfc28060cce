import type http from "node:http";
import net from "node:net";

/**
 * Connections the kernel accepts for us while the event loop is busy. Node's default, 511, filled
 * within half a second at three times the sustainable rate: the kernel then dropped new
 * connections, and their clients retried after 1, 3, 7, 15 s. Linux caps it at
 * net.core.somaxconn (4096 since kernel 5.4).
 */
const LISTEN_BACKLOG = 4096;

/**
 * Listening sockets on the port. libuv accepts one connection per listening socket per turn of the
 * event loop, so while the loop is busy a surge of new connections waits in the backlog however
 * fast requests are answered (ADR 50). On Linux the port is bound by several sockets in one
 * SO_REUSEPORT group, each accepting its share, and what they accept is handed to the one HTTP
 * server (its documented "connection" event), so every connection is served and tracked alike.
 */
const ACCEPTORS = process.platform === "linux" ? 4 : 1;

export type Listening = {
  /**
   * Stops accepting connections on every socket and resolves once every connection has ended, as
   * `server.close` does for the connections the HTTP server accepted itself.
   */
  close: () => Promise<void>;
};

export async function listen(server: http.Server, port: number, host: string | undefined): Promise<Listening> {
  const acceptors = ACCEPTORS > 1 && (await portIsFree(port, host)) ? ACCEPTORS : 1;
  await listenOn(server, { port, host, backlog: LISTEN_BACKLOG, reusePort: acceptors > 1 });
  const boundPort = (server.address() as net.AddressInfo).port;
  const extra: net.Server[] = [];
  for (let i = 1; i < acceptors; i += 1) {
    // The socket options an HTTP server sets on what it accepts itself (noDelay is true there and
    // false for a plain net.Server): with Nagle's algorithm on, the second write of a streamed page
    // waited for the client's delayed ACK, 40 ms on Linux, on three connections out of four.
    const acceptor = net.createServer({ noDelay: true, keepAlive: false }, (socket) => server.emit("connection", socket));
    await listenOn(acceptor, { port: boundPort, host, backlog: LISTEN_BACKLOG, reusePort: true });
    extra.push(acceptor);
  }
  const closed = (one: net.Server) => new Promise<void>((resolve) => one.close(() => resolve()));
  return { close: async () => void (await Promise.all([server, ...extra].map(closed))) };
}

function listenOn(server: net.Server, options: net.ListenOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

/**
 * A port held by another process must still stop this one with EADDRINUSE: sockets that all set
 * SO_REUSEPORT would share the port with another instance of ours instead. So the port is bound
 * once the plain way first; a port in use is left to the real listen to report.
 */
function portIsFree(port: number, host: string | undefined): Promise<boolean> {
  if (port === 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once("error", () => resolve(false));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}
