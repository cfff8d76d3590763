// Pieces every page uses: the heading of a game, its narration list, the
// game's guide, and an error line.
import type { EventEnvelope, View } from "@cardroom/client";
import { h } from "../dom.js";
import { client, gameKinds } from "../api.js";

export async function titles(): Promise<Map<string, string>> {
  return new Map([...(await gameKinds()).values()].map((k) => [k.kind, k.title]));
}

export function heading(what: string, gameId: string): HTMLElement {
  return h("h2", {}, what, " ", h("code", { class: "game-id", title: gameId }, gameId.slice(0, 8)));
}

/** "Ada, Bo and Cy · running · 42 events", then what the table says of
 * seats: "· Cy resigned · Bo absent · Ada to move by 12:30:05 UTC". */
export function status(view: View, kindTitles: Map<string, string>): string {
  const table = view.table;
  const state = table.finished ? "finished" : table.started ? "running" : "waiting for players";
  const names = table.playerNames.map((name, seat) => name || `seat ${seat + 1} free`).join(", ");
  const who = (seat: number) => table.playerNames[seat] || `seat ${seat + 1}`;
  const notes = [
    ...table.resignedSeats.map((seat) => `${who(seat)} resigned`),
    ...table.absentSeats.map((seat) => `${who(seat)} absent`),
    ...table.clocks.map((clock) => `⏱ ${who(clock.seat)} has ${countdown(Number(clock.deadline?.seconds ?? 0n) * 1000)} left to move`),
  ];
  return [`${kindTitles.get(table.kind) ?? table.kind} · ${names} · ${state} · ${view.version} events`, ...notes].join(" · ");
}

/** Time left until `deadlineMs` (the public deadline), as "4:05" or "1:02:03"; "0:00" once past. */
export function countdown(deadlineMs: number, nowMs = Date.now()): string {
  const left = Math.max(0, Math.ceil((deadlineMs - nowMs) / 1000));
  const hours = Math.floor(left / 3600);
  const minutes = Math.floor((left % 3600) / 60);
  const seconds = String(left % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}

/** Calls `tick` every second until `signal` aborts (a countdown's redraw). */
export function everySecond(signal: AbortSignal, tick: () => void): void {
  const timer = setInterval(tick, 1000);
  signal.addEventListener("abort", () => clearInterval(timer), { once: true });
}

/**
 * The narration of a feed: one item per event, in the server's words for
 * this viewer (WatchEventsRequest.narrate: the sentences the terminal
 * prints), its first line the public part, the rest what only this viewer saw.
 */
export class Narration {
  readonly element = h("ol", { class: "narration", "aria-live": "polite" });

  add(envelope: EventEnvelope, lines: readonly string[]): HTMLElement {
    const [text = "", ...secrets] = lines;
    const item = h(
      "li",
      { "data-sequence": String(envelope.sequence) },
      h("span", { class: "sequence" }, `#${envelope.sequence}`),
      " ",
      h("span", { class: "told" }, text),
      ...secrets.map((secret) => h("div", { class: "secret" }, secret.trim())),
    );
    this.element.append(item);
    if (text) this.told.push(text);
    return item;
  }

  private readonly told: string[] = [];

  /**
   * How the game ended, with its reason, in the server's words: the last
   * event the game told before the table's "Game over" line, then that line
   * (e.g. "Ada wins round 4 (4 round wins of the 4 needed). Game over: Ada wins.").
   */
  ending(): string {
    return this.told.slice(-2).join(" ");
  }
}

/** At the end, the board's winner line says why, in the narration's words. */
export function explainWinner(board: HTMLElement, narration: Narration): void {
  const winner = board.querySelector<HTMLElement>(".winner");
  const why = narration.ending();
  if (winner && why) winner.textContent = why;
}

/** Symbols the web table draws itself, beside those of the game's guide. */
const TABLE_SYMBOLS: [string, string][] = [
  ["⏱", "a turn clock: the time left to move before the game moves for that seat"],
  ["⚠", "a costly move: the table asks you to tap it twice"],
];

/**
 * The game's goal, always on screen, and its help (the rules in short and a
 * legend of every symbol) folded below it: the guide the server serves with
 * the game's kind (GameKind.guide), the terminal's help screen word for word.
 */
export async function guidePanel(kind: string): Promise<HTMLElement> {
  const guide = (await gameKinds()).get(kind)?.guide;
  if (guide === undefined) return h("div", { class: "guide" });
  const symbols: [string, string][] = [...guide.symbols.map((s): [string, string] => [s.symbol, s.meaning]), ...TABLE_SYMBOLS];
  return h(
    "section",
    { class: "guide" },
    h("p", { class: "goal" }, h("strong", {}, "Goal: "), guide.goal),
    h(
      "details",
      { class: "help" },
      h("summary", {}, "How to play, and what each symbol means"),
      ...guide.rules.map((rule) => h("p", {}, rule)),
      h("dl", { class: "legend" }, ...symbols.flatMap(([symbol, meaning]) => [h("dt", {}, symbol), h("dd", {}, meaning)])),
    ),
  );
}

/**
 * Bring a feed line into view inside its own scrolling box (the ".story"
 * panel) and nowhere else: `scrollIntoView` would scroll the window too, and
 * on a phone pull the page away from the move buttons with every event.
 */
export function keepInView(item: HTMLElement): void {
  const box = item.closest<HTMLElement>(".story");
  if (box === null) return;
  const top = item.offsetTop;
  const bottom = top + item.offsetHeight;
  if (top < box.scrollTop) box.scrollTop = top;
  else if (bottom > box.scrollTop + box.clientHeight) box.scrollTop = bottom - box.clientHeight;
}

export function errorLine(error: unknown): HTMLElement {
  const text = error instanceof Error ? error.message : String(error);
  return h("p", { class: "error", role: "alert" }, text);
}

/** Runs `draw` now and again after changes, never two at once. */
export function redrawer(draw: () => Promise<void>): { request: () => void; settled: () => Promise<void> } {
  let running: Promise<void> | undefined;
  let again = false;
  const request = () => {
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        await draw();
      } while (again);
      running = undefined;
    })();
  };
  return { request, settled: async () => running && (await running) };
}

/**
 * A link that downloads the signed heads this page was served for the game
 * (docs/trust.md, "Signed heads"), as a heads file for `cardroom heads
 * compare`: made when clicked, so it holds every head received so far.
 */
export function headsLink(gameId: string): HTMLElement {
  const link = h("a", { href: "#", class: "heads", download: `heads-${gameId}.jsonl` }, "signed heads");
  link.addEventListener("click", () => {
    const file = new Blob([client.heads.toJsonLines(gameId)], { type: "application/jsonl" });
    const old = link.getAttribute("href");
    if (old?.startsWith("blob:")) URL.revokeObjectURL(old);
    link.setAttribute("href", URL.createObjectURL(file));
  });
  return link;
}
