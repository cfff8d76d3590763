// Any event of any game in words, for whatever frontend shows it: the
// table's own events (cardroom.v1) here, each game's in its own module, and
// any kind this package does not know (one added to the server later) by
// its message's name and fields, so every event can be told.
import { isMessage, type Message, toJson } from "@bufbuild/protobuf";
import { type EventEnvelope, SecretOpeningSchema } from "../gen/cardroom/v1/envelope_pb.js";
import type { GameKind } from "../gen/cardroom/v1/game_service_pb.js";
import {
  GameCreatedSchema,
  GameFinishedSchema,
  GameFinished_Reason,
  GameStartedSchema,
  InvitationCredentialSchema,
  InvitationIssuedSchema,
  ResignSchema,
  SeatCredentialSchema,
  SeatResigned_Reason,
  SeatResignedSchema,
  SeatTakenSchema,
  SeatTimedOutSchema,
  SeatEntropyRevealedSchema,
  SeatEntropySchema,
  SetDealSchema,
} from "../gen/cardroom/v1/table_pb.js";
import { ChanceSeedSchema } from "../gen/cardroom/v1/trust_pb.js";
import { registry, schemaOf, typeNameOf, unpack } from "../registry.js";
import type { GameWords } from "./game.js";
import { silverDagger } from "./silver-dagger.js";
import { smileLife } from "./smile-life.js";
import { smilesAndDaggers } from "./smiles-and-daggers.js";
import { smokeAndMirrors } from "./smoke-and-mirrors.js";
import { listing, nameOf } from "./words.js";

export type { GameWords } from "./game.js";
export { enumWord, listing, nameOf } from "./words.js";

const KNOWN: GameWords[] = [smokeAndMirrors, smilesAndDaggers, silverDagger, smileLife];

function packageOf(typeName: string): string {
  return typeName.slice(0, typeName.lastIndexOf("."));
}

function short(typeName: string): string {
  return typeName.slice(typeName.lastIndexOf(".") + 1);
}

function json(message: Message): string {
  return JSON.stringify(toJson(schemaOf(message.$typeName), message, { registry }));
}

/** Any kind without its own words: a message by its name and fields. */
export const generic: GameWords = {
  package: "",
  narrate: (message) => `${short(message.$typeName)} ${json(message)}`,
  describeAction: (command) => `${short(command.$typeName)} ${json(command)}`,
};

/** The words of the game a message type belongs to (generic if unknown). */
export function wordsFor(typeName: string): GameWords {
  return KNOWN.find((words) => words.package === packageOf(typeName)) ?? generic;
}

/** One of a seat's legal actions as a choice, e.g. "Act: Stars 3 and Swirls 1". */
export function describeAction(command: Message, names: string[]): string {
  if (isMessage(command, ResignSchema)) return "Resign: leave the game (its default choices play your seat)";
  return wordsFor(command.$typeName).describeAction(command, names) ?? generic.describeAction(command, names)!;
}

