// The server this page talks to: the origin that served it, unless the URL
// says ?server=http://HOST:PORT (that server must list this page's origin
// in --web-origins). ?protocol=grpc-web or connect-json picks the protocol.
// ?relay=http://HOST:PORT[,...] watches through `cardroom relay` browser
// ports (listing this page's origin in their --web-origins) while every
// other call goes to the server.
import { connectWeb, type WebProtocol } from "@cardroom/client/web";
import type { CardroomClient, GameKind } from "@cardroom/client";

const params = new URLSearchParams(location.search);
const protocol = (params.get("protocol") ?? "connect") as WebProtocol;

const relays = (params.get("relay") ?? "").split(",").filter((url) => url !== "");

export const client: CardroomClient = connectWeb(params.get("server") ?? location.origin, protocol, {
  relays,
});

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
}

const PREFIX = "cardroom.seat.";

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
  set(gameId: string, token: string, name = "", seat = -1): void {
    const seen = read(gameId);
    const kept: KeptSeat = {
      gameId,
      token,
      name: name || (seen?.token === token ? seen.name : ""),
      seat: seat >= 0 ? seat : seen?.token === token ? seen.seat : -1,
      savedAt: Date.now(),
    };
    localStorage.setItem(PREFIX + gameId, JSON.stringify(kept));
  },
  /** Every kept seat, the latest first. */
  all(): KeptSeat[] {
    const found: KeptSeat[] = [];
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      if (!key?.startsWith(PREFIX)) continue;
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
