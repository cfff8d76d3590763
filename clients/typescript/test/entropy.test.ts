// Seat entropy (T-ENTROPY): the TypeScript client commits to 32 bytes of
// its own, reveals them once the game starts, and the full log at the end
// holds its commitment and its reveal; the commitment is the documented hash.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { chanceKey, checkEntropy, commitmentTo, create, newEntropy, playBots, ResignSchema, SeatEntropyRevealedSchema, SeatTakenSchema, seededRandom } from "../src/index.js";
import { anyUnpack } from "@bufbuild/protobuf/wkt";
import { clientFor } from "./support.js";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

describe("seat entropy", () => {
  test("the commitment is SHA-256 of the documented message (docs/trust.md's vector)", async () => {
    const entropy = Uint8Array.from({ length: 32 }, (_, i) => 32 + i);
    assert.equal(hex(await commitmentTo(entropy)), "6f5bfa31c64e28cc3d9527aa1a8d9f9a594eda534ff9deedda2794aceb380135");
    assert.notEqual(hex(newEntropy()), hex(newEntropy()));
  });

  test("the chance key is docs/trust.md's vector, and the seed itself without entropy", async () => {
    const seed = Uint8Array.from({ length: 32 }, (_, i) => i);
    const gameId = "00000000-0000-4000-8000-000000000000";
    const key = await chanceKey(seed, gameId, [[0, new Uint8Array(32).fill(0xa0)], [2, new Uint8Array(32).fill(0x5c)]]);
    assert.equal(hex(key), "e58e272bb365b59618778190b7d6637efd9f1ba9cbe05dce63aa0d8f07b08e0d");
    assert.equal(hex(await chanceKey(seed, gameId, [])), hex(seed));
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
    // What a browser checks at the end: all of it holds for each seat's own entropy...
    const feed = client.watch(gameId, { token: seats[1]!.token });
    const served = (await feed.next()).value!;
    await feed.return(undefined);
    const check = await checkEntropy(log, 1, entropies[1], served);
    assert.deepEqual(check.problems, []);
    assert.deepEqual([check.ownCommitment, check.ownReveal, check.seed, check.byServer], [true, true, true, false]);
    assert.deepEqual(check.matchingSeats, [0, 1, 2]);
    assert.equal(check.chanceKey?.length, 32);
    // ...and fails, by name, for entropy the seat did not send or a reveal changed in the log.
    assert.deepEqual((await checkEntropy(log, 1, newEntropy())).problems, [
      "your seat's commitment in the log is not SHA-256 of the entropy this browser kept",
      "the log does not reveal your entropy as you kept it",
    ]);
    const last = (e: (typeof log)[number]) => ({ ...e, event: { ...e.event!, value: e.event!.value.map((b, i, all) => (i === all.length - 1 ? b ^ 1 : b)) } });
    const third = log.find((e) => anyUnpack(e.event!, SeatEntropyRevealedSchema)?.seat === 2)!;
    const changed = log.map((e) => (e === third ? last(e) : e));
    assert.deepEqual((await checkEntropy(changed, 1, entropies[1])).problems, [
      `seat 3's entropy revealed by it does not match its commitment (event ${third.sequence})`,
    ]);
  });

  test("a seat that sent no commitment: the server's opening matches the commitment it recorded", async () => {
    const client = clientFor("connect");
    const gameId = await client.createGame("smoke-and-mirrors", { seatCount: 3 });
    const entropy = newEntropy();
    const seats = [await client.join(gameId, "P0", undefined, { entropy }), await client.join(gameId, "P1"), await client.join(gameId, "P2")];
    assert.deepEqual(seats.map((s) => s.entropyGeneratedByServer), [false, true, true]);
    await client.start(gameId, seats[0]!.token);
    await client.revealEntropy(gameId, seats[0]!.token, entropy);
    await playBots(client, gameId, seats.map((seat) => seat.token), seededRandom(5));
    const log = await client.audit(gameId, seats[1]!.token);
    const own = await checkEntropy(log, 0, entropy);
    assert.deepEqual([own.problems, own.matchingSeats, own.seed], [[], [0, 1, 2], true]);
    const drawn = await checkEntropy(log, 1);
    assert.deepEqual([drawn.problems, drawn.byServer, drawn.ownCommitment], [[], true, undefined]);
  });

  test("a seat that left before revealing took no part in the deal, and its own check says so, not that it failed", async () => {
    const client = clientFor("connect");
    const gameId = await client.createGame("smoke-and-mirrors", { seatCount: 3 });
    const entropies = [newEntropy(), newEntropy(), newEntropy()];
    const seats = [];
    for (const [i, entropy] of entropies.entries()) seats.push(await client.join(gameId, `P${i}`, undefined, { entropy }));
    await client.start(gameId, seats[0]!.token);
    await client.act(gameId, seats[0]!.token, create(ResignSchema));
    for (const i of [1, 2]) await client.revealEntropy(gameId, seats[i]!.token, entropies[i]!);
    await playBots(client, gameId, [seats[1]!.token, seats[2]!.token], seededRandom(9));
    const check = await checkEntropy(await client.audit(gameId, seats[1]!.token), 0, entropies[0]);
    assert.deepEqual([check.problems, check.ownCommitment, check.ownReveal, check.ownLeftUnrevealed, check.matchingSeats], [[], true, undefined, true, [1, 2]]);
  });
});
