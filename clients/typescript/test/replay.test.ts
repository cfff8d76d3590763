// Replay, export and the error classes, through the typed wrapper.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Code } from "@connectrpc/connect";
import {
  EventEnvelopeSchema,
  GameNotFound,
  GameRecordBodySchema,
  RuleBroken,
  Unauthenticated,
  pack,
  registry,
  schemaOf,
  unpack,
} from "../src/index.js";
import { create, equals, fromBinary, toBinary } from "@bufbuild/protobuf";
import { createPublicKey, verify } from "node:crypto";
import { clientFor, collect, finishedGame, startedGame } from "./support.js";

describe("a finished game", () => {
  test("replays step by step as a seat: each step the view after its event, the last the live view", async () => {
    const client = clientFor("connect");
    const table = await finishedGame(client, "smoke-and-mirrors", 3, 21);
    const token = table.tokens[1]!;
    const steps = await collect(client.replay(table.gameId, { token }));
    const live = await client.view(table.gameId, { token });
    assert.equal(BigInt(steps.length), live.version);
    steps.forEach((step, index) => {
      assert.equal(step.view.version, BigInt(index + 1));
      assert.equal(step.event.sequence, step.view.version);
    });
    assert.ok(equals(schemaOf(live.game.$typeName), steps.at(-1)!.view.game, live.game));
    const middle = live.version / 2n;
    const tail = await collect(client.replay(table.gameId, { token, fromVersion: middle }));
    assert.deepEqual(
      tail.map((s) => s.view.version),
      steps.slice(Number(middle) - 1).map((s) => s.view.version),
    );
    const atMiddle = await client.view(table.gameId, { token, version: middle });
    assert.ok(equals(schemaOf(atMiddle.game.$typeName), atMiddle.game, tail[0]!.view.game));
  });

  test("exports as a record holding its whole log, signed by the server's key", async () => {
    const client = clientFor("grpc-web");
    const table = await finishedGame(client, "smiles-and-daggers", 3, 8);
    const record = await client.exportRecord(table.gameId);
    const body = fromBinary(GameRecordBodySchema, record.body);
    const log = await client.audit(table.gameId);
    const key = await client.serverKey();
    assert.equal(body.gameId, table.gameId);
    const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
    const stored = log.map((e) => toBinary(EventEnvelopeSchema, { ...e, eventHash: new Uint8Array() }));
    assert.deepEqual(body.events.map(hex), stored.map(hex));
    assert.equal(hex(record.publicKey), hex(key.publicKey));
    const spki = Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), record.publicKey]);
    const publicKey = createPublicKey({ key: spki, format: "der", type: "spki" });
    const signed = Buffer.concat([Buffer.from("cardroom.v1.GameRecord\0"), record.body]);
    assert.ok(verify(null, signed, publicKey, record.signature));
  });
});

describe("the type registry", () => {
  test("knows every message type each game kind names, generated from protos/", async () => {
    const kinds = await clientFor("grpc").gameKinds();
    assert.ok(kinds.length >= 2);
    for (const kind of kinds) {
      for (const name of [kind.optionsType, kind.viewType, ...kind.commandTypes, ...kind.chanceTypes]) {
        assert.ok(registry.getMessage(name), `${kind.kind}: ${name}`);
        const message = create(schemaOf(name));
        assert.equal(unpack(pack(message)).$typeName, name);
      }
    }
  });
});

describe("errors", () => {
  test("come back as one class per status, with the server's message", async () => {
    const client = clientFor("connect");
    const table = await startedGame(client, "smoke-and-mirrors", 3);
    await assert.rejects(client.view("00000000-0000-4000-8000-000000000000"), GameNotFound);
    await assert.rejects(client.start(table.gameId, ""), Unauthenticated);
    const idle: string[] = [];
    for (const token of table.tokens) {
      if ((await client.legalActions(table.gameId, token)).length === 0) idle.push(token);
    }
    const [anyCommand] = await client.legalActions(table.gameId, table.tokens.find((t) => !idle.includes(t))!);
    await assert.rejects(client.act(table.gameId, idle[0]!, anyCommand!), (error: unknown) => {
      assert.ok(error instanceof RuleBroken);
      assert.equal(error.code, Code.FailedPrecondition);
      assert.match(error.details, /^rule [A-Z0-9-]+: /);
      return true;
    });
  });
});
