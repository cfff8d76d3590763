"""The per-viewer ``View``, rendered from a state folded from that viewer's
redacted stream. As a second line of defence it shows a hand, a face-down
bet or luck's cards only to a viewer allowed to see them, whatever state it
is handed; everything else it renders is public or the viewer's own
knowledge (a journalist's look, a medium's look).
"""

from __future__ import annotations

from cardroom.domain.kernel import Viewer
from cardroom.domain.smile_life.state import Casino, Life, State
from cardroom.smile_life.v1 import smile_life_pb2 as pb


def _life(state: State, seat: int) -> pb.Life:
    life: Life = state.lives[seat]
    return pb.Life(
        studies=[
            pb.StudyCard(card=s.card, protected=s.protected, counts_for_jobs=s.counts)
            for s in life.studies
        ],
        job=life.job or "",
        job_since_turn=life.job_since,
        job_by_piston=life.by_piston,
        free_houses_used=life.free_houses_used,
        prize_active=life.prize_active,
        salaries=[pb.SalaryCard(card=s.card, invested=s.invested) for s in life.salaries],
        flirts=life.flirts,
        adultery_flirts=life.adultery_flirts,
        kept_flirts=life.kept_flirts,
        marriage=life.marriage or "",
        adultery=life.adultery or "",
        children=life.children,
        pets=life.pets,
        trips=life.trips,
        houses=life.houses,
        distinctions=life.distinctions,
        specials=life.specials,
        maluses=life.maluses,
        inheritance=life.inheritance,
        missed_turns=life.missed,
        was_bandit=life.was_bandit,
        attacker=life.attacker,
        study_levels=life.study_levels,
        prize_jobs=life.prize_jobs,
        salary_max=state.salary_max(seat),
    )


def _seat(state: State, seat: int, viewer: Viewer) -> pb.SeatView:
    hand = state.hands[seat] if state.hands else ()
    out = pb.SeatView(seat=seat, hand_count=len(hand))
    if state.lives:
        out.hand_size = state.hand_size(seat)
        out.life.CopyFrom(_life(state, seat))
        out.smiles = state.lives[seat].smiles()
    seen = [c for c in hand if c is not None]
    if viewer.may_see({seat}) and len(seen) == len(hand):
        out.hand_visible = True
        out.hand.extend(seen)
    elif viewer.kind != "spectator":
        out.known_cards.extend(seen)
    return out


def _casino(casino: Casino, viewer: Viewer) -> pb.CasinoView:
    out = pb.CasinoView(open=True, owner=casino.owner, open_to_all=casino.open_to_all)
    if casino.bettor is not None:
        out.has_bet = True
        out.bettor = casino.bettor
        if casino.bet is not None and viewer.may_see({casino.bettor}):
            out.bet_card = casino.bet
    if casino.second_bettor is not None:
        out.has_second_bet = True
        out.second_bettor = casino.second_bettor
        if casino.second_bet is not None and viewer.may_see({casino.second_bettor}):
            out.second_bet_card = casino.second_bet
    return out


def _options(state: State) -> pb.Options:
    settings = state.settings
    options = pb.Options(
        allow_six_players=settings.allow_six_players,
        river_variant=settings.river,
        architect_free_houses=settings.architect_free_houses,
        start_tiebreak=settings.start_tiebreak,
        grand_prof_salary_max=settings.grand_prof_salary_max,
    )
    if settings.draw_pile_size is not None:
        options.draw_pile_size = settings.draw_pile_size
    return options


def render(state: State, viewer: Viewer) -> pb.View:
    view = pb.View(
        phase=state.phase,
        stage=state.stage,
        turn=state.turn,
        awaiting=state.awaiting(),
        seats=[_seat(state, s, viewer) for s in range(state.seat_count)],
        draw_pile_count=len(state.pile),
        set_aside_count=len(state.set_aside),
        discard_pile=[
            pb.DiscardView(card=c, discarded_by=by) if by is not None else pb.DiscardView(card=c)
            for c, by in state.discard
        ],
        river=state.river,
        river_idle_turns=state.river_idle,
        out_of_game=state.out_of_game,
        held_card=state.held or "",
        luck_count=len(state.luck),
        steps=[
            pb.StepView(
                step=s.kind,
                seat=s.seat,
                other_seat=s.other,
                may_discard=s.may_discard,
                played=s.played,
            )
            for s in state.steps
        ],
        winners=state.winners or (),
        options=_options(state),
    )
    if viewer.kind != "spectator":
        view.known_pile.extend(
            pb.KnownPileCard(position=i, card=c) for i, c in enumerate(state.pile) if c is not None
        )
        if state.current is not None and viewer.may_see({state.current}):
            view.luck_cards.extend(c for c in state.luck if c is not None)
    if state.current is not None:
        view.current_seat = state.current
    if state.start_seat is not None:
        view.start_seat = state.start_seat
    if state.casino is not None:
        view.casino.CopyFrom(_casino(state.casino, viewer))
    return view
