// Smoke & Mirrors in words: each event, each command, cards as "Stars 3".
import { isMessage, type Message } from "@bufbuild/protobuf";
import {
  ActCardsSchema,
  ActChallengedSchema,
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
  ViewSchema,
} from "../gen/cardroom/smoke_and_mirrors/v1/smoke_and_mirrors_pb.js";
import type { GameWords } from "./game.js";
import { listing as list, nameOf } from "./words.js";

export const PILE_WORDS: Record<number, string> = {
  [Pile.STARS]: "Stars",
  [Pile.SWIRLS]: "Swirls",
  [Pile.SKULLS]: "Skulls",
};

/** "Stars 3", "Skulls mirror". */
export function cardWord(card: Card): string {
  const pile = PILE_WORDS[card.pile] ?? "?";
  return card.value === 0 ? `${pile} mirror` : `${pile} ${card.value}`;
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

export const smokeAndMirrors: GameWords = { package: ViewSchema.typeName.replace(/\.View$/, ""), narrate, describeAction };
