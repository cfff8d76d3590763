// Silver Dagger at the table: every village as a row of cards (a card the
// viewer does not know as a back; one everyone may see, as it lies face up
// or was shown, with class "open"; one only this viewer knows, a face-down
// card it looked at, with class "face"), the discard pile, the deck, private
// decks, the dagger and the scores, and each event in words.
import type { Message } from "@bufbuild/protobuf";
import {
  AbilityStep,
  Card,
  type CardView,
  Phase,
  type View,
  ViewSchema,
} from "@cardroom/client/gen/cardroom/silver_dagger/v1/silver_dagger_pb.js";
import { cardWord, positions, worth } from "@cardroom/client/narration/silver-dagger.js";
import { cardBack, cardFace } from "../cards.js";
import { h, s } from "../dom.js";
import { enumWord, type GameUi, list, nameOf, type Seating } from "./ui.js";

/** Low cards green, high ones red. */
function colorOf(card: Card): string {
  const value = card === Card.HALFLING ? 2 : card - 1;
  if (value <= 3) return "#2e7d32";
  if (value <= 8) return "#a07c10";
  return "#b3261e";
}

function wolves(card: Card, color: string): SVGElement {
  return s(
    "g",
    {},
    s("circle", { cx: 30, cy: 38, r: 16, fill: "none", stroke: color, "stroke-width": 2.5 }),
    s("text", { x: 30, y: 44, "font-size": 16, "font-weight": "bold", fill: color, "text-anchor": "middle" }, worth(card)),
  );
}

/**
 * A village card as this viewer knows it. `open`: everyone may see it (it
 * lies face up, or was shown); otherwise a known card is this viewer's own
 * knowledge, drawn as a "face".
 */
function drawCard(card: Card, faceUp: boolean, open: boolean): SVGElement {
  if (card === Card.UNSPECIFIED) return cardBack();
  const color = colorOf(card);
  const svg = cardFace({
    corner: worth(card),
    caption: enumWord(Card, card),
    color,
    picture: wolves(card, color),
    band: faceUp ? { text: "face up", color: "#555" } : { text: "face down", color: "#27407a" },
  });
  if (open) svg.setAttribute("class", "card open");
  return svg;
}

function village(cards: CardView[]): HTMLElement {
  const row = h("div", { class: "cards" });
  row.append(...cards.map((c) => drawCard(c.card, c.faceUp, c.public)));
  return row;
}

function drawView(message: Message, seating: Seating): HTMLElement {
  const view = message as View;
  const who = (seat: number | undefined) => nameOf(seating.names, seat);
  const facts = [`Round ${view.round}`, `turn ${view.turn}`, enumWord(Phase, view.phase)];
  facts.push(`deck ${view.deckCount}`, view.clockwise ? "clockwise" : "counterclockwise");
  if (view.awaiting.length) facts.push(`waiting for ${list(view.awaiting.map(who))}`);
  if (view.caller !== undefined) facts.push(`${who(view.caller)} has called`);
  const seats = view.seats.map((seat) => {
    const badges = [
      view.awaiting.includes(seat.seat) ? h("span", { class: "badge turn" }, "to act") : null,
      h("span", { class: "badge" }, `${seat.total} point${seat.total === 1 ? "" : "s"}`),
      view.daggerSeat === seat.seat ? h("span", { class: "badge" }, view.daggerUsable ? "silver dagger (may turn it)" : "silver dagger") : null,
      view.caller === seat.seat ? h("span", { class: "badge" }, "called") : null,
    ];
    const privateDeck = seat.privateDeckCount
      ? h(
          "div",
          {},
          h("div", { class: "label" }, `private deck (${seat.privateDeckCount}, top last)`),
          h("div", { class: "cards" }, ...Array.from({ length: seat.privateDeckCount }, (_, i) => drawCard(seat.privateDeck[i] ?? Card.UNSPECIFIED, false, false))),
        )
      : null;
    return h(
      "section",
      { class: `seat${seat.seat === seating.viewer ? " mine" : ""}`, "data-seat": seat.seat },
      h("h3", {}, who(seat.seat), ...badges),
      h("div", { class: "label" }, `village (${seat.village.length})${seat.roundPoints.length ? ` · rounds: ${seat.roundPoints.join(", ")}` : ""}`),
      village(seat.village),
      privateDeck,
    );
  });
  const top = view.discardPile.at(-1);
  const table = h(
    "section",
    { class: "discard" },
    h("h3", {}, "The table"),
    h("div", { class: "label" }, `discard pile (${view.discardPile.length})${view.holding ? ` · ${who(view.currentSeat)} holds a card${view.heldFromDiscard ? " from the discard pile" : ""}` : ""}`),
    h(
      "div",
      { class: "cards" },
      top === undefined ? null : drawCard(top, true, true),
      view.holding ? drawCard(view.held, view.heldFromDiscard, view.heldFromDiscard) : null,
    ),
    view.phase === Phase.ABILITY && view.ability
      ? h("div", { class: "label" }, `ability: ${cardWord(view.ability.card)}${view.ability.viaMagician ? " through the Magician" : ""} (${enumWord(AbilityStep, view.ability.step).toLowerCase()})`)
      : null,
    view.selected.length ? h("div", { class: "label" }, `picked: ${positions(view.selected)}`) : null,
  );
  const over = view.phase === Phase.OVER ? h("p", { class: "winner" }, `${list(view.winners.map(who)) || "Nobody"} wins the game`) : null;
  return h("div", { class: "game silver-dagger" }, h("p", { class: "facts" }, facts.join(" · ")), over, table, h("div", { class: "seats" }, ...seats));
}

export const silverDagger: GameUi = { package: ViewSchema.typeName.replace(/\.View$/, ""), drawView };
