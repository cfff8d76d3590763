// Smile Life in words: each event and command, cards as "Salary 3" or "Flirt (bar)".
import { isMessage, type Message } from "@bufbuild/protobuf";
import {
  AcquisitionPaidSchema,
  AnnounceSchema,
  BarterStartedSchema,
  BarteredCardsSchema,
  CardDiscardedSchema,
  CardDrawnSchema,
  CardPlayedSchema,
  CardRemovedFromGameSchema,
  CardsBarteredSchema,
  CardsDealtSchema,
  CasinoBetPlacedSchema,
  CasinoBetReturnedSchema,
  CasinoBetSchema,
  CasinoResolvedSchema,
  ChooseBarterPartnerSchema,
  ChooseLuckCardSchema,
  DealtCardsSchema,
  DeclineSchema,
  Destination,
  DiscardFromHandSchema,
  DiscardTakenSchema,
  DivorceSchema,
  DrawCardSchema,
  DrawnCardSchema,
  DrawPileSchema,
  FlirtStolenSchema,
  GameEndedSchema,
  GiveSalarySchema,
  HandsRedealtSchema,
  HandsShownSchema,
  JournalistAnnouncedSchema,
  LuckCardChosenSchema,
  LuckCardsDrawnSchema,
  LuckCardsSchema,
  MalusMovedSchema,
  MissTurnSchema,
  type Payment,
  PileShownSchema,
  PlayCardSchema,
  PrizeTurnedOverSchema,
  ProtectedCardSchema,
  RedealtCardsSchema,
  ResignSchema,
  RiverCardDealtSchema,
  RiverCardTakenSchema,
  RiverDiscardedSchema,
  SalaryGivenSchema,
  SetAsideSchema,
  ShownHandsSchema,
  ShownPileSchema,
  Step,
  StepClosedSchema,
  StepOpenedSchema,
  StopAdulterySchema,
  TakeDiscardSchema,
  TakeFromDiscardSchema,
  TakeRevengeSchema,
  TakeRiverCardSchema,
  TurnEndedSchema,
  TurnMissedSchema,
  TurnStartedSchema,
  TurnsToMissSchema,
  ViewSchema,
  Zone,
} from "../gen/cardroom/smile_life/v1/smile_life_pb.js";
import type { GameWords } from "./game.js";
import { enumWord, listing as list, nameOf } from "./words.js";

const WORDS: Record<string, string> = {
  study_single: "Studies",
  study_double: "Studies x2",
  barman: "Bartender",
  grand_prof: "Grand prof",
  house_small_green: "Small house (green)",
  house_small_pink: "Small house (pink)",
  house_medium_orange: "House (orange)",
  house_medium_white: "House (white)",
  house_villa: "Villa",
  special_piston: "Piston",
  special_barter: "Barter",
  marriage_bourg_la_reine: "Marriage (Bourg-la-Reine)",
  marriage_bourg_madame: "Marriage (Bourg-Madame)",
  marriage_corps_nuds: "Marriage (Corps-Nuds)",
  marriage_fourqueux: "Marriage (Fourqueux)",
  marriage_montcuq: "Marriage (Montcuq)",
  marriage_monteton: "Marriage (Monteton)",
  marriage_sainte_verge: "Marriage (Sainte-Verge)",
  flirt_camping: "Flirt (campsite)",
  trip_new_york: "Trip (New York)",
};

const JOBS = new Set([
  "writer", "architect", "astronaut", "lawyer", "bandit", "barman", "purchasing_manager", "sales_manager", "researcher",
  "surgeon", "designer", "mechanic", "guru", "grand_prof", "gardener", "journalist", "doctor", "medium", "soldier",
  "pharmacist", "airline_pilot", "pizza_maker", "plumber", "police_officer", "maths_teacher", "french_teacher",
  "english_teacher", "history_teacher", "waiter", "stripper",
]);

