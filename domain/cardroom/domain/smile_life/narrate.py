"""Smile Life in words and cards, for one viewer (cardroom.domain.presentation).

Cards are drawn by type, ``[Designer]``, ``[Salary 3]``, ``[Flirt bar]``,
``[♥ Montcuq]`` (a marriage), ``[Villa]``; a card the viewer may not see is
``[??]``. Lives, the discard pile, the river and every card played face up
are public; a hand, a drawn card, a face-down bet, luck's cards, a medium's
or journalist's look and a barter's cards are drawn only from the secrets
the viewer was sent (and the view's own hand), so twin games that differ in
a card the viewer never saw are told alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from google.protobuf.message import Message

from cardroom.domain.kernel import Event
from cardroom.domain.presentation import Names, Scene, listing, name, plural
from cardroom.domain.smile_life.cards import (
    ADULTERY,
    CHILD,
    DISTINCTION,
    FLIRT,
    HOUSE,
    JOB,
    MARRIAGE,
    PET,
    SALARY,
    SPECIAL,
    STUDY,
    TERRORIST_ATTACK,
    TRIP,
    card,
    is_card,
)
from cardroom.smile_life.v1 import smile_life_pb2 as pb

HIDDEN = "[??]"

# Short names (the terminal highlights up to 16 characters between brackets).
SHORT: dict[str, str] = {
    "study_single": "Studies",
    # Not "Studies x2": beside two single cards drawn "[Studies]x2" it would
    # read as the same thing.
    "study_double": "Double studies",
    "purchasing_manager": "Purchasing mgr",
    "barman": "Bartender",
    "grand_prof": "Grand prof",
    "house_small_green": "House green",
    "house_small_pink": "House pink",
    "house_medium_orange": "House orange",
    "house_medium_white": "House white",
    "house_villa": "Villa",
    "trip_rio": "Trip Rio",
    "special_piston": "Piston",
    "special_barter": "Barter",
    "malus_terrorist_attack": "Terrorist attack",
}
PLACES = {"camping": "campsite"}

STEP_WORDS: dict[int, str] = {
    pb.STEP_PLAY_HELD: "play the card they hold",
    pb.STEP_RAINBOW: "play up to 3 more cards (rainbow)",
    pb.STEP_CASINO_BET: "bet a salary on the casino",
    pb.STEP_LUCK: "choose one of luck's cards",
    pb.STEP_SHOOTING_STAR: "take a card from the discard pile (shooting star)",
    pb.STEP_ASTRONAUT: "take a card from the discard pile (astronaut)",
    pb.STEP_PISTON: "place a job by string-pulling",
    pb.STEP_BARTER: "choose a barter partner",
    pb.STEP_MANAGER_BARTER: "barter with a partner (manager)",
    pb.STEP_BARTER_DRAW: "wait for the barter's cards",
    pb.STEP_TSUNAMI: "wait for the tsunami's new hands",
    pb.STEP_REVENGE: "pass a malus on (revenge)",
    pb.STEP_BIRTHDAY_GIFT: "give a salary",
    pb.STEP_RESEARCHER_DISCARD: "discard a card under the lost job",
    pb.STEP_JOURNALIST: "announce what others hold, true or false (journalist)",
}
STEP_DONE: dict[int, str] = {
    pb.STEP_PLAY_HELD: "has played the card they held",
    pb.STEP_RAINBOW: "is done with the rainbow",
    pb.STEP_CASINO_BET: "is done with the casino bet",
    pb.STEP_LUCK: "has chosen from luck",
    pb.STEP_SHOOTING_STAR: "is done with the shooting star",
    pb.STEP_ASTRONAUT: "is done with the astronaut's pick",
    pb.STEP_PISTON: "is done with the string-pulling",
    pb.STEP_BARTER: "has chosen a barter partner",
    pb.STEP_MANAGER_BARTER: "is done with the manager's barter",
    pb.STEP_BARTER_DRAW: "has the barter's cards",
    pb.STEP_TSUNAMI: "has a new hand after the tsunami",
    pb.STEP_REVENGE: "is done with revenge",
    pb.STEP_BIRTHDAY_GIFT: "has given a birthday salary",
    pb.STEP_RESEARCHER_DISCARD: "has discarded under the lost job",
    pb.STEP_JOURNALIST: "is done announcing",
}
ZONE_WORDS: dict[int, str] = {
    pb.ZONE_JOB: "job",
    pb.ZONE_STUDIES: "studies",
    pb.ZONE_SALARIES: "salary",
    pb.ZONE_MARRIAGE: "marriage",
    pb.ZONE_ADULTERY: "adultery",
    pb.ZONE_CHILDREN: "child",
    pb.ZONE_MALUSES: "malus",
}


def short(card_id: str) -> str:
    """A card's short name: "Designer", "Salary 3", "Flirt bar", "♥ Montcuq"."""
    if not card_id:
        return "??"
    if not is_card(card_id):
        return card_id
    if card_id in SHORT:
        return SHORT[card_id]
    kind = card(card_id)
    if kind.family == SALARY:
        return f"Salary {kind.level}"
    if kind.family == FLIRT:
        return f"Flirt {PLACES.get(kind.location, kind.location)}"
    head, _, tail = kind.name.partition(" - ")
    if kind.family == MARRIAGE:
        return f"♥ {tail}"
    if tail:
        return f"{head} {tail}"
    return kind.name


