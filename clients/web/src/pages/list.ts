// The game list: every game on the server, newest first, with links to
// watch, replay or take a seat; new games, and bot games to watch.
import { GameStatus, playBots, seededRandom, type GameSummary } from "@cardroom/client";
import { client, gameKinds, seats } from "../api.js";
import { h } from "../dom.js";
import { errorLine } from "./common.js";

const BOT_NAMES = ["Ada", "Brahmagupta", "Cardano", "Dijkstra", "Euler", "Fermat"];

/** Bots play a new game in this tab, a move every `pauseMs`; returns its id. */
async function botGame(kind: string, seatCount: number): Promise<string> {
  const gameId = await client.createGame(kind, { seatCount });
  const tokens: string[] = [];
  for (let seat = 0; seat < seatCount; seat += 1) tokens.push((await client.join(gameId, BOT_NAMES[seat % BOT_NAMES.length]!)).token);
  await client.start(gameId, tokens[0]!);
  void playBots(client, gameId, tokens, seededRandom(Date.now()), { pauseMs: 600 });
  return gameId;
}

function row(game: GameSummary, title: string): HTMLElement {
  const state = game.finished ? "finished" : game.started ? "running" : "open";
  const links: (HTMLElement | string)[] = [];
  if (game.started) links.push(h("a", { href: `#/watch/${game.gameId}`, class: "watch" }, "watch"));
  if (game.finished) links.push(h("a", { href: `#/replay/${game.gameId}`, class: "replay" }, "replay"));
  if (seats.get(game.gameId) && !game.finished) links.push(h("a", { href: `#/play/${game.gameId}`, class: "play" }, "play your seat"));
  if (!game.started && game.seatsTaken < game.seatCount) {
    const name = h("input", { name: "player", placeholder: "your name", size: 10, required: true }) as HTMLInputElement;
    const join = async (event: Event) => {
      event.preventDefault();
      const seat = await client.join(game.gameId, name.value.trim());
      seats.set(game.gameId, seat.token);
      location.hash = `#/play/${game.gameId}`;
    };
    links.push(h("form", { class: "join", onsubmit: join }, name, h("button", { type: "submit" }, "take a seat")));
  }
  return h(
    "tr",
    { "data-game-id": game.gameId, "data-state": state },
    h("td", {}, title, " ", h("code", { title: game.gameId }, game.gameId.slice(0, 8))),
    h("td", {}, `${game.seatsTaken} of ${game.seatCount}`),
    h("td", {}, state),
    h("td", {}, String(game.version)),
    h("td", { class: "links" }, ...links.flatMap((link, i) => (i ? [" · ", link] : [link]))),
  );
}

export async function listPage(root: HTMLElement, signal: AbortSignal): Promise<void> {
  const kinds = await gameKinds();
  const kindSelect = h("select", { name: "kind" }, ...[...kinds.values()].map((k) => h("option", { value: k.kind }, k.title))) as HTMLSelectElement;
  const seatInput = h("input", { type: "number", name: "seats", value: 3, min: 1, max: 10 }) as HTMLInputElement;
  const problem = h("div");
  const body = h("tbody");
  const filter = h("select", { name: "status" }, h("option", { value: "0" }, "all games"), h("option", { value: String(GameStatus.OPEN) }, "open"), h("option", { value: String(GameStatus.RUNNING) }, "running"), h("option", { value: String(GameStatus.FINISHED) }, "finished")) as HTMLSelectElement;
  const refresh = async () => {
    const games = await client.listGames({ limit: 100, status: Number(filter.value) as GameStatus });
    body.replaceChildren(...games.map((game) => row(game, kinds.get(game.kind)?.title ?? game.kind)));
    if (!games.length) body.append(h("tr", {}, h("td", { colspan: 5 }, "No games yet: create one, or start a bot game to watch.")));
    root.dataset.games = String(games.length);
  };
  const guarded = (run: () => Promise<unknown>) => async (event: Event) => {
    event.preventDefault();
    problem.replaceChildren();
    try {
      await run();
    } catch (error) {
      problem.replaceChildren(errorLine(error));
    }
  };
  const seatsFor = () => {
    const kind = kinds.get(kindSelect.value)!;
    return Math.min(Math.max(Number(seatInput.value), kind.minSeats), kind.maxSeats);
  };
  filter.addEventListener("change", () => void refresh());
  root.append(
    h("h2", {}, "Games"),
    h(
      "form",
      { class: "new-game", onsubmit: guarded(async () => (await client.createGame(kindSelect.value, { seatCount: seatsFor() }), refresh())) },
      kindSelect,
      h("label", {}, " for ", seatInput, " players "),
      h("button", { type: "submit" }, "New game"),
      " ",
      h("button", { type: "button", class: "bots", onclick: guarded(async () => (location.hash = `#/watch/${await botGame(kindSelect.value, seatsFor())}`)) }, "Watch bots play one"),
    ),
    problem,
    h("p", {}, "Show ", filter),
    h("table", { class: "games" }, h("thead", {}, h("tr", {}, h("th", {}, "game"), h("th", {}, "players"), h("th", {}, "status"), h("th", {}, "events"), h("th", {}, ""))), body),
  );
  await refresh();
  root.dataset.state = "ready";
  const timer = setInterval(() => void refresh().catch(() => undefined), 3000);
  signal.addEventListener("abort", () => clearInterval(timer));
}
