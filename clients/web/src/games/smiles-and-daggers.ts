// Smiles & Daggers at the table: families, coins, hands, the challenge on
// the table and its bets, cards as pictures (hidden ones as backs), and each
// event in words.
import { isMessage, type Message } from "@bufbuild/protobuf";
import {
  BetPassedSchema,
  BetPlacedSchema,
  BetSettledSchema,
  BetShape,
  BettingOpenedSchema,
  CardCommittedSchema,
  CardEliminatedSchema,
  CardRecoveredSchema,
  CardsRevealedSchema,
  ChallengeOpponentSchema,
  ChooseFamilySchema,
  CoinsPaidSchema,
  CommitCardSchema,
  CommittedCardSchema,
  type CommitmentView,
  Family,
  FamilyChosenSchema,
  GameEndedSchema,
  GameEndReason,
  OpponentChallengedSchema,
  Orientation,
  PassBetSchema,
  Phase,
  PlaceBetSchema,
  Rank,
  RecoverCardSchema,
  SkipTurnSchema,
  StartSeatChosenSchema,
  TurnEndedSchema,
  TurnSkippedSchema,
  TurnStartedSchema,
  type View,
  ViewSchema,
} from "@cardroom/client/gen/cardroom/smiles_and_daggers/v1/smiles_and_daggers_pb.js";
import { cardBack, cardFace, cardSlot, crown, gem, shield } from "../cards.js";
import { h } from "../dom.js";
import { enumWord, type GameUi, list, nameOf, type Seating } from "./ui.js";

const FAMILY_COLORS: Record<number, string> = {
  [Family.DRAGON]: "#b3261e",
  [Family.KRAKEN]: "#0f7c80",
  [Family.PEGACORN]: "#9c3fa8",
  [Family.HYDRA]: "#2e7d32",
  [Family.CHIMERA]: "#d2691e",
  [Family.GRIFFIN]: "#a07c10",
};
const PICTURES: Record<number, (color: string) => SVGElement> = {
  [Rank.LORD]: crown,
  [Rank.LADY]: gem,
  [Rank.KNIGHT]: shield,
};
const ORIENTATION_BANDS: Record<number, { text: string; color: string }> = {
  [Orientation.SMILE]: { text: "smile", color: "#2e7d32" },
  [Orientation.DAGGER]: { text: "dagger", color: "#b3261e" },
};

const rankWord = (rank: Rank) => enumWord(Rank, rank);
const familyWord = (family: Family) => enumWord(Family, family);
const orientationWord = (orientation: Orientation) => enumWord(Orientation, orientation).toLowerCase();

function shapeWords(shape: BetShape): string {
  const words = enumWord(BetShape, shape).toLowerCase();
  return words.replace(/ (current|opponent|both)/g, " on $1").replace(" on current dagger", " on current, dagger");
}

function drawCard(rank: Rank, family: Family, orientation?: Orientation): SVGElement {
  const color = FAMILY_COLORS[family] ?? "#444";
  return cardFace({
    corner: rankWord(rank).slice(0, 2),
    caption: rankWord(rank),
    color,
    picture: (PICTURES[rank] ?? shield)(color),
    band: orientation === undefined ? undefined : ORIENTATION_BANDS[orientation],
  });
}

function commitment(view: CommitmentView | undefined, family: Family, names: string[]): HTMLElement {
  if (view === undefined) return h("div");
  let card: SVGElement;
  if (view.eliminated) card = cardSlot("eliminated");
  else if (!view.committed) card = cardSlot("not played yet");
  else if (view.rank === Rank.UNSPECIFIED) card = cardBack();
  else card = drawCard(view.rank, family, view.orientation);
  const note = view.eliminated ? "eliminated" : view.committed ? "played" : "choosing…";
  return h("div", { class: "commitment" }, h("div", { class: "label" }, `${nameOf(names, view.seat)}: ${note}`), card);
}

function drawView(message: Message, seating: Seating): HTMLElement {
  const view = message as View;
  const familyOf = (seat: number) => view.seats[seat]?.family ?? Family.UNSPECIFIED;
  const facts = [`Turn ${view.turn}`, enumWord(Phase, view.phase)];
  if (view.currentSeat !== undefined) facts.push(`${nameOf(seating.names, view.currentSeat)} holds the tile`);
  if (view.awaiting.length) facts.push(`waiting for ${list(view.awaiting.map((s) => nameOf(seating.names, s)))}`);
  const seats = view.seats.map((seat) => {
    const color = FAMILY_COLORS[seat.family] ?? "#777";
    const hand = h("div", { class: "cards" });
    if (seat.handVisible) hand.append(...seat.hand.map((rank) => drawCard(rank, seat.family)));
    else for (let i = 0; i < seat.handCount; i += 1) hand.append(cardBack());
    const gone = [...seat.eliminated.map(rankWord), ...seat.lost.map((r) => `${rankWord(r)} (lost)`)];
    return h(
      "section",
      { class: `seat${seat.seat === seating.viewer ? " mine" : ""}`, "data-seat": seat.seat, style: `border-color: ${color}` },
      h(
        "h3",
        {},
        nameOf(seating.names, seat.seat),
        h("span", { class: "badge", style: `background: ${color}; color: #fff` }, seat.family ? familyWord(seat.family) : "no family yet"),
        h("span", { class: "badge coins" }, `${seat.coins} coin${seat.coins === 1 ? "" : "s"}`),
        view.awaiting.includes(seat.seat) ? h("span", { class: "badge turn" }, "to act") : null,
      ),
      h("div", { class: "label" }, `hand (${seat.handCount})`),
      hand,
      gone.length ? h("div", { class: "label" }, `out of the game: ${gone.join(", ")}`) : null,
    );
  });
  const challenge = view.challenge;
  const table = challenge
    ? h(
        "section",
        { class: "challenge" },
        h("h3", {}, "The challenge"),
        h(
          "div",
          { class: "cards" },
          commitment(challenge.current, familyOf(challenge.current?.seat ?? 0), seating.names),
          commitment(challenge.opponent, familyOf(challenge.opponent?.seat ?? 0), seating.names),
        ),
        challenge.bets.length
          ? h(
              "ul",
              { class: "bets" },
              ...challenge.bets.map((bet) =>
                h(
                  "li",
                  {},
                  `${nameOf(seating.names, bet.seat)}: ${bet.passed ? "passes" : `bets ${shapeWords(bet.shape)}`}`,
                  bet.settled ? (bet.correct ? " — right" : " — wrong") : "",
                ),
              ),
            )
          : null,
      )
    : null;
  const over = view.phase === Phase.OVER
    ? h("p", { class: "winner" }, `${list(view.winners.map((s) => nameOf(seating.names, s))) || "Nobody"} won (${enumWord(GameEndReason, view.endReason).toLowerCase()})`)
    : null;
  return h("div", { class: "game smiles-and-daggers" }, h("p", { class: "facts" }, facts.join(" · ")), over, table, h("div", { class: "seats" }, ...seats));
}

