// Smile Life at the table: each seat's life (studies, job, salaries, flirts,
// marriage, children, acquisitions, distinctions, maluses) and smiles, its
// hand (face up for its own seat, backs for everyone else), the draw and
// discard piles, the river and the casino, and each event in words.
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
  type Life,
  LuckCardChosenSchema,
  LuckCardsDrawnSchema,
  LuckCardsSchema,
  MalusMovedSchema,
  MissTurnSchema,
  type Payment,
  Phase,
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
  Stage,
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
  type View,
  ViewSchema,
  Zone,
} from "@cardroom/client/gen/cardroom/smile_life/v1/smile_life_pb.js";
import { cardBack, cardFace, crown, gem, shield, skull, star, swirl } from "../cards.js";
import { h } from "../dom.js";
import { enumWord, type GameUi, list, nameOf, type Seating } from "./ui.js";

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

interface Family {
  color: string;
  picture: (color: string) => SVGElement;
}

const FAMILIES: Record<string, Family> = {
  study: { color: "#2b7bb9", picture: star },
  job: { color: "#1f5f99", picture: crown },
  salary: { color: "#2e7d32", picture: gem },
  flirt: { color: "#c2185b", picture: gem },
  marriage: { color: "#ad1457", picture: crown },
  adultery: { color: "#6a1b9a", picture: swirl },
  child: { color: "#ef6c00", picture: star },
  pet: { color: "#8d6e63", picture: star },
  trip: { color: "#00838f", picture: swirl },
  house: { color: "#5d4037", picture: shield },
  distinction: { color: "#a07c10", picture: crown },
  malus: { color: "#5b5b5b", picture: skull },
  special: { color: "#7b1fa2", picture: swirl },
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

function familyOf(card: string): string {
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

function smilesOf(card: string): number {
  const family = familyOf(card);
  if (card === "pet_unicorn" || card === "house_villa" || card === "legion_of_honour") return 3;
  if (card === "excellence_prize") return 4;
  if (card.startsWith("house_medium")) return 2;
  return { job: 2, marriage: 3, child: 2, malus: 0, special: 0 }[family] ?? 1;
}

function drawCard(card: string): SVGElement {
  const family = FAMILIES[familyOf(card)] ?? { color: "#444", picture: star };
  const smiles = smilesOf(card);
  return cardFace({ corner: smiles ? `${smiles}☺` : "–", caption: cardWord(card), color: family.color, picture: family.picture(family.color) });
}

function chips(cards: string[], extra: (index: number) => string = () => ""): HTMLElement[] {
  return cards.map((card, index) => h("span", { class: "chip", style: `border: 1px solid ${FAMILIES[familyOf(card)]?.color ?? "#777"}; border-radius: 4px; padding: 0 4px; margin: 0 2px; white-space: nowrap` }, cardWord(card) + extra(index)));
}

function lifeRows(life: Life | undefined): HTMLElement[] {
  if (life === undefined) return [];
  const rows: [string, HTMLElement[]][] = [
    ["studies", chips(life.studies.map((study) => study.card))],
    ["job", life.job ? chips([life.job], () => (life.prizeActive ? " + excellence prize" : "")) : []],
    ["salaries", chips(life.salaries.map((salary) => salary.card), (i) => (life.salaries[i]?.invested ? " (invested)" : ""))],
    ["flirts", chips([...life.flirts, ...life.keptFlirts])],
    ["marriage", life.marriage ? chips([life.marriage]) : []],
    ["adultery", life.adultery ? chips([life.adultery, ...life.adulteryFlirts]) : []],
    ["children", chips(life.children)],
    ["pets", chips(life.pets)],
    ["houses", chips(life.houses)],
    ["trips", chips(life.trips)],
    ["distinctions", chips(life.distinctions)],
    ["maluses", chips(life.maluses)],
    ["used", chips(life.specials)],
  ];
  const out = rows.filter(([, items]) => items.length).map(([label, items]) => h("div", { class: "life" }, h("span", { class: "label" }, `${label}: `), ...items));
  const notes: string[] = [];
  if (life.inheritance) notes.push(`inheritance ${life.inheritance}`);
  if (life.missedTurns) notes.push(`misses ${life.missedTurns} turn${life.missedTurns === 1 ? "" : "s"}`);
  if (notes.length) out.push(h("div", { class: "label" }, notes.join(" · ")));
  return out;
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

function stepWords(step: Step): string {
  return STEP_WORDS[step] ?? enumWord(Step, step).toLowerCase();
}

function drawView(message: Message, seating: Seating): HTMLElement {
  const view = message as View;
  const who = (seat: number | undefined) => nameOf(seating.names, seat);
  const facts = [view.phase === Phase.TURN ? `Turn ${view.turn}` : enumWord(Phase, view.phase)];
  if (view.currentSeat !== undefined) facts.push(`${who(view.currentSeat)}'s turn`);
  if (view.phase === Phase.TURN && view.stage) facts.push(enumWord(Stage, view.stage).toLowerCase());
  const top = view.steps.at(-1);
  if (top) facts.push(`${who(top.seat)}: ${stepWords(top.step)}`);
  if (view.awaiting.length) facts.push(`waiting for ${list(view.awaiting.map(who))}`);
  const seats = view.seats.map((seat) => {
    const hand = h("div", { class: "cards" });
    if (seat.handVisible) hand.append(...seat.hand.map(drawCard));
    else for (let i = 0; i < seat.handCount; i += 1) hand.append(cardBack());
    return h(
      "section",
      { class: `seat${seat.seat === seating.viewer ? " mine" : ""}`, "data-seat": seat.seat },
      h(
        "h3",
        {},
        who(seat.seat),
        h("span", { class: "badge coins" }, `${seat.smiles} smile${seat.smiles === 1 ? "" : "s"}`),
        view.awaiting.includes(seat.seat) ? h("span", { class: "badge turn" }, "to act") : null,
      ),
      ...lifeRows(seat.life),
      h("div", { class: "label" }, `hand (${seat.handCount})${seat.knownCards.length ? ` — known: ${seat.knownCards.map(cardWord).join(", ")}` : ""}`),
      hand,
    );
  });
  const topDiscard = view.discardPile.at(-1);
  const table = h(
    "section",
    { class: "piles" },
    h("div", { class: "label" }, `draw pile: ${view.drawPileCount} · discard pile: ${view.discardPile.length}${topDiscard?.discardedBy !== undefined ? ` (top discarded by ${who(topDiscard.discardedBy)})` : ""}`),
    h("div", { class: "cards" }, ...(topDiscard ? [drawCard(topDiscard.card)] : []), ...view.river.map(drawCard), ...(view.heldCard ? [drawCard(view.heldCard)] : [])),
    view.river.length ? h("div", { class: "label" }, `river: ${view.river.map(cardWord).join(", ")}`) : null,
    view.heldCard ? h("div", { class: "label" }, `to be played at once: ${cardWord(view.heldCard)}`) : null,
    view.luckCards.length ? h("div", { class: "label" }, `luck shows: ${view.luckCards.map(cardWord).join(", ")}`) : null,
    view.casino?.open
      ? h("div", { class: "label" }, `casino (opened by ${who(view.casino.owner)})${view.casino.hasBet ? `: ${who(view.casino.bettor)} bet ${view.casino.betCard ? cardWord(view.casino.betCard) : "a hidden salary"}` : ""}${view.casino.hasSecondBet ? `, ${who(view.casino.secondBettor)} bet ${view.casino.secondBetCard ? cardWord(view.casino.secondBetCard) : "a hidden salary"}` : ""}`)
      : null,
  );
  const over = view.phase === Phase.OVER ? h("p", { class: "winner" }, `${list(view.winners.map(who)) || "Nobody"} won`) : null;
  return h("div", { class: "game smile-life" }, h("p", { class: "facts" }, facts.join(" · ")), over, table, h("div", { class: "seats" }, ...seats));
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

export const smileLife: GameUi = { package: ViewSchema.typeName.replace(/\.View$/, ""), drawView, narrate, describeAction };
