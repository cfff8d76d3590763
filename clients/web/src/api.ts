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

/** Seat tokens this tab holds, by game id (kept for this tab only). */
export const seats = {
  get(gameId: string): string | undefined {
    return sessionStorage.getItem(`cardroom.seat.${gameId}`) ?? undefined;
  },
  set(gameId: string, token: string): void {
    sessionStorage.setItem(`cardroom.seat.${gameId}`, token);
  },
};
