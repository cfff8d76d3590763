// Which GameUi draws a view. The words (each event, each command) come from
// @cardroom/client, so any frontend tells a game as this table does.
import { type Message, toJson } from "@bufbuild/protobuf";
import { registry, schemaOf, type ViewWords } from "@cardroom/client";
import { h } from "../dom.js";
import { silverDagger } from "./silver-dagger.js";
import { smileLife } from "./smile-life.js";
import { smilesAndDaggers } from "./smiles-and-daggers.js";
import { smokeAndMirrors } from "./smoke-and-mirrors.js";
import type { GameUi, Seating } from "./ui.js";

export { describeAction, narrate } from "@cardroom/client";

const KNOWN: GameUi[] = [smokeAndMirrors, smilesAndDaggers, silverDagger, smileLife];

function packageOf(typeName: string): string {
  return typeName.slice(0, typeName.lastIndexOf("."));
}

function short(typeName: string): string {
  return typeName.slice(typeName.lastIndexOf(".") + 1);
}

/** Any kind the table has no drawing for: its view as JSON. */
export const generic: GameUi = {
  package: "",
  drawView: (view) =>
    h("div", { class: "game generic" }, h("p", { class: "facts" }, short(view.$typeName)), h("pre", {}, JSON.stringify(toJson(schemaOf(view.$typeName), view, { registry }), null, 2))),
};

export function uiFor(typeName: string): GameUi {
  return KNOWN.find((ui) => ui.package === packageOf(typeName)) ?? generic;
}

/**
 * The game drawn, with one seat numbering on every kind: each seat's name
 * first, then "seat 1..N"; the viewer's own seat marked "you". With the
 * server's words for the view (GetViewResponse.words), its header says
 * where the game stands as the terminal does, instead of the raw fields.
 */
export function drawView(view: Message, seating: Seating, words?: ViewWords): HTMLElement {
  const drawn = uiFor(view.$typeName).drawView(view, seating);
  const facts = drawn.querySelector<HTMLElement>(".facts");
  if (words?.status && facts) {
    facts.replaceChildren(words.status, ...words.table.map((line) => h("span", { class: "table-line" }, line)));
  }
  for (const seat of drawn.querySelectorAll<HTMLElement>(".seat[data-seat]")) {
    const number = Number(seat.dataset.seat);
    const title = seat.querySelector("h3");
    if (!title || Number.isNaN(number)) continue;
    const label = number === seating.viewer ? `seat ${number + 1} · you` : `seat ${number + 1}`;
    title.firstChild?.after(" ", h("span", { class: "seat-number" }, label));
  }
  return drawn;
}