function narrateTable(message: Message, names: string[], titles: Map<string, string>): string | undefined {
  if (isMessage(message, GameCreatedSchema)) {
    const title = titles.get(message.kind) ?? message.kind;
    return `A game of ${title} for ${message.seatCount} players is created${message.setDeal ? " (with a set deal)" : ""}.`;
  }
  if (isMessage(message, SeatTakenSchema)) return `${message.playerName || "Someone"} takes seat ${message.seat + 1}.`;
  if (isMessage(message, InvitationIssuedSchema)) return `Seat ${message.seat + 1} is held for an invited player.`;
  if (isMessage(message, GameStartedSchema)) return "The game begins.";
  if (isMessage(message, SeatResignedSchema)) {
    const how =
      message.reason === SeatResigned_Reason.REMOVED
        ? "is removed by the operator"
        : message.reason === SeatResigned_Reason.TIMED_OUT
          ? "timed out too many times in a row and leaves"
          : message.reason === SeatResigned_Reason.ABSENT
            ? "has been away too long and leaves"
            : "resigns";
    return `${nameOf(names, message.seat)} ${how}: the game makes their choices from now on.`;
  }
  if (isMessage(message, SeatTimedOutSchema)) return `${nameOf(names, message.seat)}'s time runs out: the game makes the choice.`;
  if (isMessage(message, SeatEntropyRevealedSchema)) return `${nameOf(names, message.seat)} reveals their share of the deal's randomness.`;
  if (isMessage(message, GameFinishedSchema)) {
    if (message.reason === GameFinished_Reason.NEVER_STARTED) return "Nobody started the game for too long: it is closed, unplayed and unrated.";
    const limit = message.reason === GameFinished_Reason.LENGTH_LIMIT ? " at the table's length limit" : "";
    return `The game is over${limit}: ${listing(message.winners.map((s) => nameOf(names, s))) || "nobody"} won.`;
  }
  // Credentials, the committed chance seed and set deal, and the trust
  // layer's openings of earlier secrets (told when the game's own event
  // reveals them): nothing a person reads.
  const silent = [SeatCredentialSchema, InvitationCredentialSchema, SetDealSchema, ChanceSeedSchema, SecretOpeningSchema, SeatEntropySchema];
  if (silent.some((schema) => isMessage(message, schema))) return "";
  return undefined;
}

function narrateOne(message: Message, names: string[], titles: Map<string, string>): string {
  return narrateTable(message, names, titles) ?? wordsFor(message.$typeName).narrate(message, names) ?? generic.narrate(message, names)!;
}

/**
 * An event in words: its public part, then each hidden part this viewer
 * may see. `names` (seat by seat) is updated by SeatTaken events as they
 * pass; `titles` names each kind ("smoke-and-mirrors" → "Smoke & Mirrors").
 */
export function narrate(envelope: EventEnvelope, names: string[], titles: Map<string, string>): { text: string; secrets: string[] } {
  if (envelope.event === undefined) return { text: "", secrets: [] };
  const event = unpack(envelope.event);
  if (isMessage(event, SeatTakenSchema)) names[event.seat] = event.playerName;
  const secrets = envelope.secrets
    .filter((secret) => secret.value !== undefined && registry.getMessage(typeNameOf(secret.value)))
    .map((secret) => narrateOne(unpack(secret.value!), names, titles))
    .filter((text) => text !== "");
  return { text: narrateOne(event, names, titles), secrets };
}

/**
 * One event of a viewer's feed and what a person reads of it: the server's
 * lines for it (`client.story`), the first its public part, then what only
 * this viewer saw.
 */
export class NarratedEvent {
  constructor(
    readonly envelope: EventEnvelope,
    /** Every line, e.g. "Ada performs an act of 2 cards, claiming 5." */
    readonly lines: string[],
  ) {}

  get sequence(): bigint {
    return this.envelope.sequence;
  }

  /** The first line ("" for an event nobody reads, such as a credential). */
  get text(): string {
    return this.lines[0] ?? "";
  }

  /** The lines after the first (what only this viewer saw). */
  get secrets(): string[] {
    return this.lines.slice(1);
  }

  /** Every line, one per line. */
  toString(): string {
    return this.lines.join("\n");
  }
}

/**
 * One viewer's feed told in order by this package's own words: a fallback
 * for a feed the server did not narrate (one watched through a relay, which
 * forwards copies only). The words every frontend shows are the server's
 * (`client.story`, WatchEventsRequest.narrate); these may differ from them.
 * It keeps the seats' names as they are taken. Feed it every envelope of
 * the feed from the first (GameCreated).
 */
export class Narrator {
  readonly names: string[] = [];
  private readonly titles: Map<string, string>;

  /** `kinds`: the server's game kinds (`client.gameKinds()`), for their titles. */
  constructor(kinds: Iterable<GameKind> | Map<string, string> = []) {
    this.titles = kinds instanceof Map ? kinds : new Map([...kinds].map((k) => [k.kind, k.title]));
  }

  tell(envelope: EventEnvelope): NarratedEvent {
    const { text, secrets } = narrate(envelope, this.names, this.titles);
    return new NarratedEvent(envelope, [text, ...secrets].filter((line) => line !== ""));
  }
}
