// Seat entropy (T-ENTROPY): the TypeScript client commits to 32 bytes of
// its own, reveals them once the game starts, and the full log at the end
// holds its commitment and its reveal; the commitment is the documented hash.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { commitmentTo, newEntropy, playBots, SeatEntropyRevealedSchema, SeatTakenSchema, seededRandom } from "../src/index.js";
import { anyUnpack } from "@bufbuild/protobuf/wkt";
import { clientFor } from "./support.js";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

describe("seat entropy", () => {
  test("the commitment is SHA-256 of the documented message (docs/trust.md's vector)", async () => {
    const entropy = Uint8Array.from({ length: 32 }, (_, i) => 32 + i);
    assert.equal(hex(await commitmentTo(entropy)), "6f5bfa31c64e28cc3d9527aa1a8d9f9a594eda534ff9deedda2794aceb380135");
    assert.notEqual(hex(newEntropy()), hex(newEntropy()));
  });

  test("every seat commits, reveals after the start, and the log holds both", async () => {
    const client = clientFor("grpc-web");
    const gameId = await client.createGame("smoke-and-mirrors", { seatCount: 3 });
    const entropies = [newEntropy(), newEntropy(), newEntropy()];
    const seats = [];
    for (const [i, entropy] of entropies.entries()) seats.push(await client.join(gameId, `P${i}`, undefined, { entropy }));
    assert.ok(seats.every((seat) => !seat.entropyGeneratedByServer));
    await client.start(gameId, seats[0]!.token);
    for (const [i, seat] of seats.entries()) await client.revealEntropy(gameId, seat.token, entropies[i]!);
    await playBots(client, gameId, seats.map((seat) => seat.token), seededRandom(3));
    const log = await client.audit(gameId, seats[0]!.token);
    const taken = log.map((e) => anyUnpack(e.event!, SeatTakenSchema)).filter((t) => t !== undefined);
    const revealed = log.map((e) => anyUnpack(e.event!, SeatEntropyRevealedSchema)).filter((r) => r !== undefined);
    for (const [i, entropy] of entropies.entries()) {
      assert.equal(hex(taken.find((t) => t.seat === i)!.entropyCommitment), hex(await commitmentTo(entropy)));
      assert.equal(hex(revealed.find((r) => r.seat === i)!.entropy), hex(entropy));
    }
  });
});
