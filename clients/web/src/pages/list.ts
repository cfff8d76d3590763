// The game list: every game on the server, newest first, with links to
// watch, replay or take a seat; new games, and bot games to watch.
import { create, GameStatus, playBots, seededRandom, TableOptionsSchema, type GameSummary } from "@cardroom/client";
import { client, gameKinds, seatEntropy, seats } from "../api.js";
import { h } from "../dom.js";
import { playerKey } from "../player.js";
import { errorLine } from "./common.js";

const BOT_NAMES = ["Ada", "Brahmagupta", "Cardano", "Dijkstra", "Euler", "Fermat"];

/**
 * Bots play a new game in this tab, a move every 600 ms; returns its id.
 * Each bot commits to entropy of its own (T-ENTROPY) and reveals it once the
 * game starts, as a person's seat in this browser does; without WebCrypto
 * the server draws it.
 */
async function botGame(kind: string, seatCount: number): Promise<string> {
  const gameId = await client.createGame(kind, { seatCount });
  const seated: { token: string; entropy?: Uint8Array }[] = [];
  for (let seat = 0; seat < seatCount; seat += 1) {
    const entropy = seatEntropy();
    const { token } = await client.join(gameId, BOT_NAMES[seat % BOT_NAMES.length]!, undefined, { entropy });
    seated.push({ token, entropy });
  }
  await client.start(gameId, seated[0]!.token);
  for (const { token, entropy } of seated) if (entropy) await client.revealEntropy(gameId, token, entropy);
  const tokens = seated.map((bot) => bot.token);
  void playBots(client, gameId, tokens, seededRandom(Date.now()), { pauseMs: 600 });
  return gameId;
}

/** "4 s", "3 min", "2 h": how long the table has waited. */
export function waited(sinceSeconds: bigint, nowMs = Date.now()): string {
  const seconds = Math.max(0, Math.floor(nowMs / 1000 - Number(sinceSeconds)));
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.floor(seconds / 60)} min`;
  return `${Math.floor(seconds / 3600)} h`;
}

/** Players' ratings (T-RATING) by kind, then by public key in hex. */
type Ratings = Map<string, Map<string, number>>;

const hex = (key: Uint8Array) => Array.from(key, (b) => b.toString(16).padStart(2, "0")).join("");

/** The ratings of every keyed seat listed, in its game's kind: one call a kind. */
async function seatRatings(games: GameSummary[]): Promise<Ratings> {
  const wanted = new Map<string, Map<string, Uint8Array>>();
  for (const game of games) {
    const keys = wanted.get(game.kind) ?? new Map<string, Uint8Array>();
    for (const key of game.playerKeys) if (key.length) keys.set(hex(key), key);
    wanted.set(game.kind, keys);
  }
  const found: Ratings = new Map();
  for (const [kind, keys] of wanted) {
    if (!keys.size) continue;
    const rated = await client.ratings(kind, { publicKeys: [...keys.values()].slice(0, 1000) }).catch(() => []);
    found.set(kind, new Map(rated.map((r) => [hex(r.publicKey), r.rating])));
  }
  return found;
}

/** "Ada (21.4)": a name with its player's rating, as the terminal writes it. */
function rated(game: GameSummary, seat: number, name: string, ratings: Ratings): string {
  const key = game.playerKeys[seat];
  const rating = key?.length ? ratings.get(game.kind)?.get(hex(key)) : undefined;
  return rating === undefined ? name : `${name} (${rating.toFixed(1)})`;
}

/** Who sits where (bots marked, ratings beside names), and whom the game awaits since when. */
function players(game: GameSummary, ratings: Ratings): HTMLElement {
  const names = game.playerNames.map((name, seat) => (name ? rated(game, seat, name, ratings) : `seat ${seat + 1} free`));
  const bots = new Set(game.botSeats);
  const awaited = game.awaitedSeats.map((seat) => game.playerNames[seat] || `seat ${seat + 1}`);
  return h(
    "td",
    { class: "players" },
    h("span", { class: "seated" }, `${game.seatsTaken} of ${game.seatCount}`),
    names.length ? h("span", { class: "names" }, names.map((name, seat) => (bots.has(seat) ? `${name} (bot)` : name)).join(", ")) : null,
    awaited.length && !game.finished
      ? h("span", { class: "awaited" }, `to move: ${awaited.join(", ")}${game.awaitedSince ? `, for ${waited(game.awaitedSince.seconds)}` : ""}`)
      : null,
  );
}

function row(game: GameSummary, title: string, ratings: Ratings): HTMLElement {
  const state = game.finished ? "finished" : game.started ? "running" : "open";
  const links: (HTMLElement | string)[] = [];
  if (game.started) links.push(h("a", { href: `#/watch/${game.gameId}`, class: "watch" }, "watch"));
  if (game.finished) links.push(h("a", { href: `#/replay/${game.gameId}`, class: "replay" }, "replay"));
  if (seats.get(game.gameId)) links.push(h("a", { href: `#/play/${game.gameId}`, class: "play" }, game.finished ? "your seat's view" : "resume your seat"));
  if (!game.started && game.seatsTaken < game.seatCount) {
    const name = h("input", { name: "player", placeholder: "your name", size: 10, required: true }) as HTMLInputElement;
    const join = async (event: Event) => {
      event.preventDefault();
      const entropy = seatEntropy();
      const seat = await client.join(game.gameId, name.value.trim(), undefined, { entropy, player: await playerKey() });
      seats.set(game.gameId, seat.token, name.value.trim(), seat.seat, entropy);
      location.hash = `#/play/${game.gameId}`;
    };
    links.push(h("form", { class: "join", onsubmit: join }, name, h("button", { type: "submit" }, "take a seat")));
  }
  return h(
    "tr",
    { "data-game-id": game.gameId, "data-state": state },
    h("td", {}, title, " ", h("code", { title: game.gameId }, game.gameId.slice(0, 8))),
    players(game, ratings),
    h("td", { class: "state" }, state),
    h("td", { class: "events" }, String(game.version)),
    h("td", { class: "links" }, ...links.flatMap((link, i) => (i ? [" · ", link] : [link]))),
  );
}

