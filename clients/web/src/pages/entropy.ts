// The seat's share of the deal (T-ENTROPY, docs/trust.md sections 3 and
// 15), as the play page follows it: when the table awaits this seat's
// reveal (read from the seat's own feed, as the table decides it), and, at
// the end, what this browser could check of the full log, in words.
import {
  checkEntropy,
  commitmentTo,
  type EntropyCheck,
  type EventEnvelope,
  GameStartedSchema,
  isMessage,
  SeatEntropyRevealedSchema,
  SeatTakenSchema,
  unpack,
} from "@cardroom/client";
import { client, toHex } from "../api.js";

function equal(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

/** What the seat's feed says of entropy: each seat's commitment, who revealed, whether the game started. */
export class EntropyFeed {
  /** Event 1 as this page was served it: the seed's commitment the end is checked against. */
  first?: EventEnvelope;
  /** The last sequence the feed brought: what it knows is the game up to there. */
  seen = 0n;
  private readonly committed = new Map<number, Uint8Array>();
  private readonly served = new Map<number, Uint8Array>();
  private readonly revealed = new Set<number>();
  private started = false;

  add(envelope: EventEnvelope): void {
    if (envelope.sequence === 1n) this.first = envelope;
    if (envelope.sequence > this.seen) this.seen = envelope.sequence;
    if (envelope.event === undefined) return;
    const event = unpack(envelope.event);
    if (isMessage(event, SeatTakenSchema) && event.entropyCommitment.length) {
      this.served.set(event.seat, event.entropyCommitment);
      if (!event.entropyByServer) this.committed.set(event.seat, event.entropyCommitment);
    }
    if (isMessage(event, SeatEntropyRevealedSchema)) this.revealed.add(event.seat);
    if (isMessage(event, GameStartedSchema)) this.started = true;
  }

  /** The table awaits `seat`'s RevealEntropy: started, committed, not revealed, still playing (Table.entropy_due). */
  due(seat: number, resigned: number[]): boolean {
    return this.started && this.committed.has(seat) && !this.revealed.has(seat) && !resigned.includes(seat);
  }

  /** Each seat's commitment (its own or the server's) as this page was served it during play. */
  commitments(): Map<number, Uint8Array> {
    return new Map(this.served);
  }

  /** Whether `entropy` is what `seat` committed to (a reveal of anything else is refused). */
  async matches(seat: number, entropy: Uint8Array): Promise<boolean> {
    const commitment = this.committed.get(seat);
    return commitment !== undefined && equal(await commitmentTo(entropy), commitment);
  }
}

function seatList(seats: number[]): string {
  const named = seats.map((seat) => String(seat + 1));
  if (named.length <= 1) return `seat ${named.join("")}`;
  return `seats ${named.slice(0, -1).join(", ")} and ${named.at(-1)}`;
}

const AUDIT = "Re-drawing the deal itself from that key needs the game's rules: run `cardroom audit` on the game's record for that.";

/** The end-of-game sentence of what this browser checked of the deal's entropy, and what it did not. */
export function dealWords(check: EntropyCheck, kept: Uint8Array | undefined): string {
  if (check.problems.length) {
    return `Your deal's entropy is NOT verified: ${check.problems.join("; ")}.`;
  }
  const shared = [
    check.matchingSeats.length ? `every seat's reveal matches its commitment ✓ (${seatList(check.matchingSeats)})` : "no seat revealed entropy",
    "the opened seed matches its commitment in event 1 ✓",
  ];
  const key = check.chanceKey ? ` They give the chance key ${toHex(check.chanceKey).slice(0, 16)}… (HMAC-SHA256 of the seed over every reveal).` : "";
  if (check.byServer) {
    return `The server drew your seat's entropy (this browser sent no commitment): your part in the deal is the server's word (docs/trust.md, section 15). Checked here: ${shared.join(", ")}.${key} ${AUDIT}`;
  }
  if (check.ownLeftUnrevealed) {
    return `Your seat left before it revealed its entropy, so its entropy took no part in the deal (T-ENTROPY). Checked here: ${shared.join(", ")}.${key} ${AUDIT}`;
  }
  if (kept === undefined) {
    return `This browser no longer holds the entropy your seat committed to, so it cannot check your own commitment and reveal. Checked here: ${shared.join(", ")}.${key} ${AUDIT}`;
  }
  return `Your entropy is in the deal: commitment ✓, reveal ✓, ${shared.join(", ")}.${key} ${AUDIT}`;
}

/** The full log's check for this seat, in words (or why it could not be made). */
export async function checkDeal(gameId: string, token: string, seat: number, kept: Uint8Array | undefined, feed: EntropyFeed): Promise<{ words: string; verified: boolean }> {
  let log: EventEnvelope[];
  try {
    log = await client.audit(gameId, token);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { words: `The game's full log is not open to this seat (${why}), so this page cannot check the deal's entropy.`, verified: false };
  }
  const check = await checkEntropy(log, seat, kept, feed.first);
  // The commitments the full log holds are those this page was served when each seat was taken.
  const logged = new Map(
    log.map((e) => (e.event ? unpack(e.event) : undefined)).filter((e) => isMessage(e, SeatTakenSchema)).map((t) => [t.seat, t.entropyCommitment]),
  );
  for (const [other, served] of feed.commitments()) {
    const inLog = logged.get(other);
    if (inLog === undefined || !equal(inLog, served)) check.problems.push(`seat ${other + 1}'s commitment in the log is not the one this page was served during play`);
  }
  return { words: dealWords(check, kept), verified: check.problems.length === 0 };
}
