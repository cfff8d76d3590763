// Silver Dagger in words: each event and command, cards as "Zombie (4)".
import { isMessage, type Message } from "@bufbuild/protobuf";
import {
  AbilityStartedSchema,
  AddedFrom,
  CallVoteSchema,
  Card,
  CardAddedSchema,
  CardDrawnSchema,
  CardExchangedSchema,
  CardSelectedSchema,
  CardsDiscardedSchema,
  CardsLookedSchema,
  CardsShownSchema,
  CardsSwitchedSchema,
  CardsTurnedDownSchema,
  CardTurnedUpSchema,
  CardViewedSchema,
  ChooseCardSchema,
  ChooseVillageSchema,
  ConfirmExchangeSchema,
  DaggerPassedSchema,
  DaggerTurnedSchema,
  DirectionReversedSchema,
  DiscardDrawnSchema,
  DiscardTakenSchema,
  DrawCardSchema,
  ExchangeSchema,
  GameEndedSchema,
  GiveZombieSchema,
  HeldDiscardedSchema,
  LookAtCardsSchema,
  MagicianTargetedSchema,
  MultipleExchangeStartedSchema,
  PrivateDeckGrownSchema,
  RoundDealtSchema,
  RoundEndedSchema,
  RoundEndReason,
  RoundScoredSchema,
  SelectCardSchema,
  SlotCardSchema,
  SpyPeekSchema,
  StartMultipleExchangeSchema,
  StopViewingSchema,
  SwitchWithSchema,
  TakeDiscardSchema,
  TurnDaggerSchema,
  UseAbilitySchema,
  VillageFlippedSchema,
  VillagesRevealedSchema,
  ViewingStoppedSchema,
  ViewReason,
  ViewSchema,
  VoteCalledSchema,
  ZombieGivenSchema,
} from "../gen/cardroom/silver_dagger/v1/silver_dagger_pb.js";
import type { GameWords } from "./game.js";
import { enumWord, listing as list, nameOf } from "./words.js";

/** "4" for a Zombie, "÷2" for a Halfling: the werewolves a card attracts. */
export function worth(card: Card): string {
  return card === Card.HALFLING ? "÷2" : String(card - 1);
}

/** "Zombie (4)". */
export function cardWord(card: Card): string {
  if (card === Card.UNSPECIFIED) return "a hidden card";
  return `${enumWord(Card, card)} (${worth(card)})`;
}

export function positions(list_: number[]): string {
  return `${list_.length === 1 ? "card" : "cards"} ${list(list_.map((p) => String(p + 1)))}`;
}

const REASONS: Record<number, string> = {
  [ViewReason.SPY]: "Spy",
  [ViewReason.ELUSIVE_SEER]: "Elusive Seer",
  [ViewReason.MYSTIC_SEER]: "Mystic Seer",
  [ViewReason.MASTER_THIEF]: "Master Thief",
};

