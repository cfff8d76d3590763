// The server this page talks to: the origin that served it, unless the URL
// says ?server=http://HOST:PORT (that server must list this page's origin
// in --web-origins). ?protocol=grpc-web or connect-json picks the protocol.
// ?relay=http://HOST:PORT[,...] watches through `cardroom relay` browser
// ports (listing this page's origin in their --web-origins).
//
// Anyone can write a link with ?server= or ?relay=, so neither may make the
// page send a seat token to a host it did not come from (issue 34): a seat is
// kept for the server that issued it and only ever sent to that server, and
// relays named in the URL carry spectators' streams only (no credential); a
// seat watches its own feed from its server.
import { connectWeb, type WebProtocol } from "@cardroom/client/web";
import { type CardroomClient, type GameKind, newEntropy } from "@cardroom/client";

const params = new URLSearchParams(location.search);
const protocol = (params.get("protocol") ?? "connect") as WebProtocol;

const relays = (params.get("relay") ?? "").split(",").filter((url) => url !== "");

/** The server's origin ("http://host:port"), whatever path the URL adds. */
function originOf(url: string): string {
  try {
    return new URL(url, location.href).origin;
  } catch {
    return url;
  }
}

const server = params.get("server") ?? location.origin;

/** Every call but a spectator's watch: seat tokens go here, and only here. */
export const client: CardroomClient = connectWeb(server, protocol);

/** A spectator's watch (no token): through the relays, if the URL names any. */
export const spectating: CardroomClient = relays.length ? connectWeb(server, protocol, { relays }) : client;

let kinds: Promise<Map<string, GameKind>> | undefined;

/** The game kinds the server plays, by kind (asked once). */
export function gameKinds(): Promise<Map<string, GameKind>> {
  kinds ??= client.gameKinds().then((all) => new Map(all.map((k) => [k.kind, k])));
  return kinds;
}

/** A seat this browser holds: kept in localStorage, so it outlives the tab. */
export interface KeptSeat {
  gameId: string;
  token: string;
  name: string;
  seat: number;
  savedAt: number;
  /**
   * T-ENTROPY: the 32 bytes (hex) the seat committed to when this browser
   * took it, revealed once the game starts and checked at the end; absent
   * when the server drew them or this browser never held them.
   */
  entropy?: string;
}

/**
 * A seat's own entropy, to commit to when taking a seat (T-ENTROPY). None
 * where the page has no WebCrypto digest (a page served over plain HTTP from
 * another host is no secure context): the server then draws it.
 */
export function seatEntropy(): Uint8Array | undefined {
  return globalThis.isSecureContext && globalThis.crypto?.subtle ? newEntropy() : undefined;
}

export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function fromHex(text: string): Uint8Array | undefined {
  if (!/^([0-9a-f]{2})*$/.test(text)) return undefined;
  return Uint8Array.from(text.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}

/**
 * Where this browser keeps its seats: a seat on the server that served the
 * page under "cardroom.seat.ID" (as kept before servers were told apart),
 * one on any other server under "cardroom.seat.<origin>.ID", so a link naming
 * another ?server= finds none of them.
 */
const PREFIX = originOf(server) === location.origin ? "cardroom.seat." : `cardroom.seat.${originOf(server)}.`;
const ANY_SERVER = /^cardroom\.seat\.[a-z][a-z0-9+.-]*:\/\//;

function read(gameId: string): KeptSeat | undefined {
  const text = localStorage.getItem(PREFIX + gameId);
  if (text) {
    try {
      return JSON.parse(text) as KeptSeat;
    } catch {
      return undefined;
    }
  }
  // A seat kept by an older page, in this tab only.
  const token = sessionStorage.getItem(PREFIX + gameId);
  return token ? { gameId, token, name: "", seat: -1, savedAt: 0 } : undefined;
}

/** Seat tokens this browser holds, by game id (kept until cleared). */
export const seats = {
  get(gameId: string): string | undefined {
    return read(gameId)?.token;
  },
  kept(gameId: string): KeptSeat | undefined {
    return read(gameId);
  },
  /** The entropy the seat committed to, if this browser holds it. */
  entropy(gameId: string): Uint8Array | undefined {
    const text = read(gameId)?.entropy;
    return text ? fromHex(text) : undefined;
  },
  set(gameId: string, token: string, name = "", seat = -1, entropy?: Uint8Array): void {
    const seen = read(gameId);
    const same = seen?.token === token;
    const kept: KeptSeat = {
      gameId,
      token,
      name: name || (same ? seen.name : ""),
      seat: seat >= 0 ? seat : same ? seen.seat : -1,
      savedAt: Date.now(),
      entropy: entropy ? toHex(entropy) : same ? seen.entropy : undefined,
    };
    localStorage.setItem(PREFIX + gameId, JSON.stringify(kept));
  },
  /** Every kept seat, the latest first. */
  all(): KeptSeat[] {
    const found: KeptSeat[] = [];
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      if (!key?.startsWith(PREFIX) || (PREFIX === "cardroom.seat." && ANY_SERVER.test(key))) continue;
      const kept = read(key.slice(PREFIX.length));
      if (kept) found.push(kept);
    }
    return found.sort((a, b) => b.savedAt - a.savedAt);
  },
};

/** The page's own address for a route (#/play/ID, #/invite/ID/CODE): what a link shares. */
export function linkTo(hash: string): string {
  return `${location.origin}${location.pathname}${location.search}#${hash}`;
}
