// Pieces every page uses: the heading of a game, its narration list, and
// an error line.
import type { EventEnvelope, View } from "@cardroom/client";
import { narrate } from "../games/index.js";
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
    ...table.clocks.map((clock) => `${who(clock.seat)} has ${countdown(Number(clock.deadline?.seconds ?? 0n) * 1000)} left to move`),
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

/** The narration of a feed: one item per event, its hidden parts below. */
export class Narration {
  readonly element = h("ol", { class: "narration", "aria-live": "polite" });
  readonly names: string[] = [];

  constructor(private readonly kindTitles: Map<string, string>) {}

  add(envelope: EventEnvelope): HTMLElement {
    const { text, secrets } = narrate(envelope, this.names, this.kindTitles);
    const item = h(
      "li",
      { "data-sequence": String(envelope.sequence) },
      h("span", { class: "sequence" }, `#${envelope.sequence}`),
      " ",
      text,
      ...secrets.map((secret) => h("div", { class: "secret" }, "seen by you: ", secret)),
    );
    this.element.append(item);
    return item;
  }
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