function narrate(message: Message, names: string[]): string | undefined {
  const who = (seat: number) => nameOf(names, seat);
  if (isMessage(message, StartSeatChosenSchema)) return `${who(message.seat)} receives the Smiles & Daggers tile and starts.`;
  if (isMessage(message, FamilyChosenSchema)) return `${who(message.seat)} takes the ${familyWord(message.family)} family.`;
  if (isMessage(message, TurnStartedSchema)) return `Turn ${message.turn}: ${who(message.seat)} holds the tile.`;
  if (isMessage(message, CardRecoveredSchema)) {
    return `${who(message.seat)} buys back a ${rankWord(message.rank)} for ${message.cost} coin${message.cost === 1 ? "" : "s"}.`;
  }
  if (isMessage(message, TurnSkippedSchema)) return `${who(message.seat)} has no cards and skips the turn.`;
  if (isMessage(message, OpponentChallengedSchema)) return `${who(message.currentSeat)} challenges ${who(message.opponentSeat)}.`;
  if (isMessage(message, CardCommittedSchema)) return `${who(message.seat)} plays a card face down.`;
  if (isMessage(message, CommittedCardSchema)) {
    return `${who(message.seat)}'s card is a ${rankWord(message.rank)}, ${orientationWord(message.orientation)}.`;
  }
  if (isMessage(message, BettingOpenedSchema)) {
    return message.bettors.length ? `Betting opens for ${list(message.bettors.map(who))}.` : "Nobody can bet.";
  }
  if (isMessage(message, BetPlacedSchema)) return `${who(message.seat)} bets a Knight: ${shapeWords(message.shape)}.`;
  if (isMessage(message, BetPassedSchema)) return `${who(message.seat)} does not bet.`;
  if (isMessage(message, CardsRevealedSchema)) {
    const play = (p: typeof message.current) => (p ? `${who(p.seat)} a ${rankWord(p.rank)} (${orientationWord(p.orientation)})` : "?");
    return `The cards are revealed: ${play(message.current)} against ${play(message.opponent)}.`;
  }
  if (isMessage(message, BetSettledSchema)) {
    return message.correct
      ? `${who(message.seat)}'s bet was right: ${message.coins} coin${message.coins === 1 ? "" : "s"}.`
      : `${who(message.seat)}'s bet was wrong; the Knight is lost.`;
  }
  if (isMessage(message, CardEliminatedSchema)) return `${who(message.seat)}'s ${rankWord(message.rank)} is eliminated.`;
  if (isMessage(message, CoinsPaidSchema)) return `${who(message.seat)} earns ${message.amount} coin${message.amount === 1 ? "" : "s"}.`;
  if (isMessage(message, TurnEndedSchema)) return `${who(message.seat)}'s turn ends; the cards go back to their hands.`;
  if (isMessage(message, GameEndedSchema)) {
    const winners = list(message.winners.map(who)) || "nobody";
    return `The game ends (${enumWord(GameEndReason, message.reason).toLowerCase()}): ${winners} won.`;
  }
  return undefined;
}

function describeAction(command: Message, names: string[]): string | undefined {
  if (isMessage(command, ChooseFamilySchema)) return `Take the ${familyWord(command.family)} family`;
  if (isMessage(command, RecoverCardSchema)) return `Buy back a ${rankWord(command.rank)}`;
  if (isMessage(command, SkipTurnSchema)) return "Skip the turn";
  if (isMessage(command, ChallengeOpponentSchema)) return `Challenge ${nameOf(names, command.target)}`;
  if (isMessage(command, CommitCardSchema)) return `Play a ${rankWord(command.rank)}, ${orientationWord(command.orientation)}`;
  if (isMessage(command, PlaceBetSchema)) return `Bet ${shapeWords(command.shape)}`;
  if (isMessage(command, PassBetSchema)) return "Do not bet";
  return undefined;
}

export const smilesAndDaggers: GameUi = { package: ViewSchema.typeName.replace(/\.View$/, ""), drawView, narrate, describeAction };
