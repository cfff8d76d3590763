// The narration every frontend can use: events and commands in words, the
// actor by name and the cards as text, from what the viewer was sent.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { create, type Message } from "@bufbuild/protobuf";
import {
  describeAction,
  type EventEnvelope,
  EventEnvelopeSchema,
  GameCreatedSchema,
  GameFinished_Reason,
  GameFinishedSchema,
  NarratedEvent,
  Narrator,
  pack,
  playBots,
  SecretSchema,
  SeatTakenSchema,
  seededRandom,
} from "../src/index.js";
import {
  ActCardsSchema,
  ActPerformedSchema,
  CardSchema,
  HandDealtSchema,
  PerformActSchema,
  Pile,
  RoundDealtSchema,
} from "../src/gen/cardroom/smoke_and_mirrors/v1/smoke_and_mirrors_pb.js";
import { cardWord } from "../src/narration/smoke-and-mirrors.js";
import { clientFor, collect, startedGame } from "./support.js";

const stars3 = create(CardSchema, { pile: Pile.STARS, value: 3 });
const skullsMirror = create(CardSchema, { pile: Pile.SKULLS, value: 0 });

function envelope(sequence: number, event: Message, ...secrets: Message[]): EventEnvelope {
  return create(EventEnvelopeSchema, {
    sequence: BigInt(sequence),
    event: pack(event),
    secrets: secrets.map((value) => create(SecretSchema, { value: pack(value) })),
  });
}

describe("narration without a server", () => {
  test("names each seat as it is taken and draws cards as words", () => {
    const narrator = new Narrator(new Map([["smoke-and-mirrors", "Smoke & Mirrors"]]));
    const told = [
      envelope(1, create(GameCreatedSchema, { kind: "smoke-and-mirrors", seatCount: 2 })),
      envelope(2, create(SeatTakenSchema, { seat: 0, playerName: "Ada" })),
      envelope(3, create(SeatTakenSchema, { seat: 1, playerName: "Bo" })),
      envelope(
        4,
        create(RoundDealtSchema, { round: 1, startSeat: 1, seats: [0, 1] }),
        create(HandDealtSchema, { seat: 0, cards: [stars3, skullsMirror] }),
      ),
      envelope(5, create(ActPerformedSchema, { seat: 1, claim: 1, cardCount: 1 })),
      envelope(6, create(GameFinishedSchema, { winners: [0] })),
    ].map((e) => narrator.tell(e));
    assert.deepEqual(
      told.map((e) => String(e)),
      [
        "A game of Smoke & Mirrors for 2 players is created.",
        "Ada takes seat 1.",
        "Bo takes seat 2.",
        "Round 1: the cards are dealt to Ada and Bo; Bo starts.\nAda holds Stars 3 and Skulls mirror.",
        "Bo performs an act of 1 card, claiming 1.",
        "The game is over: Ada won.",
      ],
    );
    assert.deepEqual(told[3]!.secrets, ["Ada holds Stars 3 and Skulls mirror."]);
    assert.equal(told[4]!.sequence, 5n);
  });

  test("tells an open game nobody started as closed unplayed (T-ABSENT)", () => {
    const closed = create(GameFinishedSchema, { reason: GameFinished_Reason.NEVER_STARTED });
    assert.equal(new Narrator().tell(envelope(3, closed)).text, "Nobody started the game for too long: it is closed, unplayed and unrated.");
  });

  test("tells a command as a choice, and a message it has no words for by its name", () => {
    assert.equal(cardWord(skullsMirror), "Skulls mirror");
    assert.equal(describeAction(create(PerformActSchema, { cards: [stars3] }), ["Ada"]), "Act: Stars 3");
    const unknown = new Narrator().tell(envelope(1, create(CardSchema, { pile: Pile.SWIRLS, value: 2 })));
    assert.equal(unknown.text, 'Card {"pile":"PILE_SWIRLS","value":2}');
    assert.ok(unknown instanceof NarratedEvent);
  });
});

describe("client.story", () => {
  test("a seat reads its own cards in words, a spectator the same game without them", async () => {
    const client = clientFor("grpc");
    const table = await startedGame(client, "smoke-and-mirrors", 3);
    const seat = collect(client.story(table.gameId, { token: table.tokens[0] }));
    const spectator = collect(client.story(table.gameId));
    await playBots(client, table.gameId, table.tokens, seededRandom(17));
    const [mine, public_] = [await seat, await spectator];

    const final = await client.view(table.gameId);
    assert.deepEqual(
      mine.map((e) => e.sequence),
      Array.from({ length: Number(final.version) }, (_, i) => BigInt(i + 1)),
    );
    assert.equal(public_.length, mine.length);
    // The server's words (WatchEventsRequest.narrate), the terminal's: the
    // seat's own cards drawn ([★3]), a spectator's feed without them.
    const said = mine.map(String).join("\n");
    assert.match(said, /^\s*Ada holds \[[★@☠][1-5M]\]/m);
    assert.match(said, /^Ada performs an act of \d cards?, claiming \d+\. \(\[/m);
    const heard = public_.map(String).join("\n");
    assert.doesNotMatch(heard, /\[[★@☠][1-5M]\]/);
    assert.match(heard, /^(Ada|Brahmagupta|Cardano) performs an act of \d cards?, claiming \d+\.$/m);
    assert.match(heard, /^A game of Smoke & Mirrors for 3 players is set up\.$/m);
    assert.match(String(public_.at(-1)), /^Game over: (Ada|Brahmagupta|Cardano) wins\.$/);
    // Nothing left as a field or a message's JSON.
    assert.doesNotMatch(heard + said, /undefined|\{/);
  });

  test("after a cursor: only the later events, every seat still named", async () => {
    const client = clientFor("connect");
    const table = await startedGame(client, "smiles-and-daggers", 3);
    await playBots(client, table.gameId, table.tokens, seededRandom(4));
    const told = await collect(client.story(table.gameId, { afterSequence: 10n }));
    assert.equal(told[0]!.sequence, 11n);
    assert.doesNotMatch(told.map(String).join("\n"), /undefined|\{/);
    assert.match(String(told.at(-1)), /(wins|share the win)\.$/);
  });

  test("of every kind the server plays: every event in words, none by its message's name", async () => {
    const client = clientFor("grpc");
    for (const kind of await client.gameKinds()) {
      const table = await startedGame(client, kind.kind, Math.min(3, kind.maxSeats));
      const seat = collect(client.story(table.gameId, { token: table.tokens[0] }));
      const spectator = collect(client.story(table.gameId));
      await playBots(client, table.gameId, table.tokens, seededRandom(kind.kind.length));
      const all = [...(await seat), ...(await spectator)];
      for (const told of all) {
        assert.ok(told.lines.every((line) => line !== "" && !/\{|undefined/.test(line)), `${kind.kind}: ${String(told)}`);
      }
      // Only what nobody reads (credentials, commitments) has no words.
      assert.ok(all.filter((told) => told.lines.length > 0).length > all.length / 2, kind.kind);
    }
  });
});
