// Players from TypeScript (docs/trust.md section 16): a WebCrypto Ed25519
// key signs the seat, the server (Python's check) accepts it and records
// it in the public SeatTaken; a claim signed for another seat is refused.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { newPlayerKey, playerId, publicKeyBytes, type SeatTaken, signSeat, unpack } from "../src/index.js";
import { clientFor } from "./support.js";

describe("players", () => {
  test("a seat signed with a non-extractable WebCrypto key is recorded with its key", async () => {
    const client = clientFor("connect");
    const key = await newPlayerKey();
    const gameId = await client.createGame("smoke-and-mirrors", { seatCount: 3 });
    const seat = await client.join(gameId, "Ada", undefined, { player: key });
    assert.equal(seat.seat, 0);
    const events = [];
    const stop = new AbortController();
    try {
      for await (const event of client.watch(gameId, { signal: stop.signal })) {
        events.push(event);
        if (events.length === 2) stop.abort();
      }
    } catch (error) {
      if (!stop.signal.aborted) throw error;
    }
    const taken = unpack(events[1]!.event!) as SeatTaken;
    assert.deepEqual(Array.from(taken.player?.publicKey ?? []), Array.from(await publicKeyBytes(key)));
    assert.equal(taken.player?.displayName, "Ada");
    assert.equal((await playerId(await publicKeyBytes(key))).length, 32);
  });

  test("a claim signed for another seat is refused", async () => {
    const client = clientFor("grpc");
    const key = await newPlayerKey();
    const gameId = await client.createGame("smoke-and-mirrors", { seatCount: 3 });
    const wrong = await signSeat(key, gameId, 1, new Uint8Array(), "Ada");
    await assert.rejects(client.service.joinGame({ gameId, seat: 0, playerName: "Ada", player: wrong }), (error: Error) =>
      /player\.signature/.test(error.message),
    );
  });

  test("the leaderboard of a kind is served (empty before any rated game)", async () => {
    const client = clientFor("grpc-web");
    const board = await client.ratings("smile-life");
    assert.ok(Array.isArray(board));
  });
});