function narrate(message: Message, names: string[]): string | undefined {
  const who = (seat: number) => nameOf(names, seat);
  const whose = (owner: number, seat: number) => (owner === seat ? "their own" : `${who(owner)}'s`);
  if (isMessage(message, RoundDealtSchema)) {
    return `Round ${message.round}: five cards to every village, ${cardWord(message.discard)} starts the discard pile; ${who(message.startSeat)} starts.`;
  }
  if (isMessage(message, SlotCardSchema)) return message.card ? `The card is ${cardWord(message.card)}.` : "";
  if (isMessage(message, CardsLookedSchema)) return `${who(message.seat)} looks at two of their cards (${positions(message.positions)}).`;
  if (isMessage(message, CardViewedSchema)) {
    return `${who(message.seat)}'s ${REASONS[message.reason] ?? "ability"} views ${whose(message.target, message.seat)} card ${message.position + 1}.`;
  }
  if (isMessage(message, DaggerTurnedSchema)) return `${who(message.seat)} turns the silver dagger: play goes the other way round.`;
  if (isMessage(message, CardDrawnSchema)) return `${who(message.seat)} draws a card from ${message.privateDeck ? "their private deck" : "the deck"}.`;
  if (isMessage(message, DiscardTakenSchema)) return `${who(message.seat)} takes ${cardWord(message.card)} from the discard pile.`;
  if (isMessage(message, VoteCalledSchema)) return `${who(message.seat)} calls for a vote: everyone else has one more turn.`;
  if (isMessage(message, ZombieGivenSchema)) return `${who(message.seat)} gives their face-up Zombie to ${who(message.target)}.`;
  if (isMessage(message, HeldDiscardedSchema)) return `${who(message.seat)} discards ${cardWord(message.card)}.`;
  if (isMessage(message, AbilityStartedSchema)) {
    return `${who(message.seat)} uses the ability of ${cardWord(message.card)}${message.viaMagician ? " through the Magician" : ""}${message.noEffect ? ": it can do nothing now" : ""}.`;
  }
  if (isMessage(message, CardExchangedSchema)) {
    const placed = message.placed ? cardWord(message.placed) : "the card they hold";
    return `${who(message.seat)} puts ${placed} face ${message.faceUp ? "up" : "down"} in place of their card ${message.position + 1} and discards ${cardWord(message.discarded)}.`;
  }
  if (isMessage(message, MultipleExchangeStartedSchema)) return `${who(message.seat)} will exchange the card they hold for matching cards.`;
  if (isMessage(message, CardSelectedSchema)) return `${who(message.seat)} picks their card ${message.position + 1}.`;
  if (isMessage(message, CardsShownSchema)) return `${who(message.seat)} shows their ${positions(message.positions)}: ${list(message.cards.map(cardWord))}.`;
  if (isMessage(message, CardsDiscardedSchema)) return `${who(message.seat)} discards their ${positions(message.positions)}.`;
  if (isMessage(message, CardsTurnedDownSchema)) return `The cards do not all match: ${who(message.seat)} turns them face down again.`;
  if (isMessage(message, CardAddedSchema)) {
    if (message.source === AddedFrom.DECK) return `${who(message.seat)} also takes the deck's top card, unseen.`;
    const card = message.card ? cardWord(message.card) : "the card they hold";
    return `${who(message.seat)} adds ${card} to their village face ${message.faceUp ? "up" : "down"}.`;
  }
  if (isMessage(message, VillageFlippedSchema)) {
    return `${who(message.seat)}'s Flipper turns over ${whose(message.target, message.seat)} village: ${list(message.cards.map(cardWord))}.`;
  }
  if (isMessage(message, CardTurnedUpSchema)) {
    return `${who(message.seat)}'s Elusive Seer turns up ${cardWord(message.card)} in ${whose(message.target, message.seat)} village.`;
  }
  if (isMessage(message, MagicianTargetedSchema)) {
    return `${who(message.seat)}'s Magician turns up ${who(message.target)}'s card ${message.position + 1}: ${cardWord(message.card)}.`;
  }
  if (isMessage(message, CardsSwitchedSchema)) {
    return `${who(message.seat)} switches ${who(message.firstSeat)}'s card ${message.firstPosition + 1} with ${who(message.secondSeat)}'s card ${message.secondPosition + 1}.`;
  }
  if (isMessage(message, PrivateDeckGrownSchema)) return `${who(message.seat)} puts the deck's top card onto their private deck.`;
  if (isMessage(message, DirectionReversedSchema)) return `${who(message.seat)} reverses the direction of play.`;
  if (isMessage(message, ViewingStoppedSchema)) return `${who(message.seat)} views no second card.`;
  if (isMessage(message, RoundEndedSchema)) {
    return `Round ${message.round} ends: ${message.reason === RoundEndReason.CALL ? "the call has come round" : "the deck is empty"}.`;
  }
  if (isMessage(message, VillagesRevealedSchema)) {
    return `Every village is revealed: ${message.villages.map((v) => `${who(v.seat)} ${list(v.cards.map((c) => worth(c)))}`).join("; ")}.`;
  }
  if (isMessage(message, RoundScoredSchema)) {
    const call = message.caller === undefined ? "" : ` ${who(message.caller)}'s call ${message.callSucceeded ? "succeeds" : "fails"}.`;
    return `Round ${message.round} is scored:${call} ${message.scores.map((sc) => `${who(sc.seat)} ${sc.points} (total ${sc.total})`).join(", ")}.`;
  }
  if (isMessage(message, DaggerPassedSchema)) return `${who(message.seat)} takes the silver dagger${message.usable ? " and may turn it next round" : ""}.`;
  if (isMessage(message, GameEndedSchema)) {
    return `After four rounds: ${message.totals.map((t, seat) => `${who(seat)} ${t}`).join(", ")}. ${list(message.winners.map(who)) || "Nobody"} wins.`;
  }
  return undefined;
}

function describeAction(command: Message, names: string[]): string | undefined {
  const who = (seat: number) => nameOf(names, seat);
  if (isMessage(command, LookAtCardsSchema)) return `Look at your cards ${command.first + 1} and ${command.second + 1}`;
  if (isMessage(command, DrawCardSchema)) return command.privateDeck ? "Draw from your private deck" : "Draw from the deck";
  if (isMessage(command, TakeDiscardSchema)) return "Take the discard pile's top card";
  if (isMessage(command, CallVoteSchema)) return "Call for a vote";
  if (isMessage(command, GiveZombieSchema)) return `Give your Zombie (card ${command.position + 1}) away`;
  if (isMessage(command, SpyPeekSchema)) return `Spy: peek at ${who(command.seat)}'s card ${command.position + 1}`;
  if (isMessage(command, TurnDaggerSchema)) return "Turn the silver dagger";
  if (isMessage(command, DiscardDrawnSchema)) return "Discard the card";
  if (isMessage(command, UseAbilitySchema)) return "Use its ability";
  if (isMessage(command, ExchangeSchema)) return `Exchange it for your card ${command.position + 1}`;
  if (isMessage(command, StartMultipleExchangeSchema)) return "Exchange it for matching cards";
  if (isMessage(command, SelectCardSchema)) return `Pick your card ${command.position + 1}`;
  if (isMessage(command, ConfirmExchangeSchema)) return "Exchange for the cards picked";
  if (isMessage(command, ChooseVillageSchema)) return `Flip ${who(command.seat)}'s village`;
  if (isMessage(command, ChooseCardSchema)) return `Choose ${who(command.seat)}'s card ${command.position + 1}`;
  if (isMessage(command, SwitchWithSchema)) return `Switch it with your card ${command.position + 1}`;
  if (isMessage(command, StopViewingSchema)) return "View no second card";
  return undefined;
}

export const silverDagger: GameWords = { package: ViewSchema.typeName.replace(/\.View$/, ""), narrate, describeAction };
