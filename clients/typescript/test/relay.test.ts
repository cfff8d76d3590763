// Watching through relays (`cardroom relay`) while playing against the
// server: the feed a relay sends is the server's, over every protocol.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { playBots, seededRandom } from "../src/index.js";
import { connectNode, type NodeProtocol } from "../src/node.js";
import { clientFor, relays, servers, startedGame } from "./support.js";

describe("watching through a relay", () => {
  for (const protocol of ["grpc", "connect", "grpc-web"] as NodeProtocol[]) {
    test(`over ${protocol}: the relay's feed is the server's`, async () => {
      const direct = clientFor("grpc");
      const table = await startedGame(direct, "smoke-and-mirrors", 3);
      const relayUrl = protocol === "grpc" ? relays.grpc : relays.web;
      const serverUrl = protocol === "grpc" ? servers.grpc : servers.web;
      // Plays against the server, watches through the relay.
      const watcher = connectNode(serverUrl, protocol, { relays: [relayUrl] });
      try {
        const relayed: string[] = [];
        const feed = (async () => {
          for await (const event of watcher.watch(table.gameId, { token: table.tokens[1] })) {
            relayed.push(`${event.sequence}:${Buffer.from(event.eventHash).toString("hex")}`);
          }
        })();
        await playBots(direct, table.gameId, table.tokens, seededRandom(21));
        await feed;
        const served: string[] = [];
        for await (const event of direct.watch(table.gameId, { token: table.tokens[1] })) {
          served.push(`${event.sequence}:${Buffer.from(event.eventHash).toString("hex")}`);
        }
        assert.ok(served.length > 5);
        assert.deepEqual(relayed, served);
      } finally {
        watcher.close();
      }
    });
  }
});
