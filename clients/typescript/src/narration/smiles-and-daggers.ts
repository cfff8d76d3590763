// Smiles & Daggers in words: each event and command, cards as "Lady, smile".
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
  Family,
  FamilyChosenSchema,
  GameEndedSchema,
  GameEndReason,
  OpponentChallengedSchema,
  Orientation,
  PassBetSchema,
  PlaceBetSchema,
  Rank,
  RecoverCardSchema,
  SkipTurnSchema,
  StartSeatChosenSchema,
  TurnEndedSchema,
  TurnSkippedSchema,
  TurnStartedSchema,
  ViewSchema,
} from "../gen/cardroom/smiles_and_daggers/v1/smiles_and_daggers_pb.js";
import type { GameWords } from "./game.js";
import { enumWord, listing as list, nameOf } from "./words.js";

export const rankWord = (rank: Rank): string => enumWord(Rank, rank);
export const familyWord = (family: Family): string => enumWord(Family, family);
export const orientationWord = (orientation: Orientation): string => enumWord(Orientation, orientation).toLowerCase();

/** "smile on current, dagger on opponent" for a bet's shape. */
export function shapeWords(shape: BetShape): string {
  const words = enumWord(BetShape, shape).toLowerCase();
  return words.replace(/ (current|opponent|both)/g, " on $1").replace(" on current dagger", " on current, dagger");
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

export const smilesAndDaggers: GameWords = { package: ViewSchema.typeName.replace(/\.View$/, ""), narrate, describeAction };
