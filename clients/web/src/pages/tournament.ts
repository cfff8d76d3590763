// A tournament the server runs (docs/rules/tournaments.md): its standings,
// its rounds with every table's players and a link to watch or replay the
// table's game, and the seed once it is revealed; live from the
// tournament's own feed (WatchTournament), redrawn from the view each
// event carries, so the page needs no other call.
import { TournamentFormat_Kind, type Standing, type TournamentView } from "@cardroom/client";
import { client } from "../api.js";
import { h } from "../dom.js";
import { titles } from "./common.js";

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

/** "3½", "2", "½": points from half points. */
export function points(halfPoints: number): string {
  const whole = Math.floor(halfPoints / 2);
  return halfPoints % 2 ? `${whole || ""}½` : String(whole);
}

/** Each registered player's display name, by public key in hex. */
function namesOf(view: TournamentView): Map<string, string> {
  return new Map(view.players.map((p) => [hex(p.publicKey), p.displayName || `player ${hex(p.publicKey).slice(0, 8)}`]));
}

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
  return h(
    "table",
    { class: "standings" },
    h("thead", {}, h("tr", {}, ...["place", "player", "points", "Buchholz", "wins", "games", "byes"].map((t) => h("th", {}, t)))),
    h("tbody", {}, ...(rows.length ? rows : [h("tr", {}, h("td", { colspan: 7 }, "No standings before the first round is paired."))])),
  );
}

function roundsList(view: TournamentView, names: Map<string, string>): HTMLElement {
  const results = new Map(view.results.map((r) => [`${r.round}/${r.table}`, r]));
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
            return h(
              "li",
              { class: "table", "data-game-id": table.gameId, "data-state": result ? "finished" : "running" },
              `Table ${table.table}: ${seated.join(", ")} · `,
              result ? h("a", { class: "replay", href: `#/replay/${table.gameId}` }, "replay") : h("a", { class: "watch", href: `#/watch/${table.gameId}` }, "watch"),
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

export async function tournamentPage(root: HTMLElement, tournamentId: string, signal: AbortSignal): Promise<void> {
  const kindTitles = await titles();
  const title = h("h2", {}, "Tournament ", h("code", { title: tournamentId }, tournamentId.slice(0, 8)));
  const line = h("p", { class: "status" });
  const body = h("div", { class: "tournament" });
  const seed = h("p", { class: "seed" });
  root.append(title, line, body, seed);
  const draw = (view: TournamentView, version: number) => {
    const created = view.created;
    const format = created?.format === TournamentFormat_Kind.ROUND_ROBIN ? "round robin" : "Swiss";
    if (created?.name) title.replaceChildren(created.name, " ", h("code", { title: tournamentId }, tournamentId.slice(0, 8)));
    line.textContent = `${kindTitles.get(created?.kind ?? "") ?? created?.kind ?? ""} · ${format} · tables of ${created?.tableSize ?? "?"} · ${stage(view)}`;
    const names = namesOf(view);
    body.replaceChildren(h("h3", {}, "Standings"), standingsTable(view, names), roundsList(view, names));
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
