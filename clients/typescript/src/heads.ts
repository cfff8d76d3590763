// The signed heads a client was served (docs/trust.md, "Signed heads"):
// kept as they arrive, one per game, sequence and chain head, and exported
// as a heads file (JSON lines, the format `cardroom heads compare` reads).
// Comparing heads files with someone else's catches a server that showed
// the two of you different histories, with proof.
import type { SignedHead } from "./gen/cardroom/v1/trust_pb.js";

/** At most this many heads are kept; the oldest go first. */
export const MAX_HEADS = 100_000;

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** One head as a line of a heads file (without its newline). */
export function headLine(head: SignedHead): string {
  // Keys in the order the Python client writes them; the sequence is a
  // JSON number (exact: sequences stay far below 2^53).
  return JSON.stringify({
    game_id: head.gameId,
    sequence: Number(head.sequence),
    chain_head: hex(head.chainHead),
    key_id: head.keyId,
    signature: hex(head.signature),
  });
}

export class HeadStore {
  private readonly kept = new Map<string, SignedHead>();

  constructor(private readonly maxHeads = MAX_HEADS) {}

  /** Keep a served head (undefined or unsigned: nothing to keep). */
  add(head: SignedHead | undefined): void {
    if (head === undefined || head.signature.length === 0) return;
    const slot = `${head.gameId}/${head.sequence}/${hex(head.chainHead)}`;
    if (this.kept.has(slot)) return;
    this.kept.set(slot, head);
    while (this.kept.size > this.maxHeads) {
      const oldest = this.kept.keys().next().value;
      if (oldest === undefined) break;
      this.kept.delete(oldest);
    }
  }

  get size(): number {
    return this.kept.size;
  }

  /**
   * The heads kept (of one game, or all), in each game's event order: a
   * view's head (GetView) may arrive before the feed's earlier ones.
   */
  heads(gameId?: string): SignedHead[] {
    return [...this.kept.values()]
      .filter((head) => gameId === undefined || head.gameId === gameId)
      .sort((a, b) => (a.gameId === b.gameId ? Number(a.sequence - b.sequence) : a.gameId < b.gameId ? -1 : 1));
  }

  /** The heads file: one JSON line per head. */
  toJsonLines(gameId?: string): string {
    return this.heads(gameId).map((head) => `${headLine(head)}\n`).join("");
  }
}
