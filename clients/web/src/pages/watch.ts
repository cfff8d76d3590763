// A live spectator view: the table as spectators see it, redrawn after
// each event, and every event narrated as it happens.
import { client } from "../api.js";
import { h } from "../dom.js";
import { drawView } from "../games/index.js";
import { everySecond, heading, headsLink, Narration, redrawer, status, titles } from "./common.js";

export async function watchPage(root: HTMLElement, gameId: string, signal: AbortSignal): Promise<void> {
  const kindTitles = await titles();
  const line = h("p", { class: "status" });
  const board = h("div", { class: "board" });
  const narration = new Narration(kindTitles);
  root.dataset.state = "live";
  root.append(
    heading("Watching", gameId),
    line,
    h("nav", { class: "links" }, h("a", { href: `#/replay/${gameId}` }, "replay"), " · ", h("a", { href: `#/play/${gameId}` }, "play a seat"), " · ", headsLink(gameId)),
    h("div", { class: "table-and-story" }, board, h("div", { class: "story" }, h("h3", {}, "What happens"), narration.element)),
  );
  let shown: Awaited<ReturnType<typeof client.view>> | undefined;
  everySecond(signal, () => {
    if (shown?.table.clocks.length && root.dataset.state !== "over") line.textContent = status(shown, kindTitles);
  });
  const drawing = redrawer(async () => {
    const view = await client.view(gameId);
    shown = view;
    board.replaceChildren(drawView(view.game, { names: view.table.playerNames }));
    line.textContent = status(view, kindTitles);
    root.dataset.version = String(view.version);
  });
  drawing.request();
  for await (const envelope of client.watch(gameId, { signal })) {
    narration.add(envelope).scrollIntoView({ block: "nearest" });
    root.dataset.events = String(envelope.sequence);
    drawing.request();
  }
  if (signal.aborted) return;
  await drawing.settled();
  drawing.request();
  await drawing.settled();
  root.dataset.state = "over";
  line.append(" · the game is over");
}
