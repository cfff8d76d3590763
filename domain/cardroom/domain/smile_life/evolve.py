"""Folding events into a state. Boring on purpose: every rule and refusal
lives in the deciding modules; each event here only moves the cards it
names. Full and redacted events fold alike: a secret the viewer may not see
is missing, and the card it would have named stays ``None`` (unseen).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardroom.domain.kernel import Event
from cardroom.domain.smile_life.cards import (
    BANDIT,
    CASINO,
    CHILD,
    DISTINCTION,
    EXCELLENCE_PRIZE,
    FLIRT,
    HOUSE,
    INHERITANCE,
    JOB,
    MARRIAGE,
    PET,
    SALARY,
    SALARY_OF_LEVEL,
    SPECIAL,
    STUDY,
    TERRORIST_ATTACK,
    TRIP,
    card,
)
from cardroom.domain.smile_life.state import (
    Barter,
    Casino,
    Hand,
    Life,
    Salary,
    State,
    Step,
    Study,
    derive,
    drop,
    forget,
    normalized,
    put,
    with_card,
    without,
)
from cardroom.smile_life.v1 import smile_life_pb2 as pb
from cardroom.v1 import table_pb2 as tpb


def _life(state: State, seat: int, **changes: Any) -> State:
    return derive(state, lives=put(state.lives, seat, derive(state.lives[seat], **changes)))


def _hand(state: State, seat: int, hand: Hand) -> State:
    return derive(state, hands=put(state.hands, seat, hand))


def _unseen(count: int) -> tuple[None, ...]:
    return (None,) * count


def _cards_dealt(state: State, e: Event, m: pb.CardsDealt) -> State:
    dealt = {s.seat: tuple(s.cards) for s in e.secrets_of(pb.DealtCards)}
    pile = e.secret(pb.DrawPile)
    aside = e.secret(pb.SetAside)
    n = state.seat_count
    return derive(
        state,
        phase=pb.PHASE_TURN,
        lives=(Life(),) * n,
        hands=tuple(normalized(dealt.get(s, _unseen(m.hand_size))) for s in range(n)),
        pile=tuple(pile.cards) if pile is not None else _unseen(m.draw_pile_count),
        set_aside=tuple(aside.cards) if aside is not None else _unseen(m.set_aside_count),
    )


def _river_card_dealt(state: State, e: Event, m: pb.RiverCardDealt) -> State:
    return derive(state, pile=state.pile[1:], river=(*state.river, m.card))


def _river_discarded(state: State, e: Event, m: pb.RiverDiscarded) -> State:
    gone = tuple((c, None) for c in state.river)
    return derive(state, discard=state.discard + gone, river=(), river_idle=0)


def _turn_started(state: State, e: Event, m: pb.TurnStarted) -> State:
    return derive(
        state,
        current=m.seat,
        turn=m.turn,
        stage=pb.STAGE_START,
        took_river=False,
        drawn=None,
        start_seat=m.seat if state.start_seat is None else state.start_seat,
    )


def _idle(state: State) -> int:
    return state.river_idle + 1 if state.settings.river else 0


def _turn_missed(state: State, e: Event, m: pb.TurnMissed) -> State:
    state = _life(state, m.seat, missed=m.remaining)
    return derive(state, river_idle=_idle(state))


def _turn_ended(state: State, e: Event, m: pb.TurnEnded) -> State:
    return derive(state, river_idle=0 if state.took_river else _idle(state))


def _card_drawn(state: State, e: Event, m: pb.CardDrawn) -> State:
    secret = e.secret(pb.DrawnCard)
    drawn = secret.card if secret is not None else state.pile[0]
    state = derive(state, pile=state.pile[1:])
    if m.for_turn:
        state = derive(state, stage=pb.STAGE_PLAY, drawn=secret.card if secret else None)
    return _hand(state, m.seat, with_card(state.hands[m.seat], drawn))


def _discard_taken(state: State, e: Event, m: pb.DiscardTaken) -> State:
    return derive(state, discard=drop(state.discard, m.index), held=m.card, stage=pb.STAGE_DONE)


def _river_card_taken(state: State, e: Event, m: pb.RiverCardTaken) -> State:
    river = list(state.river)
    river.remove(m.card)
    state = derive(state, river=tuple(river), took_river=True, stage=pb.STAGE_PLAY)
    return _hand(state, m.seat, with_card(state.hands[m.seat], m.card))


def _place(state: State, seat: int, played: str, by_piston: bool) -> State:
    """The card joins the player's life, where its family goes."""
    life = state.lives[seat]
    kind = card(played).family
    if kind == STUDY:
        doctor = life.continues_studies
        study = Study(played, protected=doctor, counts=not (doctor and life.by_piston))
        return _life(state, seat, studies=(*life.studies, study))
    if kind == JOB:
        return _life(
            state,
            seat,
            job=played,
            job_since=state.turn,
            by_piston=by_piston,
            free_houses_used=0,
            prize_active=False,
            was_bandit=life.was_bandit or played == BANDIT,
        )
    if kind == SALARY:
        return _life(state, seat, salaries=(*life.salaries, Salary(played)))
    if kind == FLIRT:
        if life.married:
            return _life(state, seat, adultery_flirts=(*life.adultery_flirts, played))
        return _life(state, seat, flirts=(*life.flirts, played))
    if kind == MARRIAGE:
        return _life(state, seat, marriage=played)
    if kind == DISTINCTION:
        if played == EXCELLENCE_PRIZE:
            assert life.job is not None
            return _life(state, seat, prize_active=True, prize_jobs=(*life.prize_jobs, life.job))
        return _life(state, seat, distinctions=(*life.distinctions, played))
    if kind == SPECIAL:
        if played == CASINO:
            return derive(state, casino=Casino(owner=seat))
        state = _life(state, seat, specials=(*life.specials, played))
        if played == INHERITANCE:
            state = _life(state, seat, inheritance=card(INHERITANCE).value)
        return state
    group = {CHILD: "children", PET: "pets", TRIP: "trips", HOUSE: "houses"}.get(kind)
    if group is None:  # the adultery
        return _life(state, seat, adultery=played)
    return _life(state, seat, **{group: (*getattr(life, group), played)})


