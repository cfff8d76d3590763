"""Smiles & Daggers in words and cards, for one viewer (cardroom.domain.presentation).

Cards are drawn ``[♔ Lord]``, ``[♕ Lady]``, ``[♘ Knight]``; a challenge card
shows its side too, ``[♔ Lord ☺]`` smiling or ``[♘ Knight †]`` with the
dagger; a card face down that the viewer may not see is ``[??]``. A hand or
a commitment is drawn only when the viewer's own data holds it.
"""

from __future__ import annotations

from typing import Any

from google.protobuf.message import Message

from cardroom.domain.kernel import Event
from cardroom.domain.presentation import Names, Scene, listing, name, plural
from cardroom.domain.smiles_and_daggers.cards import (
    BEATS,
    PREDICTIONS,
    SMILE,
    VALUE,
    Family,
    Rank,
    label,
    recovery_cost,
)
from cardroom.domain.smiles_and_daggers.state import State
from cardroom.smiles_and_daggers.v1 import smiles_and_daggers_pb2 as pb

SYMBOLS: dict[int, str] = {pb.RANK_LORD: "♔", pb.RANK_LADY: "♕", pb.RANK_KNIGHT: "♘"}
SIDES: dict[int, str] = {pb.ORIENTATION_SMILE: "☺", pb.ORIENTATION_DAGGER: "†"}
HIDDEN = "[??]"
END_REASONS = {
    pb.GAME_END_REASON_NINE_COINS: "9 coins or more, and more than anyone else",
    pb.GAME_END_REASON_NO_CHALLENGE_POSSIBLE: "no challenge can happen any more",
    pb.GAME_END_REASON_ALL_SKIPPED: "everyone who could still act skipped",
    pb.GAME_END_REASON_NO_COINS_POSSIBLE: "no coin can change hands any more",
    pb.GAME_END_REASON_STALEMATE: "two rounds of turns changed no coin and no card",
    pb.GAME_END_REASON_OVERTIME: "the overtime is over with nobody strictly ahead",
    pb.GAME_END_REASON_TURN_CAP: "the turn cap is reached",
}


def rank_name(rank: int) -> str:
    return label(rank, Rank).capitalize()


def draw(rank: int, orientation: int = 0, *, short: bool = False) -> str:
    """``[♔ Lord ☺]``; short: ``[♔]``; unknown: ``[??]``."""
    if not rank:
        return HIDDEN
    side = f" {SIDES[orientation]}" if orientation in SIDES else ""
    named = "" if short else f" {rank_name(rank)}"
    return f"[{SYMBOLS.get(rank, '?')}{named}{side}]"


def draw_hand(ranks: list[int], *, short: bool = False) -> str:
    return " ".join(draw(r, short=short) for r in ranks) or "no cards"


def family_name(family: int) -> str:
    return label(family, Family).capitalize() if family else "no family yet"


def side_words(orientation: int) -> str:
    return "smiles" if orientation == SMILE else "draws the dagger"


def predicted(shape: int) -> tuple[int | None, int | None]:
    """The sides a bet shape predicts for (current, opponent); None: no prediction."""
    return PREDICTIONS[shape]  # type: ignore[index]


def prediction(shape: int, current: str, opponent: str) -> str:
    """ "Ada smiles and Bo draws the dagger"."""
    said = [
        f"{who} {side_words(side)}"
        for who, side in zip((current, opponent), predicted(shape), strict=True)
        if side is not None
    ]
    return listing(said)


def pays(shape: int) -> int:
    return sum(side is not None for side in predicted(shape))


