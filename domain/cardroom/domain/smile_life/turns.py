"""The turn around the play (SL-03, SL-04, SL-10, SL-20, SL-21): drawing,
taking the top discard or a river card, resigning, divorcing, stopping an
adultery; then, once the play and its steps are done, the end of the turn:
the river's round, missed turns (SL-07), the end of the game (SL-05)."""

from __future__ import annotations

from google.protobuf.message import Message

from cardroom.domain.kernel import RuleViolation
from cardroom.domain.smile_life.batch import Batch, discard_from_life, draw, lose_job, refill
from cardroom.domain.smile_life.cards import HAND_SIZE, RESEARCHER, RIVER_SIZE, card
from cardroom.domain.smile_life.plays import TAKEN, has_play
from cardroom.domain.smile_life.state import State, known
from cardroom.domain.smile_life.steps import close_step, open_step
from cardroom.smile_life.v1 import smile_life_pb2 as pb

RAINBOW_PLAYS = 3  # SL-16


# ------------------------------------------------------- start of a turn


def take_discard_problem(state: State, seat: int) -> RuleViolation | None:
    if not state.discard:
        return RuleViolation("SL-03", "the discard pile is empty")
    top, _ = state.discard[-1]
    if not state.may_take_back(seat, len(state.discard) - 1):
        return RuleViolation("SL-04", f"you discarded this {top} yourself")
    if not has_play(state, seat, top, TAKEN):
        return RuleViolation("SL-21", f"you could not play {top} at once")
    return None


def take_discard(batch: Batch, seat: int) -> None:
    index = len(batch.state.discard) - 1
    top, _ = batch.state.discard[index]
    batch.emit(pb.DiscardTaken(seat=seat, card=top, index=index))
    open_step(batch, pb.STEP_PLAY_HELD, seat)


def river_problem(state: State, seat: int, wanted: str) -> RuleViolation | None:
    if not state.settings.river:
        return RuleViolation("SL-20", "this game has no river")
    if wanted not in state.river:
        return RuleViolation("SL-20", f"there is no {wanted} in the river")
    return None


def take_river_card(batch: Batch, seat: int, wanted: str) -> None:
    batch.emit(pb.RiverCardTaken(seat=seat, card=wanted))
    _deal_river(batch, 1)


def _deal_river(batch: Batch, count: int) -> None:
    for _ in range(count):
        pile = batch.state.pile
        if not pile:
            return
        batch.emit(pb.RiverCardDealt(card=known(pile[:1])[0]))


def deal_river(batch: Batch) -> None:
    _deal_river(batch, RIVER_SIZE)


def resign_problem(state: State, seat: int, command: pb.Resign) -> RuleViolation | None:
    life = state.lives[seat]
    if life.job is None:
        return RuleViolation("SL-10", "you have no job to resign from")
    if state.stage != pb.STAGE_START and not card(life.job).is_temp:
        return RuleViolation("SL-10", "only a temp resigns after drawing")
    extra = life.job == RESEARCHER and len(state.hands[seat]) > HAND_SIZE
    if extra and command.discard not in state.hands[seat]:
        return RuleViolation("SL-10", "a researcher also discards a card of their hand")
    if not extra and command.discard:
        return RuleViolation("SL-10", "only a researcher discards a card with the job")
    return None


def resign(batch: Batch, seat: int, command: pb.Resign) -> None:
    life = batch.state.lives[seat]
    assert life.job is not None
    temp = card(life.job).is_temp
    if command.discard:  # under the job (SL-34(a))
        batch.emit(pb.CardDiscarded(seat=seat, card=command.discard, zone=pb.ZONE_HAND))
    lose_job(batch, seat)
    if not temp:
        end_turn(batch)


def divorce_problem(state: State, seat: int) -> RuleViolation | None:
    if not state.lives[seat].married:
        return RuleViolation("SL-10", "you are not married")
    if state.stage != pb.STAGE_START:
        return RuleViolation("SL-10", "divorce instead of drawing")
    return None


def divorce(batch: Batch, seat: int) -> None:
    """SL-10: the adultery goes first, the marriage on top; the turn ends."""
    life = batch.state.lives[seat]
    assert life.marriage is not None
    if life.adultery is not None:
        discard_from_life(batch, seat, life.adultery, pb.ZONE_ADULTERY)
    discard_from_life(batch, seat, life.marriage, pb.ZONE_MARRIAGE)
    end_turn(batch)


