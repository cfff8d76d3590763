// A spectator's feed survives a dropped connection: the client resumes from
// the last event it received, with no gap and no repeat.
import assert from "node:assert/strict";
import net from "node:net";
import { after, describe, test } from "node:test";
import { playBots, seededRandom, type CardroomError } from "../src/index.js";
import type { NodeProtocol } from "../src/node.js";
import { clientFor, servers, startedGame } from "./support.js";

/** A TCP proxy whose open connections can be cut, as a network would. */
async function proxy(target: string): Promise<{ url: string; cut: () => void; close: () => void }> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((downstream) => {
    const upstream = net.connect(Number(port), hostname);
    for (const socket of [downstream, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => undefined);
    }
    downstream.pipe(upstream).pipe(downstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    cut: () => sockets.forEach((socket) => socket.destroy()),
    close: () => server.close(),
  };
}

describe("watching with resume", () => {
  const proxies: Array<{ close: () => void }> = [];
  after(() => proxies.forEach((p) => p.close()));

  for (const protocol of ["grpc", "connect", "grpc-web"] as NodeProtocol[]) {
    test(`over ${protocol}: a feed cut mid-game resumes after its last event`, async () => {
      const direct = clientFor("grpc");
      const table = await startedGame(direct, "smoke-and-mirrors", 3);
      const link = await proxy(protocol === "grpc" ? servers.grpc : servers.web);
      proxies.push(link);
      const spectator = clientFor(protocol, link.url);
      const resumedFrom: bigint[] = [];
      const received: bigint[] = []; // the last sequence received when each resume began
      const sequences: bigint[] = [];
      let bots: Promise<number> | undefined;
      const feed = spectator.watch(table.gameId, {
        retryDelayMs: 20,
        onResume: (cursor: bigint, _error: CardroomError) => {
          resumedFrom.push(cursor);
          received.push(sequences.at(-1)!);
        },
      });
      for await (const event of feed) {
        sequences.push(event.sequence);
        if (sequences.length === 3) {
          link.cut(); // the game is still running: the stream was open
          bots = playBots(direct, table.gameId, table.tokens, seededRandom(3));
        }
      }
      await bots;
      const log = await direct.audit(table.gameId, table.tokens[0]);
      assert.equal(resumedFrom.length, 1);
      assert.deepEqual(resumedFrom, received);
      assert.deepEqual(
        sequences,
        log.map((e) => e.sequence),
      );
      // Every event received, across the resume, came with its signed
      // head: the chain head the event was served with.
      const heads = spectator.heads.heads(table.gameId);
      assert.deepEqual(
        heads.map((head) => head.sequence),
        sequences,
      );
      assert.deepEqual(
        heads.map((head) => Buffer.from(head.chainHead).toString("hex")),
        log.map((e) => Buffer.from(e.eventHash).toString("hex")),
      );
      const lines = spectator.heads.toJsonLines(table.gameId).trimEnd().split("\n");
      assert.equal(lines.length, sequences.length);
      assert.equal(JSON.parse(lines[0]!).sequence, 1);
    });
  }
});