def _counted(state: State) -> State:
    """A card from hand was played: a rainbow's play counts, and the turn's
    own play is made."""
    top = state.top
    if top is not None and top.kind == pb.STEP_RAINBOW:
        return derive(state, steps=(*state.steps[:-1], derive(top, played=top.played + 1)))
    if top is None and state.stage == pb.STAGE_PLAY:
        return derive(state, stage=pb.STAGE_DONE)
    return state


def _card_played(state: State, e: Event, m: pb.CardPlayed) -> State:
    seat = m.seat
    if m.source == pb.SOURCE_HAND:
        state = _counted(_hand(state, seat, without(state.hands[seat], m.card)))
    else:
        state = derive(state, held=None)
    if m.destination == pb.DESTINATION_DISCARD:
        return derive(state, discard=(*state.discard, (m.card, seat)))
    if m.destination == pb.DESTINATION_MALUS:
        if m.card != TERRORIST_ATTACK:
            victim = state.lives[m.target]
            return _life(state, m.target, maluses=(*victim.maluses, m.card))
        state = derive(state, out_of_game=(*state.out_of_game, m.card))  # SL-09, SL-23
        return _life(state, seat, attacker=True)
    return _place(state, seat, m.card, m.by_piston)


def _casino(state: State) -> Casino:
    if state.casino is None:
        raise ValueError("no casino is open")
    return state.casino


def _casino_bet_placed(state: State, e: Event, m: pb.CasinoBetPlaced) -> State:
    secret = e.secret(pb.CasinoBet)
    bet = secret.card if secret is not None else None
    hand = state.hands[m.seat]
    hand = forget(hand, len(hand) - 1) if bet is None else without(hand, bet)
    casino = _casino(state)
    if casino.bettor is None:
        casino = derive(casino, bettor=m.seat, bet=bet)
    else:
        casino = derive(casino, second_bettor=m.seat, second_bet=bet)
    return derive(_counted(_hand(state, m.seat, hand)), casino=casino)


def _casino_resolved(state: State, e: Event, m: pb.CasinoResolved) -> State:
    winner = state.lives[m.winner]
    won = (Salary(m.first_card), Salary(m.second_card))
    state = _life(state, m.winner, salaries=winner.salaries + won)
    casino = Casino(owner=_casino(state).owner, open_to_all=True)
    return derive(state, casino=casino)


def _casino_bet_returned(state: State, e: Event, m: pb.CasinoBetReturned) -> State:
    owner = state.lives[m.seat]
    state = _life(state, m.seat, salaries=(*owner.salaries, Salary(m.card)))
    return derive(state, casino=derive(_casino(state), bettor=None, bet=None))


def _flirt_stolen(state: State, e: Event, m: pb.FlirtStolen) -> State:
    victim = state.lives[m.from_seat]
    if victim.married:
        state = _life(state, m.from_seat, adultery_flirts=victim.adultery_flirts[:-1])
    else:
        state = _life(state, m.from_seat, flirts=victim.flirts[:-1])
    thief = state.lives[m.seat]
    if thief.married:
        return _life(state, m.seat, adultery_flirts=(*thief.adultery_flirts, m.card))
    return _life(state, m.seat, flirts=(*thief.flirts, m.card))


