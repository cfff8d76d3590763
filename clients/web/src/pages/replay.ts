// The replay scrubber: every view of a game in turn, stepped back and
// forth with buttons, the slider or the arrow keys, each with its event.
import { client, seats } from "../api.js";
import { h } from "../dom.js";
import { drawView } from "../games/index.js";
import { heading, Narration, status, titles, keepInView } from "./common.js";
import type { ReplayStep } from "@cardroom/client";

export async function replayPage(root: HTMLElement, gameId: string, signal: AbortSignal): Promise<void> {
  const kindTitles = await titles();
  const token = seats.get(gameId); // a seat replays its own view, hand included
  const steps: ReplayStep[] = [];
  for await (const step of client.replay(gameId, { token, narrate: true })) {
    if (signal.aborted) return;
    steps.push(step);
  }
  if (steps.length === 0) throw new Error("this game has no events to replay");
  const narration = new Narration();
  const items = steps.map((step) => narration.add(step.event, step.narration));
  const slider = h("input", { type: "range", min: 1, max: steps.length, value: 1, "aria-label": "step" }) as HTMLInputElement;
  const counter = h("span", { class: "counter" });
  const line = h("p", { class: "status" });
  const board = h("div", { class: "board" });
  let at = 1;
  const show = (step: number) => {
    at = Math.min(Math.max(step, 1), steps.length);
    const { view } = steps[at - 1]!;
    slider.value = String(at);
    counter.textContent = `step ${at} of ${steps.length}`;
    line.textContent = status(view, kindTitles);
    board.replaceChildren(drawView(view.game, { names: view.table.playerNames, viewer: token ? view.response.seat : undefined }, view.response.words));
    items.forEach((item, index) => {
      item.classList.toggle("current", index === at - 1);
      item.classList.toggle("future", index > at - 1);
    });
    keepInView(items[at - 1]!);
    root.dataset.step = String(at);
  };
  const button = (label: string, title: string, to: () => number) =>
    h("button", { type: "button", title, "aria-label": title, onclick: () => show(to()) }, label);
  slider.addEventListener("input", () => show(Number(slider.value)));
  document.addEventListener(
    "keydown",
    (event) => {
      if (event.key === "ArrowLeft") show(at - 1);
      if (event.key === "ArrowRight") show(at + 1);
    },
    { signal },
  );
  root.append(
    heading(token ? "Replaying your seat of" : "Replaying", gameId),
    line,
    h(
      "div",
      { class: "scrubber" },
      button("|◀", "first step", () => 1),
      button("◀", "step back", () => at - 1),
      slider,
      button("▶", "step forward", () => at + 1),
      button("▶|", "last step", () => steps.length),
      counter,
    ),
    h("div", { class: "table-and-story" }, board, h("div", { class: "story" }, h("h3", {}, "What happened"), narration.element)),
  );
  show(1);
  root.dataset.state = "ready";
}
