// Smoke & Mirrors at the table: seats with their hands and acts, cards as
// pictures (hidden ones as backs).
import type { Message } from "@bufbuild/protobuf";
import {
  type Card,
  Phase,
  Pile,
  type View,
  ViewSchema,
} from "@cardroom/client/gen/cardroom/smoke_and_mirrors/v1/smoke_and_mirrors_pb.js";
import { cardWord, PILE_WORDS } from "@cardroom/client/narration/smoke-and-mirrors.js";
import { cardBack, cardFace, mirror, skull, star, swirl } from "../cards.js";
import { h } from "../dom.js";
import { enumWord, type GameUi, nameOf, type Seating } from "./ui.js";

const PILES: Record<number, { word: string; color: string; picture: (color: string) => SVGElement }> = {
  [Pile.STARS]: { word: PILE_WORDS[Pile.STARS]!, color: "#c8961a", picture: star },
  [Pile.SWIRLS]: { word: PILE_WORDS[Pile.SWIRLS]!, color: "#2b7bb9", picture: swirl },
  [Pile.SKULLS]: { word: PILE_WORDS[Pile.SKULLS]!, color: "#5b5b5b", picture: skull },
};

function drawCard(card: Card): SVGElement {
  const pile = PILES[card.pile] ?? { word: "?", color: "#000", picture: star };
  return cardFace({
    corner: card.value === 0 ? "M" : String(card.value),
    caption: card.value === 0 ? `${pile.word} mirror` : pile.word,
    color: pile.color,
    picture: card.value === 0 ? mirror() : pile.picture(pile.color),
  });
}

/** The known cards face up, then backs for the rest of `count`. */
function cards(known: Card[], count: number): HTMLElement {
  const row = h("div", { class: "cards" }, ...known.map(drawCard));
  for (let i = known.length; i < count; i += 1) row.append(cardBack());
  return row;
}

function drawView(message: Message, seating: Seating): HTMLElement {
  const view = message as View;
  const facts = [
    `Round ${view.round}`,
    enumWord(Phase, view.phase),
    `next claim ${view.nextClaim}`,
    `${view.setAsideCount} set aside`,
  ];
  const seats = view.seats.map((seat) => {
    const badges = [
      seat.seat === view.turnSeat && view.phase === Phase.TURN ? h("span", { class: "badge turn" }, "to act") : null,
      seat.seat === view.swapper ? h("span", { class: "badge turn" }, view.phase === Phase.SWAP_GIVE ? "gives a card back" : "may swap") : null,
      seat.active || view.round === 0 ? null : h("span", { class: "badge out" }, "out of the round"),
      seat.breakUsed ? h("span", { class: "badge" }, "break used") : null,
      h("span", { class: "badge wins" }, `${seat.roundWins} round${seat.roundWins === 1 ? "" : "s"} won`),
    ];
    return h(
      "section",
      { class: `seat${seat.seat === seating.viewer ? " mine" : ""}`, "data-seat": seat.seat },
      h("h3", {}, nameOf(seating.names, seat.seat), ...badges),
      h("div", { class: "label" }, `hand (${seat.handCount})`),
      cards(seat.hand, seat.handCount),
      seat.actCount > 0 ? h("div", { class: "label" }, `act claiming ${seat.actClaim}`) : null,
      seat.actCount > 0 ? cards(seat.act, seat.actCount) : null,
      seat.seat === view.swapper && view.swapTaken ? h("div", { class: "label" }, `took ${cardWord(view.swapTaken)} blind`) : null,
    );
  });
  const winner = view.winner === undefined ? null : h("p", { class: "winner" }, `${nameOf(seating.names, view.winner)} wins the game`);
  return h("div", { class: "game smoke-and-mirrors" }, h("p", { class: "facts" }, facts.join(" · ")), winner, h("div", { class: "seats" }, ...seats));
}

export const smokeAndMirrors: GameUi = { package: ViewSchema.typeName.replace(/\.View$/, ""), drawView };