def _acquisition_paid(state: State, e: Event, m: pb.AcquisitionPaid) -> State:
    life = state.lives[m.seat]
    salaries = life.salaries
    for level in m.salary_levels:
        index = derive(life, salaries=salaries).latest_face_up(level)
        assert index is not None, f"no face-up salary of level {level}"
        salaries = put(salaries, index, Salary(salaries[index].card, invested=True))
    used = life.free_houses_used + (m.free and card(m.card).family == HOUSE)
    inheritance = 0 if m.inheritance else life.inheritance
    return _life(state, m.seat, salaries=salaries, inheritance=inheritance, free_houses_used=used)


def _leave_life(state: State, seat: int, zone: pb.Zone, index: int) -> State:
    """The card at ``index`` of the zone leaves the seat's life."""
    life = state.lives[seat]
    if zone == pb.ZONE_JOB:
        return _life(state, seat, job=None, by_piston=False, free_houses_used=0)
    if zone == pb.ZONE_MARRIAGE:
        return _life(state, seat, marriage=None)
    if zone == pb.ZONE_ADULTERY:
        kept = life.kept_flirts + life.adultery_flirts
        return _life(state, seat, adultery=None, adultery_flirts=(), kept_flirts=kept)
    name = {
        pb.ZONE_STUDIES: "studies",
        pb.ZONE_SALARIES: "salaries",
        pb.ZONE_CHILDREN: "children",
        pb.ZONE_MALUSES: "maluses",
    }[zone]
    return _life(state, seat, **{name: drop(getattr(life, name), index)})


def _card_discarded(state: State, e: Event, m: pb.CardDiscarded) -> State:
    if m.zone == pb.ZONE_HAND:
        state = _hand(state, m.seat, without(state.hands[m.seat], m.card))
    else:
        state = _leave_life(state, m.seat, m.zone, m.index)
    entry = (m.card, m.seat)
    pile = state.discard
    if m.under_top and pile:
        return derive(state, discard=(*pile[:-1], entry, pile[-1]))
    return derive(state, discard=(*pile, entry))


def _prize_turned_over(state: State, e: Event, m: pb.PrizeTurnedOver) -> State:
    life = state.lives[m.seat]
    return _life(
        state, m.seat, prize_active=False, distinctions=(*life.distinctions, EXCELLENCE_PRIZE)
    )


def _card_removed_from_game(state: State, e: Event, m: pb.CardRemovedFromGame) -> State:
    state = _leave_life(state, m.seat, m.zone, m.index)
    return derive(state, out_of_game=(*state.out_of_game, m.card))


def _turns_to_miss(state: State, e: Event, m: pb.TurnsToMiss) -> State:
    return _life(state, m.seat, missed=state.lives[m.seat].missed + m.count)


def _malus_moved(state: State, e: Event, m: pb.MalusMoved) -> State:
    maluses = state.lives[m.seat].maluses
    state = _life(state, m.seat, maluses=drop(maluses, maluses.index(m.card)))
    return _life(state, m.target, maluses=(*state.lives[m.target].maluses, m.card))


def _hands_shown(state: State, e: Event, m: pb.HandsShown) -> State:
    shown = e.secret(pb.ShownHands)
    if shown is None:
        return state
    hands = list(state.hands)
    for hand in shown.hands:
        hands[hand.seat] = normalized(hand.cards)
    return derive(state, hands=tuple(hands))


def _journalist_announced(state: State, e: Event, m: pb.JournalistAnnounced) -> State:
    return state  # SL-35: talk, logged; it changes nothing


def _pile_shown(state: State, e: Event, m: pb.PileShown) -> State:
    shown = e.secret(pb.ShownPile)
    if shown is None:
        return state
    return derive(state, pile=(*shown.cards, *state.pile[len(shown.cards) :]))


def _luck_cards_drawn(state: State, e: Event, m: pb.LuckCardsDrawn) -> State:
    secret = e.secret(pb.LuckCards)
    luck = tuple(secret.cards) if secret is not None else state.pile[: m.count]
    return derive(state, luck=luck, pile=state.pile[m.count :])


def _luck_card_chosen(state: State, e: Event, m: pb.LuckCardChosen) -> State:
    gone = tuple((c, m.seat) for c in m.discarded)
    return derive(state, luck=(), held=m.card, discard=state.discard + gone)


