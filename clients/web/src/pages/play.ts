// Playing a seat: the seat's own view (its hand face up), its legal actions
// as buttons, and its feed narrated, hidden parts it may see included.
import type { Message } from "@bufbuild/protobuf";
import { client, seats } from "../api.js";
import { h } from "../dom.js";
import { describeAction, drawView } from "../games/index.js";
import { errorLine, heading, Narration, redrawer, status, titles } from "./common.js";

function askForToken(root: HTMLElement, gameId: string): Promise<string> {
  return new Promise((resolve) => {
    const input = h("input", { type: "password", name: "token", placeholder: "seat token", autocomplete: "off" }) as HTMLInputElement;
    const form = h(
      "form",
      { class: "token-form", onsubmit: (event: Event) => (event.preventDefault(), form.remove(), resolve(input.value.trim())) },
      h("label", {}, "Your seat token ", input),
      h("button", { type: "submit" }, "Sit down"),
    );
    root.append(heading("Play a seat of", gameId), form);
  });
}

export async function playPage(root: HTMLElement, gameId: string, signal: AbortSignal): Promise<void> {
  const token = seats.get(gameId) ?? (await askForToken(root, gameId));
  seats.set(gameId, token);
  root.replaceChildren();
  const kindTitles = await titles();
  const line = h("p", { class: "status" });
  const who = h("p", { class: "who" });
  const board = h("div", { class: "board" });
  const actions = h("div", { class: "actions" });
  const problem = h("div");
  const narration = new Narration(kindTitles);
  root.append(
    heading("Playing", gameId),
    line,
    who,
    h("section", { class: "your-move" }, h("h3", {}, "Your move"), actions, problem),
    h("div", { class: "table-and-story" }, board, h("div", { class: "story" }, h("h3", {}, "What happens"), narration.element)),
  );
  const act = async (command: Message) => {
    actions.querySelectorAll("button").forEach((b) => ((b as HTMLButtonElement).disabled = true));
    problem.replaceChildren();
    try {
      await client.act(gameId, token, command);
    } catch (error) {
      problem.replaceChildren(errorLine(error));
    }
    drawing.request();
  };
  const drawing = redrawer(async () => {
    const view = await client.view(gameId, { token });
    const names = view.table.playerNames;
    line.textContent = status(view, kindTitles);
    who.textContent = `You are ${names[view.response.seat] || "seat " + (view.response.seat + 1)} (seat ${view.response.seat + 1}).`;
    board.replaceChildren(drawView(view.game, { names, viewer: view.response.seat }));
    let state: string;
    if (view.table.finished) {
      actions.replaceChildren(h("p", {}, "The game is over."));
      state = "over";
    } else if (!view.table.started) {
      const full = names.every((name) => name !== "");
      const start = h("button", { type: "button", onclick: () => client.start(gameId, token).catch((e) => problem.replaceChildren(errorLine(e))) }, "Start the game");
      actions.replaceChildren(full ? start : h("p", {}, "Waiting for every seat to be taken."));
      state = full ? "ready-to-start" : "not-started";
    } else {
      const legal = await client.legalActions(gameId, token);
      actions.replaceChildren(
        ...(legal.length
          ? legal.map((command) => h("button", { type: "button", class: "action", onclick: () => act(command) }, describeAction(command, names)))
          : [h("p", {}, "Waiting for the others.")]),
      );
      state = legal.length ? "your-turn" : "waiting";
    }
    // Together, once all is drawn: what a test waits for.
    root.dataset.version = String(view.version);
    root.dataset.state = state;
  });
  drawing.request();
  for await (const envelope of client.watch(gameId, { token, signal })) {
    narration.add(envelope).scrollIntoView({ block: "nearest" });
    drawing.request();
  }
  await drawing.settled();
  drawing.request();
}