class SmilesAndDaggersNarrator:
    def event(self, before: Any, event: Event, names: Names) -> list[str]:
        state: State = before
        public = event.public
        n = lambda seat: name(names, seat)  # noqa: E731 - a local shorthand
        if isinstance(public, pb.StartSeatChosen):
            return [f"{n(public.seat)} starts: they take the Smiles & Daggers tile."]
        if isinstance(public, pb.FamilyChosen):
            return [f"{n(public.seat)} takes the {family_name(public.family)} family."]
        if isinstance(public, pb.TurnStarted):
            return [f"Turn {public.turn}: {n(public.seat)} holds the tile."]
        if isinstance(public, pb.CardRecovered):
            return [
                f"{n(public.seat)} pays {plural(public.cost, 'coin')} to bring back a "
                f"{rank_name(public.rank)}."
            ]
        if isinstance(public, pb.TurnSkipped):
            return [f"{n(public.seat)} holds no cards and skips the turn."]
        if isinstance(public, pb.OpponentChallenged):
            return [f"{n(public.current_seat)} challenges {n(public.opponent_seat)}."]
        if isinstance(public, pb.CardCommitted):
            line = f"{n(public.seat)} plays a card face down."
            mine = event.secret(pb.CommittedCard)
            if mine is not None:
                line += f" ({n(mine.seat)}'s card: {draw(mine.rank, mine.orientation)})"
            return [line]
        if isinstance(public, pb.BettingOpened):
            if not public.bettors:
                return ["Nobody can bet."]
            return [f"Betting opens: {listing([n(s) for s in public.bettors], 'then')} may bet."]
        if isinstance(public, pb.BetPlaced):
            current, opponent = self._challengers(state, names)
            said = prediction(public.shape, current, opponent)
            return [
                f"{n(public.seat)} bets a Knight that {said} "
                f"(pays {plural(pays(public.shape), 'coin')})."
            ]
        if isinstance(public, pb.BetPassed):
            return [f"{n(public.seat)} does not bet."]
        if isinstance(public, pb.CardsRevealed):
            shown = [
                f"{n(play.seat)} {draw(play.rank, play.orientation)}"
                for play in (public.current, public.opponent)
            ]
            return [f"The cards are revealed: {listing(shown)}."]
        if isinstance(public, pb.BetSettled):
            if public.correct:
                return [f"{n(public.seat)}'s bet was right: +{plural(public.coins, 'coin')}."]
            return [f"{n(public.seat)}'s bet was wrong: the Knight is out of the game."]
        if isinstance(public, pb.CardEliminated):
            return [f"{n(public.seat)}'s {rank_name(public.rank)} is eliminated."]
        if isinstance(public, pb.CoinsPaid):
            return [f"{n(public.seat)} earns {plural(public.amount, 'coin')}."]
        if isinstance(public, pb.TurnEnded):
            return [f"{n(public.seat)}'s turn ends; the cards on the table go back to hand."]
        if isinstance(public, pb.GameEnded):
            reason = END_REASONS.get(public.reason, "the game cannot go on")
            leaders = listing([n(s) for s in public.winners])
            return [f"The game ends: {reason}. Most coins: {leaders}."]
        return [public.DESCRIPTOR.name]  # pragma: no cover - every event is told above

    @staticmethod
    def _challengers(state: State, names: Names) -> tuple[str, str]:
        if state.challenge is None:  # pragma: no cover - a bet is always during a challenge
            return "the challenger", "the challenged"
        current, opponent = state.challenge.seats
        return name(names, current), name(names, opponent)

    def scene(self, view: Message, names: Names, seat: int | None) -> Scene:
        assert isinstance(view, pb.View)
        n = lambda s: name(names, s)  # noqa: E731
        waiting = tuple(view.awaiting)
        who = listing([n(s) for s in waiting])
        challenge = view.challenge if view.HasField("challenge") else None
        if view.phase == pb.PHASE_FAMILIES:
            status = f"{who} chooses a family"
        elif view.phase == pb.PHASE_TURN:
            status = f"Turn {view.turn} · {n(view.current_seat)} holds the tile and challenges"
        elif view.phase == pb.PHASE_COMMIT and challenge is not None:
            status = (
                f"Turn {view.turn} · {n(challenge.current.seat)} challenges "
                f"{n(challenge.opponent.seat)} · waiting for {who} to play a card"
            )
        elif view.phase == pb.PHASE_BETTING:
            status = f"Turn {view.turn} · {who} may bet a Knight"
        elif view.phase == pb.PHASE_OVER:
            winners = [n(s) for s in view.winners]
            status = (
                f"Game over: {listing(winners)} {'wins' if len(winners) == 1 else 'share the win'}"
            )
        else:
            status = "Waiting for the start player"
        seats = tuple(self._seat_line(s) for s in view.seats)
        table: list[str] = []
        if challenge is not None:
            for role, commitment in (
                ("challenges", challenge.current),
                ("is challenged", challenge.opponent),
            ):
                if commitment.eliminated:
                    card = "eliminated"
                elif commitment.committed:
                    card = draw(commitment.rank, commitment.orientation)
                else:
                    card = "no card yet"
                table.append(f"{n(commitment.seat)} {role}: {card}")
            current, opponent = n(challenge.current.seat), n(challenge.opponent.seat)
            for bet in challenge.bets:
                if bet.passed:
                    table.append(f"{n(bet.seat)} does not bet")
                    continue
                result = "" if not bet.settled else " (right)" if bet.correct else " (wrong)"
                table.append(
                    f"{n(bet.seat)} bets that {prediction(bet.shape, current, opponent)}{result}"
                )
        hand = ""
        if seat is not None and seat < len(view.seats) and view.seats[seat].hand_visible:
            hand = draw_hand(list(view.seats[seat].hand))
        return Scene(status=status, seats=seats, table=tuple(table), hand=hand, waiting_for=waiting)

    @staticmethod
    def _seat_line(s: pb.SeatView) -> str:
        if s.hand_visible:
            cards = draw_hand(list(s.hand), short=True)
        else:
            cards = " ".join([HIDDEN] * s.hand_count) or "no cards"
        parts = [family_name(s.family), plural(s.coins, "coin"), f"hand {cards}"]
        out = [*s.eliminated, *s.lost]
        if out:
            parts.append("out " + " ".join(draw(r, short=True) for r in out))
        return " · ".join(parts)

    def action(self, command: Message, view: Message, names: Names) -> str:
        assert isinstance(view, pb.View)
        if isinstance(command, pb.ChooseFamily):
            return f"Take the {family_name(command.family)} family"
        if isinstance(command, pb.RecoverCard):
            seat = view.current_seat
            cost = recovery_cost(view.seats[seat].hand_count) if seat < len(view.seats) else 1
            return f"Bring back a {rank_name(command.rank)} for {plural(cost, 'coin')}"
        if isinstance(command, pb.SkipTurn):
            return "Skip your turn: you hold no cards"
        if isinstance(command, pb.ChallengeOpponent):
            target = view.seats[command.target]
            return (
                f"Challenge {name(names, command.target)} "
                f"({plural(target.hand_count, 'card')}, {plural(target.coins, 'coin')})"
            )
        if isinstance(command, pb.CommitCard):
            card = draw(command.rank, command.orientation)
            if command.orientation == SMILE:
                return f"Play {card} smiling: {plural(VALUE[command.rank], 'coin')} if it survives"
            return f"Play {card} with the dagger: takes out a {rank_name(BEATS[command.rank])}"
        if isinstance(command, pb.PlaceBet):
            challenge = view.challenge
            current, opponent = (
                name(names, challenge.current.seat),
                name(names, challenge.opponent.seat),
            )
            return (
                f"Bet a Knight that {prediction(command.shape, current, opponent)} "
                f"(pays {plural(pays(command.shape), 'coin')})"
            )
        if isinstance(command, pb.PassBet):
            return "Do not bet"
        return command.DESCRIPTOR.name  # pragma: no cover - every command is named above


NARRATOR = SmilesAndDaggersNarrator()
