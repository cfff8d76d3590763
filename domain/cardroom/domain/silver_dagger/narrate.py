"""Silver Dagger in words and cards, for one viewer (cardroom.domain.presentation).

A card is drawn with its werewolves and its name, ``[4 Zombie]``, ``[÷2
Halfling]``; on a seat's line only its number, ``[4]``, with ``↑`` in front
when it lies face up (``[↑4]``); a card the viewer does not know is
``[??]``. Positions are told from 1, left to right, as a village lies now.
Everything drawn comes from the viewer's own data: the cards its redacted
events carry (public ones and the ``SlotCard`` secrets it was sent) and the
state folded from the same stream.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from google.protobuf.message import Message

from cardroom.domain.kernel import Event
from cardroom.domain.presentation import Names, Scene, listing, name, plural
from cardroom.domain.silver_dagger.cards import HALFLING, value
from cardroom.domain.silver_dagger.state import ROUNDS, Phase, Spot, State
from cardroom.silver_dagger.v1 import silver_dagger_pb2 as pb

HIDDEN = "[??]"
NAMES: dict[int, str] = {
    card: pb.Card.Name(card).removeprefix("CARD_").replace("_", " ").title()
    for card in pb.Card.values()
    if card
}
ABILITIES: dict[int, str] = {
    pb.CARD_APPROXIMATOR: "it goes face up into the village and two other cards are discarded",
    pb.CARD_FLIPPER: "a whole village is turned over",
    pb.CARD_ELUSIVE_SEER: "face-down cards are viewed until one of 4 or lower turns face up",
    pb.CARD_MAGICIAN: "a card of another village turns face up, to use or to switch",
    pb.CARD_MYSTIC_SEER: "up to two face-down cards are viewed",
    pb.CARD_RENFIELD: "the deck's top card goes onto the private deck",
    pb.CARD_REVERSER: "the direction of play reverses",
    pb.CARD_MASTER_THIEF: "a face-down card is viewed and switched with another village's card",
}
REASONS = {
    pb.VIEW_REASON_SPY: "Spy",
    pb.VIEW_REASON_ELUSIVE_SEER: "Elusive Seer",
    pb.VIEW_REASON_MYSTIC_SEER: "Mystic Seer",
    pb.VIEW_REASON_MASTER_THIEF: "Master Thief",
}
STEPS = {
    pb.ABILITY_STEP_APPROXIMATOR_SELECT: "chooses two cards for the Approximator to discard",
    pb.ABILITY_STEP_FLIPPER_VILLAGE: "chooses a village for the Flipper to turn over",
    pb.ABILITY_STEP_ELUSIVE_SEER_VIEW: "views face-down cards with the Elusive Seer",
    pb.ABILITY_STEP_MYSTIC_SEER_VIEW: "views face-down cards with the Mystic Seer",
    pb.ABILITY_STEP_MASTER_THIEF_VIEW: "chooses a face-down card for the Master Thief to view",
    pb.ABILITY_STEP_MASTER_THIEF_SWITCH: "chooses the card the Master Thief switches it with",
    pb.ABILITY_STEP_MAGICIAN_TARGET: "chooses a card for the Magician to turn face up",
    pb.ABILITY_STEP_MAGICIAN_CHOICE: "uses the Magician's card or switches it",
}
END_REASONS = {
    pb.ROUND_END_REASON_CALL: "the call has come round",
    pb.ROUND_END_REASON_DECK_DEPLETED: "the deck is empty",
}


def number(card: int) -> str:
    return "÷2" if card == HALFLING else str(value(card))  # type: ignore[arg-type]


def draw(card: int, *, short: bool = False, up: bool = False) -> str:
    """``[4 Zombie]``; short ``[4]``; face up ``[↑4 Zombie]``; unknown ``[??]``."""
    if not card:
        return "[↑??]" if up else HIDDEN
    mark = "↑" if up else ""
    named = "" if short else f" {NAMES.get(card, '?')}"
    return f"[{mark}{number(card)}{named}]"


def draw_all(cards: Iterable[int], *, short: bool = False) -> str:
    return " ".join(draw(c, short=short) for c in cards) or "no cards"


def ordinal(positions: Iterable[int]) -> str:
    """Positions told from 1: "card 2", "cards 1 and 3"."""
    shown = [str(p + 1) for p in positions]
    return f"card{'s' if len(shown) != 1 else ''} {listing(shown)}"


def card_name(card: int) -> str:
    return f"the {NAMES[card]}" if card in NAMES else "a card"


def _spot(state: State, seat: int, position: int) -> Spot | None:
    villages = state.villages
    if 0 <= seat < len(villages) and 0 <= position < len(villages[seat]):
        return villages[seat][position]
    return None


def _slot_cards(event: Event) -> dict[int, int]:
    """The SlotCard secrets this viewer holds: slot -> card."""
    return {s.slot: s.card for s in event.secrets_of(pb.SlotCard)}


def _village_of(names: Names, owner: int, seat: int) -> str:
    """ "their own" when the seat acts on its own village, else "Bo's"."""
    return "their own" if owner == seat else f"{name(names, owner)}'s"


class SilverDaggerNarrator:
    def event(self, before: Any, event: Event, names: Names) -> list[str]:
        state: State = before
        public = event.public
        n = lambda seat: name(names, seat)  # noqa: E731 - a local shorthand
        secret = _slot_cards(event)

        def seen(seat: int, position: int) -> str:
            """What this viewer learns of a village card from the event's secrets."""
            spot = _spot(state, seat, position)
            if spot is None:
                return ""
            card = secret.get(spot.slot) or spot.card
            return f" {draw(card)}" if card else ""

        if isinstance(public, pb.RoundDealt):
            line = (
                f"Round {public.round}: every village gets five cards face down; "
                f"{draw(public.discard)} starts the discard pile and {n(public.start_seat)} starts."
            )
            lines = [line]
            unplayed = max(0, 4 - state.seat_count)
            if unplayed:
                lines.append(f"{plural(unplayed, 'set')} of five cards stay out of the round.")
            return lines
        if isinstance(public, pb.CardsLooked):
            line = f"{n(public.seat)} looks at two of their cards ({ordinal(public.positions)})."
            known = [seen(public.seat, p) for p in public.positions]
            if all(known):
                line += f" They are{known[0]} and{known[1]}."
            return [line]
        if isinstance(public, pb.CardViewed):
            reason = REASONS.get(public.reason, "ability")
            whose = _village_of(names, public.target, public.seat)
            line = f"{n(public.seat)}'s {reason} views {whose} {ordinal([public.position])}."
            card = seen(public.target, public.position)
            if card:
                line += f" It is{card}."
            return [line]
        if isinstance(public, pb.DaggerTurned):
            return [f"{n(public.seat)} turns the silver dagger: play goes the other way round."]
        if isinstance(public, pb.CardDrawn):
            where = "their private deck" if public.private_deck else "the deck"
            line = f"{n(public.seat)} draws a card from {where}."
            if public.slot in secret:
                line += f" It is {draw(secret[public.slot])}."
            return [line]
        if isinstance(public, pb.DiscardTaken):
            return [f"{n(public.seat)} takes {draw(public.card)} from the discard pile."]
        if isinstance(public, pb.VoteCalled):
            return [f"{n(public.seat)} calls for a vote: everyone else has one more turn."]
        if isinstance(public, pb.ZombieGiven):
            return [
                f"{n(public.seat)} gives their face-up Zombie ({ordinal([public.position])}) "
                f"to {n(public.target)}: it goes face down at the end of {n(public.target)}'s "
                "village."
            ]
        if isinstance(public, pb.HeldDiscarded):
            return [f"{n(public.seat)} discards {draw(public.card)}."]
        if isinstance(public, pb.AbilityStarted):
            how = " through the Magician" if public.via_magician else ""
            what = ABILITIES.get(public.card, "")
            line = f"{n(public.seat)} uses {card_name(public.card)}'s ability{how}"
            if public.no_effect:  # SV-24
                return [f"{line}: it can do nothing now."]
            return [f"{line}: {what}." if what else f"{line}."]
        if isinstance(public, pb.CardExchanged):
            side = "face up" if public.face_up else "face down"
            placed = public.placed or secret.get(public.slot, 0)
            held = draw(placed) if placed else "the card they hold"
            return [
                f"{n(public.seat)} puts {held} {side} in place of their "
                f"{ordinal([public.position])} and discards {draw(public.discarded)}."
            ]
        if isinstance(public, pb.MultipleExchangeStarted):
            return [f"{n(public.seat)} will exchange the card they hold for matching cards."]
        if isinstance(public, pb.CardSelected):
            purpose = (
                "for the Approximator to discard"
                if state.phase is Phase.ABILITY
                else "for the exchange"
            )
            return [f"{n(public.seat)} picks their {ordinal([public.position])} {purpose}."]
        if isinstance(public, pb.CardsShown):
            if list(public.cards) == [pb.CARD_ZOMBIE] and state.phase is Phase.HOLDING:
                return [
                    f"{n(public.seat)} offers their {ordinal(public.positions)}, "
                    f"{draw(pb.CARD_ZOMBIE)}: a Zombie never goes onto the discard pile."
                ]
            return [
                f"{n(public.seat)} shows their {ordinal(public.positions)}: "
                f"{draw_all(public.cards)}."
            ]
        if isinstance(public, pb.CardsDiscarded):
            cards = [
                spot.card
                for p in public.positions
                if (spot := _spot(state, public.seat, p)) is not None and spot.card
            ]
            shown = f": {draw_all(cards)}" if cards else ""
            return [f"{n(public.seat)} discards their {ordinal(public.positions)}{shown}."]
        if isinstance(public, pb.CardsTurnedDown):
            return [
                f"The cards do not all match: {n(public.seat)} turns their "
                f"{ordinal(public.positions)} face down again."
            ]
        if isinstance(public, pb.CardAdded):
            side = "face up" if public.face_up else "face down"
            at = f"as their {ordinal([public.position])}"
            if public.source == pb.ADDED_FROM_DECK:
                line = f"{n(public.seat)} also takes the deck's top card, unseen, {at} (face down)."
                if public.slot in secret:
                    line += f" It is {draw(secret[public.slot])}."
                return [line]
            arriving = public.card or secret.get(public.slot, 0)
            added = draw(arriving) if arriving else "the card they hold"
            return [f"{n(public.seat)} adds {added} to their village {side}, {at}."]
        if isinstance(public, pb.VillageFlipped):
            whose = _village_of(names, public.target, public.seat)
            spots = state.villages[public.target] if public.target < len(state.villages) else ()
            ups = [not s.up for s in spots] or [False] * len(public.cards)
            row = " ".join(draw(c, up=u) for c, u in zip(public.cards, ups, strict=False))
            return [
                f"{n(public.seat)}'s Flipper turns over {whose} whole village: "
                f"now {row or 'no cards'}."
            ]
        if isinstance(public, pb.CardTurnedUp):
            whose = _village_of(names, public.target, public.seat)
            return [
                f"{n(public.seat)}'s Elusive Seer stops at {whose} "
                f"{ordinal([public.position])}, {draw(public.card)}, and turns it face up."
            ]
        if isinstance(public, pb.MagicianTargeted):
            return [
                f"{n(public.seat)}'s Magician turns up {n(public.target)}'s "
                f"{ordinal([public.position])}: {draw(public.card)}."
            ]
        if isinstance(public, pb.CardsSwitched):

            def arrived(card: int, slot: int) -> str:
                known = card or secret.get(slot, 0)
                return f" (now {draw(known)})" if known else ""

            return [
                f"{n(public.seat)} switches {n(public.first_seat)}'s "
                f"{ordinal([public.first_position])}"
                f"{arrived(public.first_card, public.first_slot)} with "
                f"{n(public.second_seat)}'s {ordinal([public.second_position])}"
                f"{arrived(public.second_card, public.second_slot)}."
            ]
        if isinstance(public, pb.PrivateDeckGrown):
            line = f"{n(public.seat)} puts the deck's top card onto their private deck."
            if public.slot in secret:
                line += f" It is {draw(secret[public.slot])}."
            return [line]
        if isinstance(public, pb.DirectionReversed):
            now = "counterclockwise" if state.clockwise else "clockwise"
            return [f"{n(public.seat)} reverses the direction of play: it goes {now} now."]
        if isinstance(public, pb.ViewingStopped):
            return [f"{n(public.seat)} views no second card."]
        if isinstance(public, pb.RoundEnded):
            reason = END_REASONS.get(public.reason, "it is over")
            return [f"Round {public.round} ends: {reason}."]
        if isinstance(public, pb.VillagesRevealed):
            lines = ["Every village is turned face up:"]
            for village in public.villages:
                ups = list(village.face_up) + [False] * len(village.cards)
                row = " ".join(draw(c, up=u) for c, u in zip(village.cards, ups, strict=False))
                lines.append(f"  {n(village.seat)}: {row or 'no cards'}")
            return lines
        if isinstance(public, pb.RoundScored):
            return self._scored(public, names)
        if isinstance(public, pb.DaggerPassed):
            usable = " and may turn it next round" if public.usable else ""
            return [f"{n(public.seat)} takes the silver dagger{usable}."]
        if isinstance(public, pb.GameEnded):
            totals = listing(
                [f"{n(s)} {t}" for s, t in enumerate(public.totals)] if public.totals else []
            )
            winners = listing([n(s) for s in public.winners])
            return [f"After four rounds, points: {totals}. Fewest: {winners}."]
        return [public.DESCRIPTOR.name]  # pragma: no cover - every event is told above

    @staticmethod
    def _scored(scored: pb.RoundScored, names: Names) -> list[str]:
        n = lambda seat: name(names, seat)  # noqa: E731
        lines = [f"Round {scored.round} is scored:"]
        if scored.HasField("caller"):
            if scored.call_succeeded:
                lines.append(f"  {n(scored.caller)}'s call succeeds: 0 points for the round.")
            else:
                lines.append(f"  {n(scored.caller)}'s call fails: 10 points more.")
        for s in scored.scores:
            steps = [f"cards {s.base}"]
            if s.after_debt_collectors != s.base:
                steps.append(f"{s.after_debt_collectors} after Debt Collectors")
            if s.after_halflings != s.after_debt_collectors:
                steps.append(f"{s.after_halflings} after Halflings")
            if s.jackpot:
                steps.append("the Furry's jackpot")
            lines.append(
                f"  {n(s.seat)}: {', '.join(steps)}; {plural(s.points, 'point')} (total {s.total})."
            )
        return lines

    # ---------------------------------------------------------------- scene

    def scene(self, view: Message, names: Names, seat: int | None) -> Scene:
        assert isinstance(view, pb.View)
        n = lambda s: name(names, s)  # noqa: E731
        waiting = tuple(view.awaiting)
        who = listing([n(s) for s in waiting])
        current = n(view.current_seat) if view.HasField("current_seat") else "nobody"
        head = f"Round {view.round} of {ROUNDS}"
        if view.phase == pb.PHASE_LOOK:
            status = f"{head} · {who} to look at two of their cards"
        elif view.phase == pb.PHASE_TURN:
            status = f"{head} · turn {view.turn} · {current}: draw or take the discard"
            if self._may_call(view):
                status = f"{head} · turn {view.turn} · {current}: draw, take the discard or call"
        elif view.phase == pb.PHASE_HOLDING:
            status = f"{head} · turn {view.turn} · {current} holds a card"
        elif view.phase == pb.PHASE_SELECTING:
            status = f"{head} · turn {view.turn} · {current} picks matching cards"
        elif view.phase == pb.PHASE_ABILITY:
            step = STEPS.get(view.ability.step, "uses an ability")
            status = f"{head} · turn {view.turn} · {current} {step}"
        elif view.phase == pb.PHASE_ROUND_OVER:
            status = f"{head} is over"
        elif view.phase == pb.PHASE_OVER:
            winners = [n(s) for s in view.winners]
            verb = "wins" if len(winners) == 1 else "share the win"
            status = f"Game over: {listing(winners)} {verb}"
        else:
            status = "Waiting for the deal"
        if view.HasField("caller") and view.phase not in (pb.PHASE_OVER, pb.PHASE_DEAL):
            status += f" · {n(view.caller)} has called"
        seats = tuple(self._seat_line(view, s) for s in view.seats)
        table = self._table(view, names)
        hand = ""
        if seat is not None and 0 <= seat < len(view.seats):
            hand = self._hand(view, seat)
        return Scene(status=status, seats=seats, table=tuple(table), hand=hand, waiting_for=waiting)

    @staticmethod
    def _may_call(view: pb.View) -> bool:
        """SV-04 as far as the view shows it: nobody has called this round,
        the current village holds four cards or fewer, and no peek was made."""
        if view.HasField("caller") or not view.HasField("current_seat"):
            return False
        seat = view.current_seat
        village = view.seats[seat].village if seat < len(view.seats) else []
        return len(village) <= 4 and not view.peeks_used

    @staticmethod
    def _seat_line(view: pb.View, s: pb.SeatView) -> str:
        # The points first: what decides the game stays on a narrow screen.
        points = f"{plural(s.total, 'point')}"
        if s.round_points:
            points += f" ({', '.join(str(p) for p in s.round_points)})"
        cards = " ".join(draw(c.card, short=True, up=c.face_up) for c in s.village)
        parts = [points, f"village {cards or 'empty'}"]
        if s.private_deck_count:
            parts.append(f"private deck {s.private_deck_count}")
        if view.HasField("dagger_seat") and view.dagger_seat == s.seat:
            parts.append("silver dagger" + (" (may turn it)" if view.dagger_usable else ""))
        if view.HasField("caller") and view.caller == s.seat:
            parts.append("called")
        return " · ".join(parts)

    @staticmethod
    def _table(view: pb.View, names: Names) -> list[str]:
        n = lambda s: name(names, s)  # noqa: E731
        lines: list[str] = []
        if view.phase in (pb.PHASE_DEAL,) and not view.round:
            return ["The cards are being shuffled."]
        pile = list(view.discard_pile)
        top = f"{draw(pile[-1])} on top, " if pile else ""
        lines.append(f"Discard pile: {top}{plural(len(pile), 'card')}")
        direction = "clockwise" if view.clockwise else "counterclockwise"
        lines.append(f"Deck: {plural(view.deck_count, 'card')} · play goes {direction}")
        if view.out_of_play:
            lines.append(f"Out of the round: {plural(view.out_of_play, 'card')}")
        if view.holding and view.HasField("current_seat"):
            if view.held_from_discard:
                source = "from the discard pile"
            elif view.held_from_private_deck:
                source = "from their private deck"
            else:
                source = "from the deck"
            held = draw(view.held) if view.held else "a card"
            lines.append(f"{n(view.current_seat)} holds {held} {source}")
        if view.selected:
            lines.append(f"Picked: {ordinal(view.selected)}")
        if view.phase == pb.PHASE_ABILITY and view.ability.card:
            ability = f"Ability: {draw(view.ability.card)}"
            if view.ability.via_magician:
                ability += " through the Magician"
            if view.ability.viewed_slots:
                ability += f" · {plural(len(view.ability.viewed_slots), 'card')} viewed"
            if view.ability.HasField("target_seat"):
                position = view.ability.target_position
                ability += f" · on {n(view.ability.target_seat)}'s {ordinal([position])}"
            lines.append(ability)
        if view.peeks_used:
            lines.append(f"Spy peeks this turn: {view.peeks_used}")
        if view.HasField("last_round") and view.last_round.scores:
            last = view.last_round
            points = listing([f"{n(s.seat)} {s.points}" for s in last.scores])
            lines.append(f"Round {last.round} points: {points}")
        return lines

    @staticmethod
    def _hand(view: pb.View, seat: int) -> str:
        mine = view.seats[seat]
        cards = " ".join(draw(c.card, up=c.face_up) for c in mine.village) or "no cards"
        known = [c.card for c in mine.village if c.card]
        unknown = len(mine.village) - len(known)
        total = sum(value(c) for c in known)  # type: ignore[arg-type]
        hand = f"{cards} · known {total}"
        if unknown:
            hand += f" + {unknown} unknown"
        if mine.private_deck:
            hand += f" · private deck {draw_all(mine.private_deck)} (top last)"
        if view.holding and view.HasField("current_seat") and view.current_seat == seat:
            hand += f" · holding {draw(view.held)}"
        return hand

    # ------------------------------------------------------------- actions

    def action(self, command: Message, view: Message, names: Names) -> str:
        assert isinstance(view, pb.View)
        me = view.current_seat if view.HasField("current_seat") else -1

        def card_at(seat: int, position: int) -> str:
            cards = view.seats[seat].village if 0 <= seat < len(view.seats) else []
            if position >= len(cards):
                return HIDDEN
            return draw(cards[position].card, up=cards[position].face_up)

        def mine(position: int) -> str:
            return f"your {ordinal([position])} {card_at(me, position)}"

        def theirs(seat: int, position: int) -> str:
            if seat == me:
                return mine(position)
            return f"{name(names, seat)}'s {ordinal([position])} {card_at(seat, position)}"

        held = draw(view.held) if view.held else "the card"
        if isinstance(command, pb.LookAtCards):
            return f"Look at your {ordinal([command.first, command.second])}"
        if isinstance(command, pb.DrawCard):
            if command.private_deck:
                pile = list(view.seats[me].private_deck) if 0 <= me < len(view.seats) else []
                top = f" ({draw(pile[-1])} on top)" if pile and pile[-1] else ""
                return f"Draw from your private deck{top}"
            return f"Draw from the deck ({plural(view.deck_count, 'card')} left)"
        if isinstance(command, pb.TakeDiscard):
            top = draw(view.discard_pile[-1]) if view.discard_pile else "the top card"
            return f"Take {top} from the discard pile"
        if isinstance(command, pb.CallVote):
            return "Call for a vote: the others have one more turn, then the round ends"
        if isinstance(command, pb.GiveZombie):
            target = (me - (1 if view.clockwise else -1)) % max(1, len(view.seats))
            return f"Give the Zombie ({ordinal([command.position])}) to {name(names, target)}"
        if isinstance(command, pb.SpyPeek):
            return f"Spy: peek at {theirs(command.seat, command.position)}"
        if isinstance(command, pb.TurnDagger):
            return "Turn the silver dagger: reverse the direction of play"
        if isinstance(command, pb.DiscardDrawn):
            return f"Discard {held} without its ability"
        if isinstance(command, pb.UseAbility):
            if view.phase == pb.PHASE_ABILITY:
                return f"Use the ability of {self._magician_card(view)} where it lies"
            if view.held == pb.CARD_APPROXIMATOR:
                return f"Place {held} face up and discard two of your cards"
            ability = ABILITIES.get(view.held)
            return f"Discard {held} and use its ability" + (f": {ability}" if ability else "")
        if isinstance(command, pb.Exchange):
            return f"Exchange {held} for {mine(command.position)}"
        if isinstance(command, pb.StartMultipleExchange):
            return f"Exchange {held} for two or more matching cards of yours"
        if isinstance(command, pb.SelectCard):
            if view.phase == pb.PHASE_ABILITY:
                return f"Discard {mine(command.position)} (Approximator)"
            return f"Pick {mine(command.position)} for the exchange"
        if isinstance(command, pb.ConfirmExchange):
            return f"Exchange for the {plural(len(view.selected), 'card')} picked"
        if isinstance(command, pb.ChooseVillage):
            whose = "your own" if command.seat == me else f"{name(names, command.seat)}'s"
            return f"Flip {whose} village"
        if isinstance(command, pb.ChooseCard):
            step = view.ability.step
            if step == pb.ABILITY_STEP_MASTER_THIEF_SWITCH:
                return f"Switch it with {theirs(command.seat, command.position)}"
            if step == pb.ABILITY_STEP_MAGICIAN_TARGET:
                return f"Turn up {theirs(command.seat, command.position)}"
            return f"View {theirs(command.seat, command.position)}"
        if isinstance(command, pb.SwitchWith):
            return f"Take {self._magician_card(view)}, giving {mine(command.position)}"
        if isinstance(command, pb.StopViewing):
            return "View no second card"
        return command.DESCRIPTOR.name  # pragma: no cover - every command is named above

    @staticmethod
    def _magician_card(view: pb.View) -> str:
        ability = view.ability
        if not ability.HasField("target_seat"):
            return "the card"
        seat, position = ability.target_seat, ability.target_position
        cards = view.seats[seat].village if seat < len(view.seats) else []
        return draw(cards[position].card) if position < len(cards) else "the card"


NARRATOR = SilverDaggerNarrator()