/** Open a tournament's page by its id (a tournament's organizer hands it out). */
function tournamentForm(): HTMLElement {
  const id = h("input", { name: "tournament", placeholder: "tournament id", size: 34, required: true, pattern: "[0-9a-f-]{8,64}" }) as HTMLInputElement;
  const open = (event: Event) => {
    event.preventDefault();
    location.hash = `#/tournament/${id.value.trim()}`;
  };
  return h("form", { class: "open-tournament", onsubmit: open }, "A tournament: ", id, " ", h("button", { type: "submit" }, "show it"));
}

export async function listPage(root: HTMLElement, signal: AbortSignal): Promise<void> {
  const kinds = await gameKinds();
  const kindSelect = h("select", { name: "kind" }, ...[...kinds.values()].map((k) => h("option", { value: k.kind }, k.title))) as HTMLSelectElement;
  const seatInput = h("input", { type: "number", name: "seats", value: 3, min: 1, max: 10 }) as HTMLInputElement;
  const nameInput = h("input", { name: "creator", placeholder: "your name", size: 10, required: true, maxlength: 64 }) as HTMLInputElement;
  const yours = h("div", { class: "your-seats" });
  const kept = seats.all();
  if (kept.length) {
    yours.append(
      h("h3", {}, "Your seats in this browser"),
      h(
        "ul",
        {},
        ...kept.slice(0, 10).map((seat) =>
          h("li", {}, h("a", { class: "resume", href: `#/play/${seat.gameId}` }, "resume"), ` ${seat.name || "your seat"}${seat.seat >= 0 ? ` (seat ${seat.seat + 1})` : ""} in game `, h("code", {}, seat.gameId.slice(0, 8))),
        ),
      ),
    );
  }
  const clock = h(
    "select",
    { name: "clock", "aria-label": "turn clock" },
    h("option", { value: "0" }, "no turn clock"),
    h("option", { value: "60" }, "1 min a move"),
    h("option", { value: "300" }, "5 min a move"),
    h("option", { value: "86400" }, "a day a move"),
  ) as HTMLSelectElement;
  const sitDown = async () => {
    const tableOptions = create(TableOptionsSchema, { secondsPerDecision: Number(clock.value) });
    const gameId = await client.createGame(kindSelect.value, { seatCount: seatsFor(), tableOptions });
    const entropy = seatEntropy();
    const seat = await client.join(gameId, nameInput.value.trim(), undefined, { entropy, player: await playerKey() });
    seats.set(gameId, seat.token, nameInput.value.trim(), seat.seat, entropy);
    location.hash = `#/play/${gameId}`;
  };
  const problem = h("div");
  const body = h("tbody");
  const filter = h("select", { name: "status" }, h("option", { value: "0" }, "all games"), h("option", { value: String(GameStatus.OPEN) }, "open"), h("option", { value: String(GameStatus.RUNNING) }, "running"), h("option", { value: String(GameStatus.FINISHED) }, "finished")) as HTMLSelectElement;
  const refresh = async () => {
    const games = await client.listGames({ limit: 100, status: Number(filter.value) as GameStatus });
    const ratings = await seatRatings(games);
    body.replaceChildren(...games.map((game) => row(game, kinds.get(game.kind)?.title ?? game.kind, ratings)));
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
      { class: "new-game", onsubmit: guarded(sitDown) },
      kindSelect,
      h("label", {}, " for ", seatInput, " players, as "),
      nameInput,
      " ",
      clock,
      " ",
      h("button", { type: "submit", class: "create" }, "New game"),
      " ",
      h("button", { type: "button", class: "bots", onclick: guarded(async () => (location.hash = `#/watch/${await botGame(kindSelect.value, seatsFor())}`)) }, "Watch bots play one"),
    ),
    problem,
    yours,
    tournamentForm(),
    h("p", {}, "Show ", filter),
    h("table", { class: "games" }, h("thead", {}, h("tr", {}, h("th", {}, "game"), h("th", {}, "players"), h("th", {}, "status"), h("th", {}, "events"), h("th", {}, ""))), body),
  );
  await refresh();
  root.dataset.state = "ready";
  const timer = setInterval(() => void refresh().catch(() => undefined), 3000);
  signal.addEventListener("abort", () => clearInterval(timer));
}
