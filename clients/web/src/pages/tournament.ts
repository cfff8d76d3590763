// A tournament the server runs (docs/rules/tournaments.md): its standings,
// its rounds with every table's players and a link to watch or replay the
// table's game, and the seed once it is revealed; live from the
// tournament's own feed (WatchTournament), redrawn from the view each
// event carries, so the page needs no other call. This browser's player
// (its key, player.ts) registers here while registration is open, takes its
// reserved seat at its table in each round, and may withdraw (TN-LEAVE).
import { publicKeyBytes, TournamentFormat_Kind, type Standing, type TournamentView } from "@cardroom/client";
import { client, seatEntropy, seats, toHex as hex } from "../api.js";
import { h } from "../dom.js";
import { playerKey } from "../player.js";
import { errorLine, titles } from "./common.js";

/** "3½", "2", "½": points from half points. */
export function points(halfPoints: number): string {
  const whole = Math.floor(halfPoints / 2);
  return halfPoints % 2 ? `${whole || ""}½` : String(whole);
}

/** Each registered player's display name, by public key in hex. */
function namesOf(view: TournamentView): Map<string, string> {
  return new Map(view.players.map((p) => [hex(p.publicKey), p.displayName || `player ${hex(p.publicKey).slice(0, 8)}`]));
}

const COLUMNS = [
  ["place", "#"],
  ["player", "player"],
  ["points", "pts"],
  ["Buchholz", "Bh"],
  ["wins", "W"],
  ["games", "G"],
  ["byes", "byes"],
] as const;

function standingsTable(view: TournamentView, names: Map<string, string>): HTMLElement {
  const rows = view.standings.map((standing: Standing) =>
    h(
      "tr",
      { "data-player": hex(standing.publicKey) },
      h("td", { class: "place" }, String(standing.place)),
      h("td", { class: "player" }, names.get(hex(standing.publicKey)) ?? hex(standing.publicKey).slice(0, 8), standing.withdrawn ? " (withdrew)" : ""),
      h("td", { class: "points" }, points(standing.halfPoints)),
      h("td", { class: "buchholz" }, points(standing.buchholzHalfPoints)),
      h("td", {}, String(standing.wins)),
      h("td", {}, String(standing.games)),
      h("td", {}, String(standing.byes)),
    ),
  );
  // A phone shows each heading's short form.
  const headings = COLUMNS.map(([long, short]) => h("th", { title: long }, h("span", { class: "long" }, long), h("span", { class: "short" }, short)));
  const body = rows.length ? rows : [h("tr", {}, h("td", { colspan: 7 }, "No standings before the first round is paired."))];
  return h("div", { class: "standings-box" }, h("table", { class: "standings" }, h("thead", {}, h("tr", {}, ...headings)), h("tbody", {}, ...body)));
}

/** This browser's player: its key pair, and its public key in hex. */
interface Me {
  key: CryptoKeyPair;
  hex: string;
}

async function me(): Promise<Me | undefined> {
  const key = await playerKey();
  return key ? { key, hex: hex(await publicKeyBytes(key)) } : undefined;
}

/** Take the seat reserved for this browser's key at a table (TN-SEAT), then play it. */
async function takeSeat(gameId: string, seat: number, name: string, player: Me): Promise<void> {
  const entropy = seatEntropy();
  const taken = await client.join(gameId, name, seat, { entropy, player: player.key });
  seats.set(gameId, taken.token, name, taken.seat, entropy);
  location.hash = `#/play/${gameId}`;
}

/** The way to this player's seat at a running table: "play" once the seat is this browser's, else a button that takes it. */
function yourSeat(gameId: string, seat: number, name: string, player: Me, problem: HTMLElement): HTMLElement {
  if (seats.get(gameId)) return h("a", { class: "play", href: `#/play/${gameId}` }, "play your seat");
  const button = h("button", { class: "take-seat", type: "button" }, "take your seat") as HTMLButtonElement;
  button.onclick = async () => {
    button.disabled = true;
    problem.replaceChildren();
    try {
      await takeSeat(gameId, seat, name, player);
    } catch (error) {
      problem.replaceChildren(errorLine(error));
      button.disabled = false;
    }
  };
  return button;
}

function roundsList(view: TournamentView, names: Map<string, string>, player?: Me, problem?: HTMLElement): HTMLElement {
  const results = new Map(view.results.map((r) => [`${r.round}/${r.table}`, r]));
  const withdrew = new Set(view.withdrawn.map(hex));
  const who = (key: Uint8Array) => names.get(hex(key)) ?? hex(key).slice(0, 8);
  return h(
    "div",
    { class: "rounds" },
    ...[...view.rounds].reverse().map((round) =>
      h(
        "section",
        { class: "round", "data-round": String(round.round) },
        h("h3", {}, `Round ${round.round}`),
        h(
          "ul",
          {},
          ...round.tables.map((table) => {
            const result = results.get(`${round.round}/${table.table}`);
            const seated = table.seats.map((key, seat) => {
              const rank = result?.ranks[seat];
              return rank === undefined ? who(key) : `${who(key)} (${rank === 1 ? "won" : `rank ${rank}`})`;
            });
            const mine = player && !withdrew.has(player.hex) ? table.seats.findIndex((key) => hex(key) === player.hex) : -1;
            return h(
              "li",
              { class: "table", "data-game-id": table.gameId, "data-state": result ? "finished" : "running" },
              `Table ${table.table}: ${seated.join(", ")} · `,
              result ? h("a", { class: "replay", href: `#/replay/${table.gameId}` }, "replay") : h("a", { class: "watch", href: `#/watch/${table.gameId}` }, "watch"),
              ...(!result && mine >= 0 && player && problem ? [" · ", yourSeat(table.gameId, mine, who(table.seats[mine]!), player, problem)] : []),
            );
          }),
          ...round.byes.map((key) => h("li", { class: "bye" }, `${who(key)}: a bye`)),
        ),
      ),
    ),
  );
}