def draw(card_id: str) -> str:
    """``[Designer]``; an unknown card ``[??]``."""
    return f"[{short(card_id)}]" if card_id else HIDDEN


def draw_all(cards: Iterable[str], empty: str = "none") -> str:
    """Cards in order, repeats folded: ``[Studies]x3 [Salary 2]``."""
    runs: list[tuple[str, int]] = []
    for c in cards:
        if runs and runs[-1][0] == c:
            runs[-1] = (c, runs[-1][1] + 1)
        else:
            runs.append((c, 1))
    return " ".join(draw(c) + (f"x{k}" if k > 1 else "") for c, k in runs) or empty


def draw_hand(cards: Iterable[str]) -> str:
    return " ".join(draw(c) for c in sorted(cards)) or "no cards"


def levels_words(levels: Sequence[int]) -> str:
    return " + ".join(f"Salary {level}" for level in levels)


def payment_words(levels: Sequence[int], inheritance: bool, free: bool, *, own: bool = True) -> str:
    if free:
        return "free (the job's advantage)"
    parts = [levels_words(levels)] if levels else []
    if inheritance:
        parts.append("the inheritance" if not own else "your inheritance")
    return "paid with " + (" + ".join(parts) or "nothing")


def zone_of(message: Message) -> str:
    return ZONE_WORDS.get(getattr(message, "zone", 0), "card")