def _barter_started(state: State, e: Event, m: pb.BarterStarted) -> State:
    secret = e.secret(pb.ProtectedCard)
    protected_card = secret.card if secret is not None else None
    return derive(state, barter=Barter(m.seat, m.partner, m.protected, protected_card))


def _cards_bartered(state: State, e: Event, m: pb.CardsBartered) -> State:
    detail = e.secret(pb.BarteredCards)
    mine, theirs = state.hands[m.seat], state.hands[m.partner]
    if detail is None:
        mine, theirs = forget(mine, len(mine)), forget(theirs, len(theirs))
    else:
        if detail.to_partner:
            mine, theirs = without(mine, detail.to_partner), with_card(theirs, detail.to_partner)
        if detail.to_seat:
            theirs, mine = without(theirs, detail.to_seat), with_card(mine, detail.to_seat)
    state = _hand(_hand(state, m.seat, mine), m.partner, theirs)
    return derive(state, barter=None)


def _hands_redealt(state: State, e: Event, m: pb.HandsRedealt) -> State:
    dealt = {s.seat: tuple(s.cards) for s in e.secrets_of(pb.RedealtCards)}
    hands = tuple(
        normalized(dealt.get(seat, _unseen(count))) for seat, count in enumerate(m.counts)
    )
    return derive(state, hands=hands)


def _salary_given(state: State, e: Event, m: pb.SalaryGiven) -> State:
    giver = state.lives[m.seat]
    index = giver.latest_face_up(m.level)
    assert index is not None, f"seat {m.seat} has no face-up salary of level {m.level}"
    state = _life(state, m.seat, salaries=drop(giver.salaries, index))
    receiver = state.lives[m.to_seat]
    given = Salary(SALARY_OF_LEVEL[m.level])
    return _life(state, m.to_seat, salaries=(*receiver.salaries, given))


def _step_opened(state: State, e: Event, m: pb.StepOpened) -> State:
    other = m.other_seat if m.HasField("other_seat") else None
    step = Step(m.step, m.seat, other, m.may_discard)
    return derive(state, steps=(*state.steps, step))


def _step_closed(state: State, e: Event, m: pb.StepClosed) -> State:
    top = state.top
    if top is None or top.kind != m.step:
        raise ValueError(f"closing step {m.step}, but the open step is {top}")
    return derive(state, steps=state.steps[:-1])


def _game_ended(state: State, e: Event, m: pb.GameEnded) -> State:
    return derive(state, phase=pb.PHASE_OVER, steps=(), winners=tuple(m.winners))


def _seat_resigned(state: State, e: Event, m: tpb.SeatResigned) -> State:
    return derive(state, departed=state.departed | {m.seat})


HANDLERS: dict[type, Callable[[State, Event, Any], State]] = {
    tpb.SeatResigned: _seat_resigned,
    pb.CardsDealt: _cards_dealt,
    pb.RiverCardDealt: _river_card_dealt,
    pb.RiverDiscarded: _river_discarded,
    pb.TurnStarted: _turn_started,
    pb.TurnMissed: _turn_missed,
    pb.TurnEnded: _turn_ended,
    pb.CardDrawn: _card_drawn,
    pb.DiscardTaken: _discard_taken,
    pb.RiverCardTaken: _river_card_taken,
    pb.CardPlayed: _card_played,
    pb.CasinoBetPlaced: _casino_bet_placed,
    pb.CasinoResolved: _casino_resolved,
    pb.CasinoBetReturned: _casino_bet_returned,
    pb.FlirtStolen: _flirt_stolen,
    pb.AcquisitionPaid: _acquisition_paid,
    pb.CardDiscarded: _card_discarded,
    pb.PrizeTurnedOver: _prize_turned_over,
    pb.CardRemovedFromGame: _card_removed_from_game,
    pb.TurnsToMiss: _turns_to_miss,
    pb.MalusMoved: _malus_moved,
    pb.HandsShown: _hands_shown,
    pb.JournalistAnnounced: _journalist_announced,
    pb.PileShown: _pile_shown,
    pb.LuckCardsDrawn: _luck_cards_drawn,
    pb.LuckCardChosen: _luck_card_chosen,
    pb.BarterStarted: _barter_started,
    pb.CardsBartered: _cards_bartered,
    pb.HandsRedealt: _hands_redealt,
    pb.SalaryGiven: _salary_given,
    pb.StepOpened: _step_opened,
    pb.StepClosed: _step_closed,
    pb.GameEnded: _game_ended,
}


def evolve(state: State, e: Event) -> State:
    handler = HANDLERS.get(type(e.public))
    if handler is None:
        raise TypeError(f"not a Smile Life event: {e.public.DESCRIPTOR.full_name}")
    return handler(state, e, e.public)
