// Players (docs/trust.md section 16, T-PLAYER): an Ed25519 key pair the
// client holds, and its signature over the one seat it claims. WebCrypto
// alone: in a browser the private key can be non-extractable (kept as a
// CryptoKey in IndexedDB), so no script can read it out, only sign with it.
import { create } from "@bufbuild/protobuf";
import { type PlayerProof, PlayerProofSchema } from "./gen/cardroom/v1/table_pb.js";

const CLAIM_DOMAIN = new TextEncoder().encode("cardroom.v1.seat-claim\0");
const ENTRY_DOMAIN = new TextEncoder().encode("cardroom.v1.tournament-entry\0");
// Another domain than the entry's: a registration's signature never passes for a withdrawal.
const WITHDRAWAL_DOMAIN = new TextEncoder().encode("cardroom.v1.tournament-withdrawal\0");

function concat(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** A new player key pair; `extractable` false keeps the private key unreadable. */
export async function newPlayerKey(extractable = false): Promise<CryptoKeyPair> {
  return (await globalThis.crypto.subtle.generateKey({ name: "Ed25519" }, extractable, ["sign", "verify"])) as CryptoKeyPair;
}

/** The raw 32-byte public key (what SeatTaken records and ratings are kept by). */
export async function publicKeyBytes(key: CryptoKeyPair): Promise<Uint8Array> {
  return new Uint8Array(await globalThis.crypto.subtle.exportKey("raw", key.publicKey));
}

/** A player's id: lowercase hex of the first 16 bytes of SHA-256 of the public key. */
export async function playerId(publicKey: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", concat([publicKey])));
  return Array.from(digest.subarray(0, 16), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** "cardroom.v1.seat-claim" || 0x00 || game_id || 0x00 || u32be(seat) || entropy_commitment. */
export function seatClaim(gameId: string, seat: number, entropyCommitment: Uint8Array): Uint8Array<ArrayBuffer> {
  const seatBytes = new Uint8Array(4);
  new DataView(seatBytes.buffer).setUint32(0, seat);
  return concat([CLAIM_DOMAIN, new TextEncoder().encode(gameId), new Uint8Array([0]), seatBytes, entropyCommitment]);
}

/** The proof JoinGame / AcceptInvitation carry: this key claims this seat. */
export async function signSeat(
  key: CryptoKeyPair,
  gameId: string,
  seat: number,
  entropyCommitment: Uint8Array,
  displayName: string,
): Promise<PlayerProof> {
  const signature = await globalThis.crypto.subtle.sign({ name: "Ed25519" }, key.privateKey, seatClaim(gameId, seat, entropyCommitment));
  return create(PlayerProofSchema, {
    publicKey: await publicKeyBytes(key),
    signature: new Uint8Array(signature),
    displayName,
  });
}

/** "cardroom.v1.tournament-entry" || 0x00 || tournament_id: what a player signs to enter. */
export function tournamentEntry(tournamentId: string): Uint8Array<ArrayBuffer> {
  return concat([ENTRY_DOMAIN, new TextEncoder().encode(tournamentId)]);
}

/** The proof RegisterPlayer carries: this key enters this tournament. */
export async function signEntry(key: CryptoKeyPair, tournamentId: string, displayName: string): Promise<PlayerProof> {
  const signature = await globalThis.crypto.subtle.sign({ name: "Ed25519" }, key.privateKey, tournamentEntry(tournamentId));
  return create(PlayerProofSchema, { publicKey: await publicKeyBytes(key), signature: new Uint8Array(signature), displayName });
}

/** "cardroom.v1.tournament-withdrawal" || 0x00 || tournament_id: what a player signs to leave (TN-LEAVE). */
export function tournamentWithdrawal(tournamentId: string): Uint8Array<ArrayBuffer> {
  return concat([WITHDRAWAL_DOMAIN, new TextEncoder().encode(tournamentId)]);
}

/** The key and signature WithdrawPlayer carries: this key leaves this tournament. */
export async function signWithdrawal(key: CryptoKeyPair, tournamentId: string): Promise<{ publicKey: Uint8Array; signature: Uint8Array }> {
  const signature = await globalThis.crypto.subtle.sign({ name: "Ed25519" }, key.privateKey, tournamentWithdrawal(tournamentId));
  return { publicKey: await publicKeyBytes(key), signature: new Uint8Array(signature) };
}
