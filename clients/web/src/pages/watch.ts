// A live spectator view: the table as spectators see it, redrawn after
// each event, and every event narrated as it happens.
import { Narrator } from "@cardroom/client";
import { client, gameKinds, spectating } from "../api.js";
import { h } from "../dom.js";
import { drawView } from "../games/index.js";
import { everySecond, explainWinner, guidePanel, heading, headsLink, Narration, redrawer, status, titles, keepInView } from "./common.js";

export async function watchPage(root: HTMLElement, gameId: string, signal: AbortSignal): Promise<void> {
  const kindTitles = await titles();
  const line = h("p", { class: "status" });
  const board = h("div", { class: "board" });
  const narration = new Narration();
  const guide = h("div");
  root.dataset.state = "live";
  root.append(
    heading("Watching", gameId),
    line,
    guide,
    h("nav", { class: "links" }, h("a", { href: `#/replay/${gameId}` }, "replay"), " · ", h("a", { href: `#/play/${gameId}` }, "play a seat"), " · ", headsLink(gameId)),
    h("div", { class: "table-and-story" }, board, h("div", { class: "story" }, h("h3", {}, "What happens"), narration.element)),
  );
  let shown: Awaited<ReturnType<typeof client.view>> | undefined;
  everySecond(signal, () => {
    if (shown?.table.clocks.length && root.dataset.state !== "over") line.textContent = status(shown, kindTitles);
  });
  const drawing = redrawer(async () => {
    const view = await client.view(gameId, { describe: true });
    if (!shown) guide.replaceChildren(await guidePanel(view.table.kind));
    shown = view;
    board.replaceChildren(drawView(view.game, { names: view.table.playerNames }, view.response.words));
    if (view.table.finished) explainWinner(board, narration);
    line.textContent = status(view, kindTitles);
    root.dataset.version = String(view.version);
  });
  drawing.request();
  // The server's words; through relays (which forward copies and do not
  // narrate) this package's own words are the fallback.
  const feed =
    spectating === client
      ? client.story(gameId, { signal })
      : (async function* () {
          const narrator = new Narrator(await gameKinds().then((kinds) => [...kinds.values()]));
          for await (const envelope of spectating.watch(gameId, { signal })) yield narrator.tell(envelope);
        })();
  for await (const told of feed) {
    keepInView(narration.add(told.envelope, told.lines));
    root.dataset.events = String(told.sequence);
    drawing.request();
  }
  if (signal.aborted) return;
  await drawing.settled();
  drawing.request();
  await drawing.settled();
  root.dataset.state = "over";
  line.append(" · the game is over");
}