class SmileLifeNarrator:
    # ------------------------------------------------------------ events

    def event(self, before: Any, event: Event, names: Names) -> list[str]:
        public = event.public
        n = lambda seat: name(names, seat)  # noqa: E731 - a local shorthand
        if isinstance(public, pb.CardsDealt):
            line = (
                f"Everyone is dealt {plural(public.hand_size, 'card')}; "
                f"the draw pile holds {plural(public.draw_pile_count, 'card')}."
            )
            if public.set_aside_count:
                line += f" {plural(public.set_aside_count, 'card')} lie aside, unseen."
            lines = [line]
            lines += [
                f"{n(d.seat)} is dealt {draw_hand(d.cards)}."
                for d in event.secrets_of(pb.DealtCards)
            ]
            pile = event.secret(pb.DrawPile)
            if pile is not None:
                lines.append(f"The draw pile, top first: {draw_all(pile.cards)}.")
            aside = event.secret(pb.SetAside)
            if aside is not None:
                lines.append(f"Set aside: {draw_all(aside.cards)}.")
            return lines
        if isinstance(public, pb.RiverCardDealt):
            return [f"{draw(public.card)} is dealt face up into the river."]
        if isinstance(public, pb.RiverDiscarded):
            return ["Nobody took from the river for a whole round: it goes to the discard pile."]
        if isinstance(public, pb.TurnStarted):
            return [f"Turn {public.turn}: {n(public.seat)} plays."]
        if isinstance(public, pb.TurnMissed):
            if public.seat in before.departed:
                return [f"{n(public.seat)} has left the game: no turn."]
            more = f" ({plural(public.remaining, 'more turn')} to miss)" if public.remaining else ""
            return [f"{n(public.seat)} misses a turn{more}."]
        if isinstance(public, pb.TurnEnded):
            return [f"{n(public.seat)}'s turn ends."]
        if isinstance(public, pb.CardDrawn):
            drawn = event.secret(pb.DrawnCard)
            what = draw(drawn.card) if drawn is not None else "a card"
            if public.for_turn:
                return [f"{n(public.seat)} draws {what}."]
            return [f"{n(public.seat)} draws {what} back into their hand."]
        if isinstance(public, pb.DiscardTaken):
            return [
                f"{n(public.seat)} takes {draw(public.card)} from the discard pile "
                "to play it at once."
            ]
        if isinstance(public, pb.RiverCardTaken):
            return [f"{n(public.seat)} takes {draw(public.card)} from the river."]
        if isinstance(public, pb.CardPlayed):
            return [self._played(public, names)]
        if isinstance(public, pb.CasinoBetPlaced):
            line = f"{n(public.seat)} bets a salary face down on the casino."
            bet = event.secret(pb.CasinoBet)
            if bet is not None:
                line += f" ({n(bet.seat)}'s bet: {draw(bet.card)})"
            return [line]
        if isinstance(public, pb.CasinoResolved):
            return [
                f"The casino: {n(public.first_seat)} bet {draw(public.first_card)}, "
                f"{n(public.second_seat)} bet {draw(public.second_card)}; "
                f"{n(public.winner)} wins both salaries."
            ]
        if isinstance(public, pb.CasinoBetReturned):
            return [
                f"Nobody matched {n(public.seat)}'s bet: {draw(public.card)} comes back "
                "as their salary."
            ]
        if isinstance(public, pb.FlirtStolen):
            return [
                f"{n(public.seat)} flirts at the same place and takes "
                f"{n(public.from_seat)}'s {draw(public.card)}."
            ]
        if isinstance(public, pb.AcquisitionPaid):
            paid = payment_words(
                list(public.salary_levels), public.inheritance, public.free, own=False
            )
            if not public.free and public.salary_levels:
                paid += " (turned over: they still count)"
            return [f"{n(public.seat)}'s {draw(public.card)} is {paid}."]
        if isinstance(public, pb.CardDiscarded):
            return [self._discarded(public, names)]
        if isinstance(public, pb.PrizeTurnedOver):
            return [
                f"{n(public.seat)} no longer has the rewarded job: the excellence prize "
                "is turned over and keeps its smiles."
            ]
        if isinstance(public, pb.CardRemovedFromGame):
            return [f"{n(public.seat)}'s {draw(public.card)} leaves the game."]
        if isinstance(public, pb.TurnsToMiss):
            return [f"{n(public.seat)} must miss {plural(public.count, 'turn')}."]
        if isinstance(public, pb.MalusMoved):
            return [
                f"{n(public.seat)} takes revenge: their {draw(public.card)} goes to "
                f"{n(public.target)}."
            ]
        if isinstance(public, pb.HandsShown):
            lines = [f"{n(public.seat)}, the journalist, looks at every other hand."]
            shown = event.secret(pb.ShownHands)
            if shown is not None:
                lines += [f"{n(h.seat)} holds {draw_hand(h.cards)}." for h in shown.hands]
            return lines
        if isinstance(public, pb.JournalistAnnounced):
            verb = "holds" if public.holds else "does not hold"
            return [
                f'{n(public.seat)}, the journalist, announces: "{n(public.about)} {verb} '
                f'{draw(public.card)}." (Unchecked: it may be false.)'
            ]
        if isinstance(public, pb.PileShown):
            lines = [
                f"{n(public.seat)}, the medium, looks at the next "
                f"{plural(public.count, 'card')} of the draw pile."
            ]
            ahead = event.secret(pb.ShownPile)
            if ahead is not None:
                lines.append(f"{n(ahead.seat)} sees, top first: {draw_all(ahead.cards)}.")
            return lines
        if isinstance(public, pb.LuckCardsDrawn):
            lines = [
                f"{n(public.seat)} tries their luck with the next "
                f"{plural(public.count, 'card')} of the draw pile."
            ]
            luck = event.secret(pb.LuckCards)
            if luck is not None:
                lines.append(f"{n(luck.seat)} sees {draw_all(luck.cards)}.")
            return lines
        if isinstance(public, pb.LuckCardChosen):
            line = f"{n(public.seat)} chooses {draw(public.card)} from luck"
            if public.discarded:
                line += f"; {draw_all(public.discarded)} go to the discard pile"
            return [line + "."]
        if isinstance(public, pb.BarterStarted):
            line = f"{n(public.seat)} barters with {n(public.partner)}"
            line += ", keeping one card out of it." if public.protected else "."
            lines = [line]
            kept = event.secret(pb.ProtectedCard)
            if kept is not None:
                lines.append(f"{n(kept.seat)} keeps {draw(kept.card)} out of the barter.")
            return lines
        if isinstance(public, pb.CardsBartered):
            lines = [f"{n(public.seat)} and {n(public.partner)} each draw a card from the other."]
            swap = event.secret(pb.BarteredCards)
            if swap is not None:
                got_seat = draw(swap.to_seat) if swap.to_seat else "nothing"
                got_partner = draw(swap.to_partner) if swap.to_partner else "nothing"
                lines.append(
                    f"{n(swap.seat)} gets {got_seat}; {n(swap.partner)} gets {got_partner}."
                )
            return lines
        if isinstance(public, pb.HandsRedealt):
            counts = [f"{n(s)} {c}" for s, c in enumerate(public.counts)]
            lines = [
                "Tsunami: every hand is gathered and dealt back, as many cards each "
                f"({', '.join(counts)})."
            ]
            lines += [
                f"{n(r.seat)}'s new hand: {draw_hand(r.cards)}."
                for r in event.secrets_of(pb.RedealtCards)
            ]
            return lines
        if isinstance(public, pb.SalaryGiven):
            return [
                f"{n(public.seat)} gives {n(public.to_seat)} a [Salary {public.level}] "
                "for their birthday."
            ]
        if isinstance(public, pb.StepOpened):
            return [self._step_opened(public, names)]
        if isinstance(public, pb.StepClosed):
            return [f"{n(public.seat)} {STEP_DONE.get(public.step, 'is done')}."]
        if isinstance(public, pb.GameEnded):
            scores = ", ".join(f"{n(s)} {smiles}" for s, smiles in enumerate(public.smiles))
            best = listing([n(s) for s in public.winners])
            return [f"The draw pile is empty: the game ends. Smiles: {scores}. Most: {best}."]
        return [public.DESCRIPTOR.name]  # pragma: no cover - every event is told above

    @staticmethod
    def _played(m: pb.CardPlayed, names: Names) -> str:
        who, c = name(names, m.seat), draw(m.card)
        if m.destination == pb.DESTINATION_DISCARD:
            return f"{who} discards {c}."
        if m.destination == pb.DESTINATION_MALUS:
            if m.card == TERRORIST_ATTACK or not m.HasField("target"):
                named = f", naming {name(names, m.target)}" if m.HasField("target") else ""
                return f"{who} commits a {c}{named}: every child in play leaves the game."
            return f"{who} plays {c} on {name(names, m.target)}."
        if m.destination == pb.DESTINATION_CASINO:  # pragma: no cover - bets are CasinoBetPlaced
            return f"{who} bets on the casino."
        family = card(m.card).family if is_card(m.card) else ""
        if family == STUDY:
            return f"{who} studies: {c}."
        if family == JOB:
            how = " by string-pulling" if m.by_piston else ""
            return f"{who} takes a job{how}: {c}."
        if family == SALARY:
            return f"{who} earns a {c}."
        if family == FLIRT:
            return f"{who} flirts: {c}."
        if family == MARRIAGE:
            return f"{who} marries: {c}."
        if family == ADULTERY:
            return f"{who} commits {c}."
        if family == CHILD:
            return f"{who} has a child: {c}."
        if family == PET:
            return f"{who} adopts a pet: {c}."
        if family == TRIP:
            return f"{who} goes on a trip: {c}."
        if family == HOUSE:
            return f"{who} buys a house: {c}."
        if family == DISTINCTION:
            return f"{who} receives the {c}."
        if family == SPECIAL:
            return f"{who} plays {c}."
        return f"{who} plays {c} to their life."

    @staticmethod
    def _discarded(m: pb.CardDiscarded, names: Names) -> str:
        who, c = name(names, m.seat), draw(m.card)
        if m.zone == pb.ZONE_HAND:
            if m.under_top:
                return f"{who} discards {c} from their hand, under the top of the discard pile."
            return f"{who} discards {c} from their hand."
        return f"{who}'s {zone_of(m)} {c} goes to the discard pile."

    @staticmethod
    def _step_opened(m: pb.StepOpened, names: Names) -> str:
        who = name(names, m.seat)
        if m.step == pb.STEP_BIRTHDAY_GIFT and m.HasField("other_seat"):
            return f"{who} is to give {name(names, m.other_seat)} a salary for their birthday."
        if m.step == pb.STEP_BARTER_DRAW and m.HasField("other_seat"):
            other = name(names, m.other_seat)
            return f"A card is drawn at random from {who}'s and {other}'s hands."
        if m.step == pb.STEP_TSUNAMI:
            return f"{who}'s tsunami: every hand is gathered."
        if m.step == pb.STEP_PLAY_HELD and m.may_discard:
            return f"{who} is to play the card chosen (anywhere, the discard pile too)."
        words = STEP_WORDS.get(m.step, "choose")
        line = f"{who} is to {words}"
        if m.HasField("other_seat"):
            line += f" with {name(names, m.other_seat)}"
        return line + "."

    # ------------------------------------------------------------- scene

    def scene(self, view: Message, names: Names, seat: int | None) -> Scene:
        assert isinstance(view, pb.View)
        n = lambda s: name(names, s)  # noqa: E731
        waiting = tuple(view.awaiting)
        status = self._status(view, names)
        seats = tuple(self._seat_line(s, seat) for s in view.seats)
        table: list[str] = []
        if view.phase != pb.PHASE_SETUP:
            pile = f"Draw pile: {plural(view.draw_pile_count, 'card')}"
            if view.set_aside_count:
                pile += f" ({view.set_aside_count} set aside)"
            table.append(pile)
            if view.discard_pile:
                top = view.discard_pile[-1]
                whose = f" ({n(top.discarded_by)}'s)" if top.HasField("discarded_by") else ""
                table.append(
                    f"Discard pile: {plural(len(view.discard_pile), 'card')}, "
                    f"top {draw(top.card)}{whose}"
                )
            else:
                table.append("Discard pile: empty")
        if view.river:
            table.append(f"River: {draw_all(view.river)}")
        if view.HasField("casino") and view.casino.open:
            casino = view.casino
            line = f"Casino (opened by {n(casino.owner)})"
            if casino.has_bet:
                bet = draw(casino.bet_card) if casino.bet_card else HIDDEN
                line += f": {n(casino.bettor)} bet {bet}"
                if casino.has_second_bet:  # a replay, before the CasinoResolved
                    second = draw(casino.second_bet_card) if casino.second_bet_card else HIDDEN
                    line += f", {n(casino.second_bettor)} bet {second}"
            elif casino.open_to_all:
                line += ": anyone may bet"
            table.append(line)
        if view.held_card:
            holder = n(view.current_seat) if view.HasField("current_seat") else "The player"
            table.append(f"{holder} holds {draw(view.held_card)}, to be played at once")
        if view.luck_count:
            seen = list(view.luck_cards) or [""] * view.luck_count
            table.append(f"Luck shows: {draw_all(seen)}")
        if view.known_pile:
            known = " ".join(f"{k.position + 1}:{draw(k.card)}" for k in view.known_pile)
            table.append(f"You know in the draw pile: {known}")
        if view.out_of_game:
            table.append(f"Out of the game: {draw_all(view.out_of_game)}")
        hand = ""
        if seat is not None and seat < len(view.seats) and view.seats[seat].hand_visible:
            hand = draw_hand(view.seats[seat].hand)
        return Scene(status=status, seats=seats, table=tuple(table), hand=hand, waiting_for=waiting)

    @staticmethod
    def _status(view: pb.View, names: Names) -> str:
        n = lambda s: name(names, s)  # noqa: E731
        if view.phase == pb.PHASE_SETUP or not view.seats:
            return "Waiting for the deal"
        if view.phase == pb.PHASE_OVER:
            winners = [n(s) for s in view.winners]
            best = max((s.smiles for s in view.seats), default=0)
            verb = "wins" if len(winners) == 1 else "share the win"
            return f"Game over: {listing(winners)} {verb} with {plural(best, 'smile')}"
        head = f"Turn {view.turn}"
        if view.HasField("current_seat"):
            head += f" · {n(view.current_seat)}'s turn"
        if view.steps:
            top = view.steps[-1]
            words = STEP_WORDS.get(top.step, "choose")
            if top.step == pb.STEP_BIRTHDAY_GIFT and top.HasField("other_seat"):
                words = f"give {n(top.other_seat)} a salary (birthday)"
            if top.step == pb.STEP_RAINBOW:
                words += f", {top.played} played"
            return f"{head} · {n(top.seat)} is to {words}"
        if view.stage == pb.STAGE_START:
            return f"{head} · draw or take the top discard"
        if view.stage == pb.STAGE_PLAY:
            return f"{head} · play a card"
        return head

    @staticmethod
    def _seat_line(s: pb.SeatView, viewer: int | None) -> str:
        life = s.life
        parts = [plural(s.smiles, "smile")]
        if s.hand_visible and s.seat == viewer:
            parts.append(f"hand {s.hand_count}")
        elif s.hand_visible:
            parts.append(f"hand {draw_hand(s.hand)}")
        else:
            hand = f"hand {s.hand_count}"
            if s.known_cards:
                hand += f" (known {draw_hand(s.known_cards)})"
            parts.append(hand)
        if life.studies:
            parts.append(f"studies {draw_all(st.card for st in life.studies)}")
        if life.job:
            job = f"job {draw(life.job)}"
            if life.prize_active:
                job += " with [Excellence prize]"
            parts.append(job)
        if life.salaries:
            face_up = [x.card for x in life.salaries if not x.invested]
            spent = sum(x.invested for x in life.salaries)
            salaries = f"salaries {draw_all(face_up)}"
            if spent:
                salaries += f" +{spent} invested"
            parts.append(salaries)
        flirts = [*life.flirts, *life.kept_flirts]
        if flirts:
            parts.append(f"flirts {draw_all(flirts)}")
        if life.marriage:
            parts.append(f"married {draw(life.marriage)}")
        if life.adultery:
            adultery = "in [Adultery]"
            if life.adultery_flirts:
                adultery += f" {draw_all(life.adultery_flirts)}"
            parts.append(adultery)
        for label, cards in (
            ("children", life.children),
            ("pets", life.pets),
            ("houses", life.houses),
            ("trips", life.trips),
            ("distinctions", life.distinctions),
            ("maluses", life.maluses),
            ("used", life.specials),
        ):
            if cards:
                parts.append(f"{label} {draw_all(cards)}")
        if life.inheritance:
            parts.append(f"inheritance {life.inheritance}")
        if life.missed_turns:
            parts.append(f"misses {plural(life.missed_turns, 'turn')}")
        return " · ".join(parts)

    # ----------------------------------------------------------- actions

    def action(self, command: Message, view: Message, names: Names) -> str:
        assert isinstance(view, pb.View)
        n = lambda s: name(names, s)  # noqa: E731
        if isinstance(command, pb.DrawCard):
            return "Draw a card"
        if isinstance(command, pb.TakeDiscard):
            top = draw(view.discard_pile[-1].card) if view.discard_pile else "the top card"
            return f"Take {top} from the discard pile and play it at once"
        if isinstance(command, pb.TakeRiverCard):
            return f"Take {draw(command.card)} from the river"
        if isinstance(command, pb.PlayCard):
            return self._play_label(command, view, names)
        if isinstance(command, pb.Resign):
            me = self._actor(view)
            job = draw(view.seats[me].life.job) if me is not None else "your job"
            line = f"Resign from {job}"
            if command.discard:
                line += f", discarding {draw(command.discard)} under it"
            return line
        if isinstance(command, pb.Divorce):
            return "Divorce instead of drawing (your turn ends)"
        if isinstance(command, pb.StopAdultery):
            return "Stop your adultery"
        if isinstance(command, pb.Decline):
            step: int = view.steps[-1].step if view.steps else 0
            declined: dict[int, str] = {
                pb.STEP_RAINBOW: "Stop the rainbow and draw back",
                pb.STEP_CASINO_BET: "Do not bet on the casino now",
                pb.STEP_PISTON: "Do not place a job by string-pulling",
                pb.STEP_ASTRONAUT: "Take nothing from the discard pile",
                pb.STEP_MANAGER_BARTER: "Do not barter",
                pb.STEP_JOURNALIST: "Done announcing",
            }
            return declined.get(step, "Decline")
        if isinstance(command, pb.ChooseLuckCard):
            line = f"Keep {draw(command.card)} from luck"
            if command.top_discard:
                line += f", {draw(command.top_discard)} on top of the discard pile"
            return line
        if isinstance(command, pb.TakeFromDiscard):
            return f"Take {draw(command.card)} from the discard pile and play it"
        if isinstance(command, pb.ChooseBarterPartner):
            partner = command.partner
            count = view.seats[partner].hand_count if partner < len(view.seats) else 0
            line = f"Barter with {n(partner)} ({plural(count, 'card')})"
            if command.protect:
                line += f", keeping {draw(command.protect)} out of it"
            return line
        if isinstance(command, pb.TakeRevenge):
            return f"Pass your {draw(command.malus)} on to {n(command.target)}"
        if isinstance(command, pb.GiveSalary):
            top_step = view.steps[-1] if view.steps else None
            to = (
                n(top_step.other_seat)
                if top_step is not None and top_step.HasField("other_seat")
                else "the birthday player"
            )
            return f"Give {to} a [Salary {command.level}]"
        if isinstance(command, pb.DiscardFromHand):
            return f"Discard {draw(command.card)} under your lost job"
        if isinstance(command, pb.Announce):
            verb = "holds" if command.holds else "does not hold"
            return f'Announce "{n(command.seat)} {verb} {draw(command.card)}"'
        return command.DESCRIPTOR.name  # pragma: no cover - every command is named above

    @staticmethod
    def _actor(view: pb.View) -> int | None:
        if view.awaiting:
            return view.awaiting[0]
        return view.current_seat if view.HasField("current_seat") else None

    def _play_label(self, command: pb.PlayCard, view: pb.View, names: Names) -> str:
        c = draw(command.card)
        held = bool(view.held_card) and command.card == view.held_card and self._holding(view)
        source = f"the {c} you hold" if held else c
        destination = command.destination
        if destination == pb.DESTINATION_DISCARD:
            return f"Discard {source}"
        if destination == pb.DESTINATION_CASINO:
            return f"Bet {source} on the casino"
        if destination == pb.DESTINATION_MALUS:
            if command.card == TERRORIST_ATTACK:
                named = (
                    f", naming {name(names, command.target)}" if command.HasField("target") else ""
                )
                return f"Play {source}{named}: every child in play leaves the game"
            if not command.HasField("target"):
                return f"Play {source}: every child in play leaves the game"
            return f"Play {source} on {name(names, command.target)}"
        line = f"Play {source} to your life"
        if view.steps and view.steps[-1].step == pb.STEP_PISTON:
            line = f"Place {source} by string-pulling"
        if command.HasField("steal_from"):
            line += f", taking {name(names, command.steal_from)}'s flirt"
        kind = card(command.card).family if is_card(command.card) else ""
        if kind in (TRIP, HOUSE):
            payment = command.payment
            line += ", " + payment_words(
                list(payment.salary_levels), payment.inheritance, payment.free
            )
        return line

    @staticmethod
    def _holding(view: pb.View) -> bool:
        return bool(view.steps) and view.steps[-1].step == pb.STEP_PLAY_HELD


NARRATOR = SmileLifeNarrator()
