// Seat entropy at the end of a game (T-ENTROPY, docs/trust.md sections 3
// and 15): what a client can check of the full log with WebCrypto alone,
// without the game's rules. Its own commitment and reveal, every seat's
// reveal against its commitment (the server's openings included), the
// opened seed against its commitment in event 1, and the chance key they
// give. Re-drawing every outcome from that key needs the rules: that is
// `cardroom audit` (the Python client's verify_deal does both).
import { toBinary } from "@bufbuild/protobuf";
import { type Any, AnySchema, anyUnpack } from "@bufbuild/protobuf/wkt";
import { commitmentTo } from "./client.js";
import { Actor_Kind, type EventEnvelope } from "./gen/cardroom/v1/envelope_pb.js";
import { GameStartedSchema, SeatEntropyRevealedSchema, SeatEntropySchema, SeatResignedSchema, SeatTakenSchema } from "./gen/cardroom/v1/table_pb.js";
import { ChanceSeedSchema } from "./gen/cardroom/v1/trust_pb.js";

const KEY_DOMAIN = new TextEncoder().encode("cardroom.v1.chance-key\0");

function equal(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

function u32be(n: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, n);
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** SHA-256(salt || serialized Any): a sealed secret's digest (docs/trust.md section 2). */
export async function secretDigest(salt: Uint8Array, value: Any): Promise<Uint8Array> {
  return new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", concat([salt, toBinary(AnySchema, value)])));
}

/**
 * The chance key (docs/trust.md, "Chance outcomes"): HMAC-SHA256 keyed by
 * the seed over the game id and every revealed seat's entropy, in seat
 * order; the seed itself when no seat has entropy (older games).
 */
export async function chanceKey(seed: Uint8Array, gameId: string, entropies: [number, Uint8Array][]): Promise<Uint8Array> {
  if (seed.length !== 32) throw new Error("a chance seed is 32 bytes");
  if (entropies.length === 0) return seed;
  const seats = entropies.map(([seat]) => seat);
  if (seats.some((seat, i) => i > 0 && seat <= seats[i - 1]!)) throw new Error("the entropies are one per seat, in increasing seat order");
  const id = new TextEncoder().encode(gameId);
  const parts = [KEY_DOMAIN, u32be(id.length), id, u32be(entropies.length)];
  for (const [seat, entropy] of entropies) {
    if (entropy.length !== 32) throw new Error(`seat ${seat}'s entropy is not 32 bytes`);
    parts.push(u32be(seat), entropy);
  }
  const key = await globalThis.crypto.subtle.importKey("raw", concat([seed]), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await globalThis.crypto.subtle.sign("HMAC", key, concat(parts)));
}

/** What `checkEntropy` found: each check that failed as a sentence, and what it computed. */
export interface EntropyCheck {
  /** Every check that failed, as a sentence; none: all passed. */
  problems: string[];
  /** The log says the server drew this seat's entropy (it sent no commitment). */
  byServer: boolean;
  /** This seat's commitment in the log is SHA-256 of the entropy it kept (undefined: none was kept). */
  ownCommitment?: boolean;
  /** The log reveals this seat's kept entropy, once (undefined: none was kept, or the seat left first). */
  ownReveal?: boolean;
  /** The seat left (resigned, timed out, removed) before it revealed: its entropy took no part in the deal. */
  ownLeftUnrevealed: boolean;
  /** Seats whose revealed entropy (theirs, or the server's opening) matches their commitment. */
  matchingSeats: number[];
  /** The opened seed matches its commitment in event 1 (as `served`, when given). */
  seed: boolean;
  /** HMAC-SHA256 of the opened seed over the game id and every reveal; undefined if it cannot be computed. */
  chanceKey?: Uint8Array;
}

/**
 * Check a finished game's full log (`CardroomClient.audit`) for `seat`,
 * which kept `entropy` (undefined: it kept none, or the server drew it).
 * `served`: event 1 as the client was served it during play, whose seed
 * commitment the opened seed must match.
 */
export async function checkEntropy(log: EventEnvelope[], seat: number, entropy?: Uint8Array, served?: EventEnvelope): Promise<EntropyCheck> {
  const problems: string[] = [];
  const bySequence = new Map(log.map((e) => [e.sequence, e]));
  const commitments = new Map<number, { commitment: Uint8Array; byServer: boolean }>();
  const revealed = new Map<number, { entropy: Uint8Array; sequence: bigint }>();
  const matching = new Set<number>();
  const left = new Set<number>();
  const reveal = async (who: number, value: Uint8Array, sequence: bigint, by: string) => {
    const committed = commitments.get(who);
    if (revealed.has(who)) problems.push(`seat ${who + 1}'s entropy is revealed twice (event ${sequence})`);
    else revealed.set(who, { entropy: value, sequence });
    if (committed === undefined) problems.push(`seat ${who + 1} reveals entropy it never committed to (event ${sequence})`);
    else if (value.length !== 32 || !equal(await commitmentTo(value), committed.commitment)) {
      problems.push(`seat ${who + 1}'s entropy revealed ${by} does not match its commitment (event ${sequence})`);
    } else matching.add(who);
  };
  let firstChance: bigint | undefined;
  for (const envelope of log) {
    if (envelope.event === undefined) continue;
    if (firstChance === undefined && envelope.command?.actor?.kind === Actor_Kind.DEALER) firstChance = envelope.sequence;
    const taken = anyUnpack(envelope.event, SeatTakenSchema);
    if (taken) commitments.set(taken.seat, { commitment: taken.entropyCommitment, byServer: taken.entropyByServer });
    const resigned = anyUnpack(envelope.event, SeatResignedSchema);
    if (resigned && !revealed.has(resigned.seat)) left.add(resigned.seat);
    const shown = anyUnpack(envelope.event, SeatEntropyRevealedSchema);
    if (shown) await reveal(shown.seat, shown.entropy, envelope.sequence, "by it");
    if (anyUnpack(envelope.event, GameStartedSchema)) {
      // The server opens the entropy it drew: each opening is of a SeatEntropy secret of a SeatTaken.
      for (const opening of envelope.openings) {
        const sealed = bySequence.get(opening.sequence)?.secrets[opening.index];
        const value = opening.value && anyUnpack(opening.value, SeatEntropySchema);
        if (!value || !sealed || !opening.value) continue;
        if (!equal(await secretDigest(opening.salt, opening.value), sealed.digest)) {
          problems.push(`the server's opening of seat ${value.seat + 1}'s entropy is not what event ${opening.sequence} committed to`);
          continue;
        }
        await reveal(value.seat, value.entropy, envelope.sequence, "by the server");
      }
    }
  }
  for (const [who, { sequence }] of revealed) {
    if (firstChance !== undefined && sequence > firstChance) problems.push(`seat ${who + 1}'s entropy is revealed after the first chance outcome (event ${firstChance})`);
  }
  const own = commitments.get(seat);
  if (own === undefined) problems.push(`the log does not seat you (seat ${seat + 1})`);
  const byServer = own?.byServer ?? false;
  let ownCommitment: boolean | undefined;
  let ownReveal: boolean | undefined;
  const mine = revealed.get(seat);
  const ownLeftUnrevealed = mine === undefined && left.has(seat);
  if (entropy !== undefined && own !== undefined) {
    ownCommitment = !byServer && equal(own.commitment, await commitmentTo(entropy));
    if (!ownCommitment) problems.push("your seat's commitment in the log is not SHA-256 of the entropy this browser kept");
    if (!ownLeftUnrevealed) {
      ownReveal = mine !== undefined && equal(mine.entropy, entropy);
      if (!ownReveal) problems.push("the log does not reveal your entropy as you kept it");
    }
  }
  // The seed: a ChanceSeed secret of event 1, checked against the digest every viewer was served.
  let seed: Uint8Array | undefined;
  const first = log[0];
  const index = first?.secrets.findIndex((s) => s.value !== undefined && anyUnpack(s.value, ChanceSeedSchema) !== undefined) ?? -1;
  const sealed = index >= 0 ? first!.secrets[index]! : undefined;
  if (sealed?.value === undefined) problems.push("the log does not open the seed");
  else if (!equal(await secretDigest(sealed.salt, sealed.value), sealed.digest)) problems.push("the opened seed does not match its commitment in event 1");
  else if (served !== undefined && !equal(served.secrets[index]?.digest ?? new Uint8Array(), sealed.digest)) {
    problems.push("the seed's commitment in the log is not the one this client was served in event 1");
  } else seed = anyUnpack(sealed.value, ChanceSeedSchema)!.seed;
  let key: Uint8Array | undefined;
  if (seed !== undefined && first !== undefined) {
    const entropies = [...revealed].sort(([a], [b]) => a - b).map(([who, r]): [number, Uint8Array] => [who, r.entropy]);
    try {
      key = await chanceKey(seed, first.gameId, entropies);
    } catch (error) {
      problems.push(`the chance key cannot be computed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { problems, byServer, ownCommitment, ownReveal, ownLeftUnrevealed, matchingSeats: [...matching].sort((a, b) => a - b), seed: seed !== undefined, chanceKey: key };
}