function stage(view: TournamentView): string {
  if (view.finished) return "finished";
  if (view.registrationOpen) return `registration open · ${view.players.length} players`;
  const total = view.created?.rounds ?? 0;
  return `round ${view.rounds.length}${total ? ` of ${total}` : ""} · ${view.players.length} players`;
}

/**
 * What this browser's player may do in the tournament: register while
 * registration is open, then withdraw (asked twice: it is for good). Redrawn
 * only when its state changes, so a name being typed is not wiped by another
 * player's entry.
 */
function entrant(
  tournamentId: string,
  player: Me | undefined,
  problem: HTMLElement,
): { you: HTMLElement; draw: (view: TournamentView, names: Map<string, string>) => void } {
  const you = h("div", { class: "you" });
  let shown = "";
  const draw = (view: TournamentView, names: Map<string, string>) => {
    const name = (player && names.get(player.hex)) ?? "";
    const state = !player
      ? "anonymous"
      : name
        ? view.withdrawn.some((key) => hex(key) === player.hex)
          ? "withdrawn"
          : view.finished
            ? "played"
            : "registered"
        : view.registrationOpen
          ? "unregistered"
          : view.finished
            ? "over"
            : "closed";
    if (`${state}/${name}` === shown) return;
    shown = `${state}/${name}`;
    you.dataset.state = state;
    problem.replaceChildren();
    if (state === "over") {
      you.replaceChildren();
    } else if (!player || state === "closed") {
      you.replaceChildren(
        h("p", {}, !player ? "This browser has no player key (it needs a secure page with Ed25519 signatures), so it can watch but not enter." : "Registration is closed."),
      );
    } else if (state === "unregistered") {
      const input = h("input", { name: "player", placeholder: "your name", required: true, maxlength: 64 }) as HTMLInputElement;
      const button = h("button", { type: "submit" }, "Register") as HTMLButtonElement;
      const register = async (event: Event) => {
        event.preventDefault();
        problem.replaceChildren();
        button.disabled = true;
        try {
          await client.registerPlayer(tournamentId, player.key, input.value.trim());
        } catch (error) {
          problem.replaceChildren(errorLine(error));
          button.disabled = false;
        }
      };
      you.replaceChildren(h("form", { class: "register", onsubmit: register }, h("label", {}, "Your name ", input), " ", button));
    } else if (state === "registered") {
      const button = h("button", { class: "withdraw", type: "button" }, "Withdraw") as HTMLButtonElement;
      const warning = h("p", { class: "warning" });
      button.onclick = async () => {
        if (!warning.textContent) {
          warning.textContent = "Withdrawing is for good: your seat in a running game is given up and you are paired no more. Tap Withdraw again to leave.";
          return;
        }
        problem.replaceChildren();
        button.disabled = true;
        try {
          await client.withdrawPlayer(tournamentId, player.key);
        } catch (error) {
          problem.replaceChildren(errorLine(error));
          button.disabled = false;
        }
      };
      you.replaceChildren(h("p", {}, `You are registered as ${name}.`), button, warning);
    } else {
      you.replaceChildren(h("p", {}, state === "withdrawn" ? `You (${name}) withdrew.` : `You played as ${name}.`));
    }
  };
  return { you, draw };
}

export async function tournamentPage(root: HTMLElement, tournamentId: string, signal: AbortSignal): Promise<void> {
  const [kindTitles, player] = await Promise.all([titles(), me()]);
  const title = h("h2", {}, "Tournament ", h("code", { title: tournamentId }, tournamentId.slice(0, 8)));
  const line = h("p", { class: "status" });
  const problem = h("div", { class: "problem" });
  const { you, draw: drawYou } = entrant(tournamentId, player, problem);
  const body = h("div", { class: "tournament" });
  const seed = h("p", { class: "seed" });
  root.append(title, line, you, problem, body, seed);
  const draw = (view: TournamentView, version: number) => {
    const created = view.created;
    const format = created?.format === TournamentFormat_Kind.ROUND_ROBIN ? "round robin" : "Swiss";
    if (created?.name) title.replaceChildren(created.name, " ", h("code", { title: tournamentId }, tournamentId.slice(0, 8)));
    line.textContent = `${kindTitles.get(created?.kind ?? "") ?? created?.kind ?? ""} · ${format} · tables of ${created?.tableSize ?? "?"} · ${stage(view)}`;
    const names = namesOf(view);
    drawYou(view, names);
    body.replaceChildren(h("h3", {}, "Standings"), standingsTable(view, names), roundsList(view, names, player, problem));
    // The seed, committed before the first pairing, checks every pairing once revealed (cardroom audit tournament).
    seed.textContent = view.seed.length
      ? `Seed ${hex(view.seed)} (committed as ${hex(view.seedCommitment).slice(0, 16)}…): every round's tables can be re-drawn from it.`
      : view.seedCommitment.length
        ? `Seed committed: ${hex(view.seedCommitment).slice(0, 16)}…; revealed at the end.`
        : "";
    root.dataset.version = String(version);
    root.dataset.state = view.finished ? "over" : "live";
  };
  const first = await client.tournament(tournamentId);
  draw(first.tournament, first.version);
  if (first.tournament.finished) return;
  for await (const update of client.watchTournament(tournamentId, { after: first.version, signal })) {
    if (update.tournament) draw(update.tournament, update.sequence);
  }
}
