"""Smoke & Mirrors in words and cards, for one viewer (cardroom.domain.presentation).

Cards are drawn ``[★1]`` (Stars), ``[@3]`` (Swirls), ``[☠5]`` (Skulls), a
mirror as ``M`` (``[☠M]``), a card the viewer has not seen as ``[??]``. Every
card drawn comes from the viewer's own redacted data: a spectator's story
has no card in it at all, since this game shows cards only to the seats
involved.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from google.protobuf.message import Message

from cardroom.domain.kernel import Event
from cardroom.domain.presentation import Names, Scene, listing, name, plural
from cardroom.domain.smoke_and_mirrors.cards import (
    MAX_ACHIEVABLE,
    SKULLS,
    STARS,
    SWIRLS,
    act_is_true,
    cards_from_event,
)
from cardroom.domain.smoke_and_mirrors.state import State
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as pb

SYMBOLS = {STARS: "★", SWIRLS: "@", SKULLS: "☠"}
HIDDEN = "[??]"


def draw(card: pb.Card) -> str:
    face = "M" if card.value == 0 else str(card.value)
    return f"[{SYMBOLS.get(card.pile, '?')}{face}]"


def draw_all(cards: Iterable[pb.Card]) -> str:
    return " ".join(draw(c) for c in cards)


def hidden(count: int) -> str:
    return " ".join([HIDDEN] * count)


def truth(cards: Iterable[pb.Card], claim: int) -> str:
    return "true" if act_is_true(cards_from_event(cards), claim) else "a bluff"


class SmokeAndMirrorsNarrator:
    def event(self, before: Any, event: Event, names: Names) -> list[str]:
        state: State = before
        public = event.public
        n = lambda seat: name(names, seat)  # noqa: E731 - a local shorthand
        if isinstance(public, pb.RoundDealt):
            dealt = listing([n(s) for s in public.seats])
            first = n(public.start_seat)
            line = f"Round {public.round}: {dealt} get three cards each; {first} starts."
            if public.set_aside_count:
                line += f" {plural(public.set_aside_count, 'card')} lie aside unseen."
            lines = [line]
            lines += [
                f"{n(h.seat)} holds {draw_all(h.cards)}." for h in event.secrets_of(pb.HandDealt)
            ]
            lines += [
                f"Set aside: {draw_all(a.cards)}." for a in event.secrets_of(pb.CardsSetAside)
            ]
            return lines
        if isinstance(public, pb.ActPerformed):
            line = (
                f"{n(public.seat)} performs an act of {plural(public.card_count, 'card')}, "
                f"claiming {public.claim}."
            )
            shown = event.secret(pb.ActCards)
            if shown is not None:
                line += f" ({draw_all(shown.cards)}: {truth(shown.cards, public.claim)})"
            if public.claim > MAX_ACHIEVABLE:
                line += f" No act can make {public.claim}."
            return [line]
        if isinstance(public, pb.BreakTaken):
            return [f"{n(public.seat)} takes a Break."]
        if isinstance(public, pb.ActChallenged):
            verdict = "true" if public.act_was_true else "false"
            line = (
                f"{n(public.challenger)} challenges {n(public.actor)}'s act of {public.claim} — "
                f"it was {verdict}: {n(public.eliminated)} leaves the round."
            )
            revealed = event.secret(pb.ActRevealed)
            if revealed is not None:
                line += f" The act: {draw_all(revealed.cards)}."
            return [line]
        if isinstance(public, pb.SwapStarted):
            return [
                f"{n(public.seat)} swaps: takes one of {n(public.eliminated)}'s cards blind, "
                "then gives one back."
            ]
        if isinstance(public, pb.BlindCardTaken):
            line = f"{n(public.seat)} takes a card blind from {n(public.eliminated)}."
            taken = event.secret(pb.TakenCard)
            if taken is not None:
                line += f" It is {draw(taken.card)}."
            return [line]
        if isinstance(public, pb.CardGiven):
            line = f"{n(public.seat)} gives {n(public.eliminated)} a card back."
            given = event.secret(pb.GivenCard)
            if given is not None:
                line += f" It is {draw(given.card)}."
            return [line]
        if isinstance(public, pb.SwapOffered):  # rules version smoke-and-mirrors/1
            line = (
                f"{n(public.seat)} swaps: gives {n(public.eliminated)} a card and takes one "
                f"of theirs blind."
            )
            choice = event.secret(pb.SwapChoice)
            if choice is not None:
                line += f" ({n(choice.seat)} gives {draw(choice.give)}.)"
            return [line]
        if isinstance(public, pb.SwapDeclined):
            return [f"{n(public.seat)} keeps their cards: no swap."]
        if isinstance(public, pb.CardsSwapped):  # rules version smoke-and-mirrors/1
            line = f"{n(public.seat)} and {n(public.eliminated)} have swapped a card."
            detail = event.secret(pb.SwapDetail)
            if detail is not None:
                line += (
                    f" {n(public.seat)} took {draw(detail.taken)} and gave {draw(detail.given)}."
                )
            return [line]
        if isinstance(public, pb.PlayerEliminated):
            gone = (
                f"; {plural(public.cards_removed, 'card')} leave unseen"
                if public.cards_removed
                else ""
            )
            return [f"{n(public.seat)} is out of the round{gone}."]
        if isinstance(public, pb.PlayerLeftRound):
            gone = (
                f"; {plural(public.cards_removed, 'card')} leave unseen"
                if public.cards_removed
                else ""
            )
            return [f"{n(public.seat)} has left the game and leaves the round{gone}."]
        if isinstance(public, pb.RoundWon):
            if not public.HasField("seat"):
                return [f"Round {public.round} ends without a winner: the turn cap is reached."]
            wins = state.seats[public.seat].round_wins + 1
            need = state.settings.rounds_to_win
            return [
                f"{n(public.seat)} wins round {public.round} "
                f"({plural(wins, 'round win')} of the {need} needed)."
            ]
        return [f"{public.DESCRIPTOR.name}"]  # pragma: no cover - every event is told above

    def scene(self, view: Message, names: Names, seat: int | None) -> Scene:
        assert isinstance(view, pb.View)
        n = lambda s: name(names, s)  # noqa: E731
        waiting: tuple[int, ...] = ()
        if view.phase == pb.PHASE_TURN:
            waiting = (view.turn_seat,)
            status = (
                f"Round {view.round} · {n(view.turn_seat)} to play · "
                f"the next act claims {view.next_claim}"
            )
            if not view.HasField("last_actor"):
                status += " · opening turn: one card"
            elif view.challenged_this_turn:
                status += f" · {n(view.turn_seat)} has challenged and now acts"
        elif view.phase == pb.PHASE_SWAP:
            waiting = (view.swapper,) if view.HasField("swapper") else ()
            status = f"Round {view.round} · {n(view.swapper)} may swap a card"
        elif view.phase == pb.PHASE_SWAP_GIVE:
            waiting = (view.swapper,) if view.HasField("swapper") else ()
            status = f"Round {view.round} · {n(view.swapper)} gives a card back"
            if view.HasField("swap_taken"):
                status += f" (took {draw(view.swap_taken)})"
        elif view.phase == pb.PHASE_OVER:
            status = f"{n(view.winner)} wins the game" if view.HasField("winner") else "Game over"
        else:
            status = "Waiting for the deal"
        seats = tuple(self._seat_line(view, s) for s in view.seats)
        table = []
        if view.HasField("last_actor"):
            last = view.seats[view.last_actor]
            table.append(
                f"Act to beat: {n(view.last_actor)}'s, {plural(last.act_count, 'card')} "
                f"claiming {view.next_claim - 1}"
            )
        if view.set_aside_count:
            table.append(f"{plural(view.set_aside_count, 'card')} set aside this round")
        hand = ""
        if seat is not None and seat < len(view.seats):
            own = view.seats[seat]
            hand = draw_all(own.hand) if own.hand else "no cards"
            if own.act:
                hand += f"   on the table: {draw_all(own.act)} claiming {own.act_claim}"
        return Scene(status=status, seats=seats, table=tuple(table), hand=hand, waiting_for=waiting)

    @staticmethod
    def _seat_line(view: pb.View, s: pb.SeatView) -> str:
        parts = [("◆" * s.round_wins) or "no round won"]
        if view.round and not s.active:
            parts.append("out of this round")
        if s.hand_count:
            shown = draw_all(s.hand) if len(s.hand) == s.hand_count else hidden(s.hand_count)
            parts.append(f"hand {shown}")
        if s.act_count:
            shown = draw_all(s.act) if len(s.act) == s.act_count else hidden(s.act_count)
            parts.append(f"act {shown} claiming {s.act_claim}")
        if s.break_used:
            parts.append("Break used")
        return " · ".join(parts)

    def action(self, command: Message, view: Message, names: Names) -> str:
        assert isinstance(view, pb.View)
        if isinstance(command, pb.Challenge):
            actor = name(names, view.last_actor) if view.HasField("last_actor") else "the last"
            return f"Challenge {actor}'s act of {view.next_claim - 1}"
        if isinstance(command, pb.PerformAct):
            claim = view.next_claim
            return f"Act {draw_all(command.cards)} claiming {claim}: {truth(command.cards, claim)}"
        if isinstance(command, pb.TakeBreak):
            return "Take your Break: no act this turn"
        if isinstance(command, pb.TakeBlind):
            leaving = [
                s.seat
                for s in view.seats
                if not s.active and s.hand_count and s.seat != view.swapper
            ]
            whose = f"{name(names, leaving[0])}'s" if leaving else "the leaving player's"
            return f"Swap: take one of {whose} cards blind, then give one back"
        if isinstance(command, pb.GiveCard):
            return f"Give {draw(command.card)} back"
        if isinstance(command, pb.DeclineSwap):
            return "Keep your cards: no swap"
        return command.DESCRIPTOR.name  # pragma: no cover - every command is named above


NARRATOR = SmokeAndMirrorsNarrator()
