import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { writeReadableStreamToWritable } from "@react-router/node";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { compressionWhenAccepted } from "../../server/compression.ts";

/**
 * The server's compression (server/compression.ts) in front of React Router's own way of writing
 * an answer (`writeReadableStreamToWritable`: a write and a flush per piece, waiting when told):
 * the pieces of one turn go out together, and a later piece goes out as soon as it is written.
 * Real HTTP on the loopback, real Brotli.
 */
const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A server answering with the stream `answer` makes, written as React Router writes it. */
async function serve(answer: () => ReadableStream<Uint8Array>): Promise<number> {
  const app = express();
  app.use(compressionWhenAccepted());
  app.get("/", (_req, res, next) => {
    res.setHeader("Content-Type", "text/html");
    writeReadableStreamToWritable(answer(), res).catch(next);
  });
  const server = http.createServer(app);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/** Asks for the answer in Brotli and hands over the response and its decompressed bytes as they come. */
function request(port: number): Promise<{ response: http.IncomingMessage; decoded: zlib.BrotliDecompress }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path: "/", headers: { "accept-encoding": "br" } }, (response) => {
        resolve({ response, decoded: response.pipe(zlib.createBrotliDecompress()) });
      })
      .on("error", reject);
  });
}

const collect = async (stream: NodeJS.ReadableStream) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

describe("compressing what React Router writes", () => {
  it("given a page written in 2 KB pieces in one go, should send it whole and in one compressed answer", async () => {
    const page = Buffer.from("<tr><td>Ada Lovelace</td><td>12</td></tr>".repeat(4000));
    const port = await serve(
      () =>
        new ReadableStream({
          start(controller) {
            for (let at = 0; at < page.length; at += 2048) controller.enqueue(page.subarray(at, at + 2048));
            controller.close();
          },
        }),
    );
    const { response, decoded } = await request(port);
    expect(response.headers["content-encoding"]).toBe("br");
    expect((await collect(decoded)).equals(page)).toBe(true);
  });

  it("given a part written later, should send what came before it at once, not with the end", async () => {
    let release = () => {};
    const later = new Promise<void>((resolve) => (release = resolve));
    const port = await serve(
      () =>
        new ReadableStream({
          async start(controller) {
            controller.enqueue(Buffer.from("<html><body>the shell"));
            controller.enqueue(Buffer.from(", still the shell"));
            await later;
            controller.enqueue(Buffer.from(" and the deferred part</body></html>"));
            controller.close();
          },
        }),
    );
    const { decoded } = await request(port);
    const first = await new Promise<Buffer>((resolve) => decoded.once("data", resolve));
    expect(first.toString()).toBe("<html><body>the shell, still the shell");
    release();
    expect((await collect(decoded)).toString()).toBe(" and the deferred part</body></html>");
  });
});
