// Smoke & Mirrors at the table: seats with their hands and acts, cards as
// pictures (hidden ones as backs), and each event in words.
import { isMessage, type Message } from "@bufbuild/protobuf";
import {
  ActChallengedSchema,
  ActCardsSchema,
  ActPerformedSchema,
  ActRevealedSchema,
  BlindCardTakenSchema,
  BreakTakenSchema,
  type Card,
  CardGivenSchema,
  CardsSwappedSchema,
  ChallengeSchema,
  DeclineSwapSchema,
  GiveCardSchema,
  GivenCardSchema,
  HandDealtSchema,
  LeaveRoundSchema,
  PerformActSchema,
  Phase,
  Pile,
  PlayerEliminatedSchema,
  PlayerLeftRoundSchema,
  RoundDealtSchema,
  RoundWonSchema,
  SwapChoiceSchema,
  SwapDeclinedSchema,
  SwapDetailSchema,
  SwapOfferedSchema,
  SwapStartedSchema,
  TakeBlindSchema,
  TakeBreakSchema,
  TakenCardSchema,
  type View,
  ViewSchema,
} from "@cardroom/client/gen/cardroom/smoke_and_mirrors/v1/smoke_and_mirrors_pb.js";
import { cardBack, cardFace, mirror, skull, star, swirl } from "../cards.js";
import { h } from "../dom.js";
import { enumWord, type GameUi, list, nameOf, type Seating } from "./ui.js";

const PILES: Record<number, { word: string; color: string; picture: (color: string) => SVGElement }> = {
  [Pile.STARS]: { word: "Stars", color: "#c8961a", picture: star },
  [Pile.SWIRLS]: { word: "Swirls", color: "#2b7bb9", picture: swirl },
  [Pile.SKULLS]: { word: "Skulls", color: "#5b5b5b", picture: skull },
};

export function cardWord(card: Card): string {
  const pile = PILES[card.pile]?.word ?? "?";
  return card.value === 0 ? `${pile} mirror` : `${pile} ${card.value}`;
}

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
      seat.active ? null : h("span", { class: "badge out" }, "out of the round"),
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

function narrate(message: Message, names: string[]): string | undefined {
  const who = (seat: number | undefined) => nameOf(names, seat);
  if (isMessage(message, RoundDealtSchema)) {
    return `Round ${message.round}: the cards are dealt to ${list(message.seats.map(who))}; ${who(message.startSeat)} starts.`;
  }
  if (isMessage(message, HandDealtSchema)) return `${who(message.seat)} holds ${list(message.cards.map(cardWord))}.`;
  if (isMessage(message, ActPerformedSchema)) {
    const n = message.cardCount;
    return `${who(message.seat)} performs an act of ${n} card${n === 1 ? "" : "s"}, claiming ${message.claim}.`;
  }
  if (isMessage(message, ActCardsSchema)) return `${who(message.seat)}'s act is ${list(message.cards.map(cardWord))}.`;
  if (isMessage(message, BreakTakenSchema)) return `${who(message.seat)} takes a break.`;
  if (isMessage(message, ActChallengedSchema)) {
    const verdict = message.actWasTrue ? "the act was true" : "the act was a bluff";
    return `${who(message.challenger)} challenges ${who(message.actor)}'s claim of ${message.claim}: ${verdict}, and ${who(message.eliminated)} leaves the round.`;
  }
  if (isMessage(message, ActRevealedSchema)) return `${who(message.actor)}'s act is shown: ${list(message.cards.map(cardWord))}.`;
  if (isMessage(message, SwapStartedSchema)) return `${who(message.seat)} swaps: takes one of ${who(message.eliminated)}'s cards blind, then gives one back.`;
  if (isMessage(message, BlindCardTakenSchema)) return `${who(message.seat)} takes a card blind from ${who(message.eliminated)}.`;
  if (isMessage(message, TakenCardSchema)) return `${who(message.seat)} took ${message.card ? cardWord(message.card) : "a card"}.`;
  if (isMessage(message, CardGivenSchema)) return `${who(message.seat)} gives ${who(message.eliminated)} a card back.`;
  if (isMessage(message, GivenCardSchema)) return `${who(message.seat)} gave ${message.card ? cardWord(message.card) : "a card"}.`;
  // Rules version smoke-and-mirrors/1, still told for its games:
  if (isMessage(message, SwapOfferedSchema)) return `${who(message.seat)} chooses to swap a card with ${who(message.eliminated)}.`;
  if (isMessage(message, SwapChoiceSchema)) return `${who(message.seat)} gives ${message.give ? cardWord(message.give) : "a card"}.`;
  if (isMessage(message, SwapDeclinedSchema)) return `${who(message.seat)} declines to swap.`;
  if (isMessage(message, CardsSwappedSchema)) return `${who(message.seat)} takes a card blind from ${who(message.eliminated)}.`;
  if (isMessage(message, SwapDetailSchema)) {
    return `The swap: ${message.taken ? cardWord(message.taken) : "?"} taken, ${message.given ? cardWord(message.given) : "?"} given.`;
  }
  if (isMessage(message, PlayerLeftRoundSchema)) {
    return `${who(message.seat)} has left the game and leaves the round; ${message.cardsRemoved} card${message.cardsRemoved === 1 ? "" : "s"} leave unseen.`;
  }
  if (isMessage(message, PlayerEliminatedSchema)) {
    return `${who(message.seat)} is out of the round; ${message.cardsRemoved} card${message.cardsRemoved === 1 ? "" : "s"} leave unseen.`;
  }
  if (isMessage(message, RoundWonSchema)) {
    return message.seat === undefined ? `Round ${message.round} ends with no winner.` : `${who(message.seat)} wins round ${message.round}.`;
  }
  return undefined;
}

function describeAction(command: Message): string | undefined {
  if (isMessage(command, ChallengeSchema)) return "Challenge the last act";
  if (isMessage(command, PerformActSchema)) return `Act: ${list(command.cards.map(cardWord))}`;
  if (isMessage(command, TakeBreakSchema)) return "Take a break";
  if (isMessage(command, TakeBlindSchema)) return "Swap: take a card blind, then give one back";
  if (isMessage(command, GiveCardSchema)) return `Give ${command.card ? cardWord(command.card) : "?"} back`;
  if (isMessage(command, DeclineSwapSchema)) return "Decline the swap";
  if (isMessage(command, LeaveRoundSchema)) return "Leave the round";
  return undefined;
}

export const smokeAndMirrors: GameUi = { package: ViewSchema.typeName.replace(/\.View$/, ""), drawView, narrate, describeAction };