def stop_adultery_problem(state: State, seat: int) -> RuleViolation | None:
    if state.lives[seat].adultery is None:
        return RuleViolation("SL-10", "you are not in adultery")
    return None


def stop_adultery(batch: Batch, seat: int) -> None:
    adultery = batch.state.lives[seat].adultery
    assert adultery is not None
    discard_from_life(batch, seat, adultery, pb.ZONE_ADULTERY)


def resign_options(state: State, seat: int) -> list[pb.Resign]:
    hand = known(state.hands[seat])
    options = [pb.Resign()] + [pb.Resign(discard=c) for c in sorted(set(hand))]
    return [o for o in options if resign_problem(state, seat, o) is None]


def free_actions(state: State, seat: int) -> list[Message]:
    """Before or after drawing (SL-34(c)): a temp resigns, an adultery stops."""
    actions: list[Message] = []
    if state.lives[seat].job is not None:
        actions.extend(resign_options(state, seat))
    if stop_adultery_problem(state, seat) is None:
        actions.append(pb.StopAdultery())
    return actions


def start_actions(state: State, seat: int) -> list[Message]:
    actions: list[Message] = [pb.DrawCard()]
    if take_discard_problem(state, seat) is None:
        actions.append(pb.TakeDiscard())
    if state.settings.river:
        actions.extend(pb.TakeRiverCard(card=c) for c in sorted(set(state.river)))
    if divorce_problem(state, seat) is None:
        actions.append(pb.Divorce())
    return actions + free_actions(state, seat)


# ------------------------------------------------------------ the end


def settle(batch: Batch) -> None:
    """After a command: close a finished rainbow; once the turn's play and
    every step are done, end the turn."""
    while batch.state.phase == pb.PHASE_TURN:
        top = batch.state.top
        if top is not None:
            if top.kind != pb.STEP_RAINBOW or top.played < RAINBOW_PLAYS:
                return  # waiting for a choice or the dealer
            close_step(batch)
            refill(batch, top.seat)
            continue
        if batch.state.stage == pb.STAGE_DONE:
            end_turn(batch)
        return


def _river_round(batch: Batch) -> None:
    """SL-20: a full round without a river card taken refreshes the river."""
    state = batch.state
    if state.settings.river and state.river_idle >= state.seat_count:
        batch.emit(pb.RiverDiscarded())
        deal_river(batch)


def end_turn(batch: Batch) -> None:
    """The next seat clockwise plays, past the turns it must miss (SL-07)
    and past every seat that left the game: it misses every turn (SL-37)."""
    state = batch.state
    assert state.current is not None
    batch.emit(pb.TurnEnded(seat=state.current))
    seat = state.current
    n = state.seat_count
    for _ in range(n * (sum(life.missed for life in state.lives) + 2)):
        _river_round(batch)
        if not batch.state.pile:
            end_game(batch)  # SL-05
            return
        seat = (seat + 1) % n
        missed = batch.state.lives[seat].missed
        if not missed and seat not in state.departed:
            batch.emit(pb.TurnStarted(seat=seat, turn=batch.state.turn + 1))
            return
        batch.emit(pb.TurnMissed(seat=seat, remaining=max(missed - 1, 0)))  # SL-07, SL-37
    raise AssertionError("missed turns did not run out")


def miss_turn_problem(state: State, seat: int) -> RuleViolation | None:
    if seat not in state.departed:
        return RuleViolation("SL-37", "only a seat that left the game misses its turn")
    return None


def end_game(batch: Batch) -> None:
    """SL-05: an unmatched casino bet comes home as a salary; most smiles
    among the seats still playing wins (G-03), a tie shares the win."""
    casino = batch.state.casino
    if casino is not None and casino.bettor is not None:
        [bet] = known([casino.bet])
        batch.emit(pb.CasinoBetReturned(seat=casino.bettor, card=bet))
    smiles = batch.state.smiles()
    playing = batch.state.playing  # G-03: only the seats still playing rank
    best = max(smiles[s] for s in playing)
    winners = [s for s in playing if smiles[s] == best]
    batch.emit(pb.GameEnded(smiles=smiles, winners=winners))


def draw_card(batch: Batch, seat: int) -> None:
    draw(batch, seat, for_turn=True)
