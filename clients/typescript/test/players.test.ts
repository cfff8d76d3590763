// Players from TypeScript (docs/trust.md section 16): a WebCrypto Ed25519
// key signs the seat, the server (Python's check) accepts it and records
// it in the public SeatTaken; a claim signed for another seat is refused.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  newPlayerKey,
  playerId,
  publicKeyBytes,
  type SeatTaken,
  signEntry,
  signSeat,
  TournamentFormat_Kind,
  unpack,
} from "../src/index.js";
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

  test("a player enters a tournament and withdraws with their key; an entry's signature is no withdrawal", async () => {
    const client = clientFor("connect");
    const { tournamentId, organizerToken } = await client.createTournament("smoke-and-mirrors", {
      tableSize: 3,
      rounds: 1,
      format: TournamentFormat_Kind.SWISS,
    });
    const keys = [await newPlayerKey(), await newPlayerKey(), await newPlayerKey(), await newPlayerKey()];
    for (const [i, key] of keys.entries()) assert.equal(await client.registerPlayer(tournamentId, key, `P${i}`), i + 1);
    const entry = await signEntry(keys[0]!, tournamentId, "P0");
    await assert.rejects(
      client.competition.withdrawPlayer({ tournamentId, publicKey: entry.publicKey, signature: entry.signature }),
      (error: Error) => /tournament-withdrawal/.test(error.message),
    );
    assert.equal(await client.withdrawPlayer(tournamentId, keys[0]!), 3);
    const noShow = await publicKeyBytes(keys[1]!);
    assert.equal(await client.withdrawPlayerAsOrganizer(tournamentId, noShow, organizerToken), 2);
    const { tournament } = await client.tournament(tournamentId);
    const withdrawn = tournament.withdrawn.map((key) => Array.from(key).join(","));
    assert.deepEqual(withdrawn.sort(), [Array.from(await publicKeyBytes(keys[0]!)).join(","), Array.from(noShow).join(",")].sort());
  });

  test("the leaderboard of a kind is served (empty before any rated game)", async () => {
    const client = clientFor("grpc-web");
    const board = await client.ratings("smile-life");
    assert.ok(Array.isArray(board));
  });
});
