// Full games played by bots written in TypeScript, over every protocol a
// Node.js client can use, watched live by a spectator.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { playBots, seededRandom, typeNameOf } from "../src/index.js";
import { clientFor, collect, PROTOCOLS, startedGame } from "./support.js";

describe("a full game played by TypeScript bots", () => {
  for (const protocol of PROTOCOLS) {
    test(`over ${protocol}: a spectator sees every event live, and the game ends with a winner`, async () => {
      const client = clientFor(protocol);
      const table = await startedGame(client, "smoke-and-mirrors", 3);
      const spectator = collect(client.watch(table.gameId));
      const commands = await playBots(client, table.gameId, table.tokens, seededRandom(11));
      const seen = await spectator;
      const log = await client.audit(table.gameId, table.tokens[0]);
      const final = await client.view(table.gameId);
      assert.ok(commands > 0);
      assert.ok(final.table.finished);
      assert.ok(final.table.winners.length > 0);
      assert.deepEqual(
        seen.map((e) => e.sequence),
        log.map((e) => e.sequence),
      );
      assert.equal(typeNameOf(seen.at(-1)!.event!), "cardroom.v1.GameFinished");
      assert.equal(BigInt(log.length), final.version);
    });
  }

  test("of Smiles & Daggers over gRPC-Web, as a browser would play it", async () => {
    const client = clientFor("grpc-web");
    const table = await startedGame(client, "smiles-and-daggers", 4);
    await playBots(client, table.gameId, table.tokens, seededRandom(5));
    const view = await client.view(table.gameId, { token: table.tokens[2] });
    assert.ok(view.table.finished);
    assert.equal(view.game.$typeName, "cardroom.smiles_and_daggers.v1.View");
  });
});
