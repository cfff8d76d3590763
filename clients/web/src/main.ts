// The reference web table: routes (#/, #/watch/ID, #/replay/ID, #/play/ID,
// #/invite/ID/CODE, #/tournament/ID)
// to pages; each page stops its streams when another is shown.
import "./style.css";
import { h } from "./dom.js";
import { errorLine } from "./pages/common.js";
import { listPage } from "./pages/list.js";
import { invitePage, playPage } from "./pages/play.js";
import { replayPage } from "./pages/replay.js";
import { tournamentPage } from "./pages/tournament.js";
import { watchPage } from "./pages/watch.js";

const app = document.getElementById("app")!;
let current: AbortController | undefined;

function route(): void {
  current?.abort();
  const controller = new AbortController();
  current = controller;
  const [, page = "", gameId = "", code = ""] = location.hash.split("/");
  const root = h("div", { class: "page", "data-page": page || "list", "data-state": "loading" });
  app.replaceChildren(root);
  const pages: Record<string, () => Promise<void>> = {
    watch: () => watchPage(root, gameId, controller.signal),
    replay: () => replayPage(root, gameId, controller.signal),
    play: () => playPage(root, gameId, controller.signal),
    invite: () => invitePage(root, gameId, code),
    tournament: () => tournamentPage(root, gameId, controller.signal),
  };
  const show = pages[page] ?? (() => listPage(root, controller.signal));
  show().catch((error: unknown) => {
    if (controller.signal.aborted) return;
    root.append(errorLine(error));
    root.dataset.state = "error";
  });
}

window.addEventListener("hashchange", route);
route();