function capital(words: string): string {
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The card's family ("job", "salary", "flirt", ...), from its id. */
export function familyOf(card: string): string {
  if (JOBS.has(card)) return "job";
  if (card === "adultery") return "adultery";
  if (card === "excellence_prize" || card === "legion_of_honour") return "distinction";
  return card.split("_")[0] ?? "";
}

/** "Salary 3", "Flirt (bar)", "Designer", "Child (Diana)"; "a hidden card" for "". */
export function cardWord(card: string): string {
  if (!card) return "a hidden card";
  const known = WORDS[card];
  if (known) return known;
  const [head, ...rest] = card.split("_");
  const tail = rest.join(" ");
  switch (familyOf(card)) {
    case "salary":
      return `Salary ${tail}`;
    case "flirt":
    case "trip":
      return `${capital(head ?? "")} (${tail.replace(/\b\w/g, (c) => c.toUpperCase())})`;
    case "child":
      return `Child (${capital(tail)})`;
    case "pet":
    case "malus":
    case "special":
      return capital(tail);
    default:
      return capital(card.replace(/_/g, " "));
  }
}

const STEP_WORDS: Record<number, string> = {
  [Step.PLAY_HELD]: "play the card held",
  [Step.RAINBOW]: "up to 3 more plays (rainbow)",
  [Step.CASINO_BET]: "may bet on the casino",
  [Step.LUCK]: "choose one of luck's cards",
  [Step.SHOOTING_STAR]: "take a card from the discard pile (shooting star)",
  [Step.ASTRONAUT]: "may take a card from the discard pile (astronaut)",
  [Step.PISTON]: "may place a job by string-pulling",
  [Step.BARTER]: "choose a barter partner",
  [Step.MANAGER_BARTER]: "may barter (manager)",
  [Step.BARTER_DRAW]: "barter cards drawn at random",
  [Step.TSUNAMI]: "tsunami: hands dealt again",
  [Step.REVENGE]: "pass a malus on (revenge)",
  [Step.BIRTHDAY_GIFT]: "give a salary (birthday)",
  [Step.RESEARCHER_DISCARD]: "discard a card under the lost job",
  [Step.JOURNALIST]: "may announce what others hold, true or false (journalist)",
};

export function stepWords(step: Step): string {
  return STEP_WORDS[step] ?? enumWord(Step, step).toLowerCase();
}

function cards(list_: string[]): string {
  return list_.map(cardWord).join(", ") || "nothing";
}

function paymentWords(payment: Payment | undefined): string {
  if (payment === undefined) return "";
  if (payment.free) return " for free";
  const parts = payment.salaryLevels.map((level) => `Salary ${level}`);
  if (payment.inheritance) parts.push("the inheritance");
  return parts.length ? ` paying ${parts.join(" + ")}` : "";
}

function narrate(message: Message, names: string[]): string | undefined {
  const who = (seat: number | undefined) => nameOf(names, seat);
  if (isMessage(message, CardsDealtSchema)) {
    const aside = message.setAsideCount ? `; ${message.setAsideCount} cards are set aside` : "";
    return `Everyone is dealt ${message.handSize} cards; the draw pile holds ${message.drawPileCount}${aside}.`;
  }
  if (isMessage(message, DealtCardsSchema)) return `${who(message.seat)} is dealt ${cards(message.cards)}.`;
  if (isMessage(message, DrawPileSchema)) return `The draw pile, top first: ${cards(message.cards)}.`;
  if (isMessage(message, SetAsideSchema)) return `Set aside: ${cards(message.cards)}.`;
  if (isMessage(message, RiverCardDealtSchema)) return `${cardWord(message.card)} is dealt into the river.`;
  if (isMessage(message, RiverDiscardedSchema)) return "Nobody took from the river for a round: it goes to the discard pile.";
  if (isMessage(message, TurnStartedSchema)) return `Turn ${message.turn}: ${who(message.seat)} plays.`;
  if (isMessage(message, TurnMissedSchema)) return `${who(message.seat)} misses a turn.`;
  if (isMessage(message, TurnEndedSchema)) return `${who(message.seat)}'s turn ends.`;
  if (isMessage(message, CardDrawnSchema)) return `${who(message.seat)} draws a card.`;
  if (isMessage(message, DrawnCardSchema)) return `${who(message.seat)} drew ${cardWord(message.card)}.`;
  if (isMessage(message, DiscardTakenSchema)) return `${who(message.seat)} takes ${cardWord(message.card)} from the discard pile.`;
  if (isMessage(message, RiverCardTakenSchema)) return `${who(message.seat)} takes ${cardWord(message.card)} from the river.`;
  if (isMessage(message, CardPlayedSchema)) {
    const card = cardWord(message.card);
    if (message.destination === Destination.DISCARD) return `${who(message.seat)} discards ${card}.`;
    if (message.destination === Destination.MALUS) {
      if (message.card === "malus_terrorist_attack" || message.target === undefined) {
        return `${who(message.seat)} plays ${card}${message.target === undefined ? "" : `, naming ${who(message.target)}`}: every child leaves the game.`;
      }
      return `${who(message.seat)} plays ${card} on ${who(message.target)}.`;
    }
    return `${who(message.seat)} plays ${card} to their life${message.byPiston ? " by string-pulling" : ""}.`;
  }
  if (isMessage(message, CasinoBetPlacedSchema)) return `${who(message.seat)} bets a salary face down on the casino.`;
  if (isMessage(message, CasinoBetSchema)) return `${who(message.seat)}'s bet is ${cardWord(message.card)}.`;
  if (isMessage(message, CasinoResolvedSchema)) {
    return `The casino: ${who(message.firstSeat)} bet ${cardWord(message.firstCard)}, ${who(message.secondSeat)} bet ${cardWord(message.secondCard)}; ${who(message.winner)} wins both.`;
  }
  if (isMessage(message, CasinoBetReturnedSchema)) return `${who(message.seat)}'s unmatched bet (${cardWord(message.card)}) comes back as a salary.`;
  if (isMessage(message, FlirtStolenSchema)) return `${who(message.seat)} takes ${who(message.fromSeat)}'s ${cardWord(message.card)}.`;
  if (isMessage(message, AcquisitionPaidSchema)) {
    return `${who(message.seat)} gets ${cardWord(message.card)}${paymentWords({ salaryLevels: message.salaryLevels, inheritance: message.inheritance, free: message.free } as Payment)}.`;
  }
  if (isMessage(message, CardDiscardedSchema)) {
    const from = message.zone === Zone.HAND ? "from their hand" : `(${enumWord(Zone, message.zone).toLowerCase()})`;
    return `${who(message.seat)} loses ${cardWord(message.card)} ${from} to the discard pile.`;
  }
  if (isMessage(message, PrizeTurnedOverSchema)) return `${who(message.seat)}'s excellence prize is turned over.`;
  if (isMessage(message, CardRemovedFromGameSchema)) return `${who(message.seat)}'s ${cardWord(message.card)} leaves the game.`;
  if (isMessage(message, TurnsToMissSchema)) return `${who(message.seat)} must miss ${message.count} turn${message.count === 1 ? "" : "s"}.`;
  if (isMessage(message, MalusMovedSchema)) return `${who(message.seat)} takes revenge: ${cardWord(message.card)} goes to ${who(message.target)}.`;
  if (isMessage(message, HandsShownSchema)) return `${who(message.seat)}, the journalist, looks at every other hand.`;
  if (isMessage(message, JournalistAnnouncedSchema)) {
    return `${who(message.seat)}, the journalist, announces: "${who(message.about)} ${message.holds ? "holds" : "does not hold"} ${cardWord(message.card)}" (unchecked).`;
  }
  if (isMessage(message, ShownHandsSchema)) return message.hands.map((hand) => `${who(hand.seat)} holds ${cards(hand.cards)}.`).join(" ") || "No hand to see.";
  if (isMessage(message, PileShownSchema)) return `${who(message.seat)}, the medium, looks at the next ${message.count} cards.`;
  if (isMessage(message, ShownPileSchema)) return `Next in the draw pile: ${cards(message.cards)}.`;
  if (isMessage(message, LuckCardsDrawnSchema)) return `${who(message.seat)} tries their luck with the next ${message.count} cards.`;
  if (isMessage(message, LuckCardsSchema)) return `Luck shows ${cards(message.cards)}.`;
  if (isMessage(message, LuckCardChosenSchema)) return `${who(message.seat)} keeps ${cardWord(message.card)}; ${cards(message.discarded)} go to the discard pile.`;
  if (isMessage(message, BarterStartedSchema)) return `${who(message.seat)} barters with ${who(message.partner)}${message.protected ? ", keeping one card out of it" : ""}.`;
  if (isMessage(message, ProtectedCardSchema)) return `${who(message.seat)} keeps ${cardWord(message.card)} out of the barter.`;
  if (isMessage(message, CardsBarteredSchema)) return `${who(message.seat)} and ${who(message.partner)} each draw a card from the other.`;
  if (isMessage(message, BarteredCardsSchema)) return `${who(message.seat)} gets ${cardWord(message.toSeat)}; ${who(message.partner)} gets ${cardWord(message.toPartner)}.`;
  if (isMessage(message, HandsRedealtSchema)) return "Tsunami: every hand is gathered and dealt back.";
  if (isMessage(message, RedealtCardsSchema)) return `${who(message.seat)}'s new hand: ${cards(message.cards)}.`;
  if (isMessage(message, SalaryGivenSchema)) return `${who(message.seat)} gives ${who(message.toSeat)} a Salary ${message.level} for their birthday.`;
  if (isMessage(message, StepOpenedSchema)) {
    const other = message.otherSeat !== undefined ? ` (${who(message.otherSeat)})` : "";
    return `${who(message.seat)}: ${stepWords(message.step)}${other}.`;
  }
  if (isMessage(message, StepClosedSchema)) return `${who(message.seat)} is done: ${stepWords(message.step)}.`;
  if (isMessage(message, GameEndedSchema)) {
    const scores = message.smiles.map((smiles, seat) => `${who(seat)} ${smiles}`).join(", ");
    return `The game ends. Smiles: ${scores}. ${list(message.winners.map(who)) || "Nobody"} won.`;
  }
  return undefined;
}

function describeAction(command: Message, names: string[]): string | undefined {
  const who = (seat: number | undefined) => nameOf(names, seat);
  if (isMessage(command, DrawCardSchema)) return "Draw a card";
  if (isMessage(command, TakeDiscardSchema)) return "Take the top discard and play it";
  if (isMessage(command, TakeRiverCardSchema)) return `Take ${cardWord(command.card)} from the river`;
  if (isMessage(command, PlayCardSchema)) {
    const card = cardWord(command.card);
    if (command.destination === Destination.DISCARD) return `Discard ${card}`;
    if (command.destination === Destination.CASINO) return `Bet ${card} on the casino`;
    if (command.destination === Destination.MALUS) {
      if (command.card === "malus_terrorist_attack") return `Play ${card}${command.target === undefined ? "" : `, naming ${who(command.target)}`}`;
      return command.target === undefined ? `Play ${card}` : `Play ${card} on ${who(command.target)}`;
    }
    const steal = command.stealFrom !== undefined ? `, taking ${who(command.stealFrom)}'s flirt` : "";
    return `Play ${card} to your life${steal}${paymentWords(command.payment)}`;
  }
  if (isMessage(command, ResignSchema)) return `Resign from your job${command.discard ? `, discarding ${cardWord(command.discard)}` : ""}`;
  if (isMessage(command, DivorceSchema)) return "Divorce (your turn ends)";
  if (isMessage(command, StopAdulterySchema)) return "Stop your adultery";
  if (isMessage(command, DeclineSchema)) return "Decline";
  if (isMessage(command, ChooseLuckCardSchema)) return `Keep ${cardWord(command.card)}${command.topDiscard ? `, ${cardWord(command.topDiscard)} on top of the discard pile` : ""}`;
  if (isMessage(command, TakeFromDiscardSchema)) return `Take ${cardWord(command.card)} from the discard pile`;
  if (isMessage(command, ChooseBarterPartnerSchema)) return `Barter with ${who(command.partner)}${command.protect ? `, keeping ${cardWord(command.protect)}` : ""}`;
  if (isMessage(command, TakeRevengeSchema)) return `Pass ${cardWord(command.malus)} on to ${who(command.target)}`;
  if (isMessage(command, GiveSalarySchema)) return `Give a Salary ${command.level}`;
  if (isMessage(command, DiscardFromHandSchema)) return `Discard ${cardWord(command.card)} under your job`;
  if (isMessage(command, MissTurnSchema)) return "Miss this turn";
  if (isMessage(command, AnnounceSchema)) return `Announce "${who(command.seat)} ${command.holds ? "holds" : "does not hold"} ${cardWord(command.card)}"`;
  return undefined;
}

export const smileLife: GameWords = { package: ViewSchema.typeName.replace(/\.View$/, ""), narrate, describeAction };
