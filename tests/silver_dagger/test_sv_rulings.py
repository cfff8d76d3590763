"""Every ruling of DECISIONS.md §2 (SV-01..SV-27) and our own (CR-SV-nn):
each ruling's example played out from set deals (the same scenarios run
through the API), and the refusals and corner cases around it, on positions
given directly."""

from __future__ import annotations

import pytest

from cardroom.domain.kernel import Viewer
from cardroom.silver_dagger.v1 import silver_dagger_pb2 as pb

from .play import RandomGame, schemer
from .scenarios import (
    APPROX,
    DC,
    FLIP,
    FURRY,
    HALF,
    MAGE,
    MYSTIC,
    RENF,
    REV,
    RULINGS,
    SEER,
    SENT,
    SPY,
    THIEF,
    ZOMBIE,
    Scenario,
)
from .support import Table, given, play


@pytest.mark.parametrize("scenario", RULINGS, ids=lambda s: s.name)
def test_each_rulings_example(scenario: Scenario) -> None:
    play(scenario)


def use(table: Table, seat: int, *commands: pb.Message) -> None:
    for command in commands:
        table.send(seat, command)


DRAW, USE = pb.DrawCard(), pb.UseAbility()


def choose(seat: int, position: int) -> pb.ChooseCard:
    return pb.ChooseCard(seat=seat, position=position)


class TestTurnsAndRounds:
    def test_sv02_turning_the_dagger_alone_skips_the_opponent_in_two_player(self) -> None:
        table = given([[SENT] * 4, [FLIP] * 4], deck=[MAGE, MAGE], dagger_usable=True)
        use(table, 0, pb.TurnDagger(), DRAW, pb.DiscardDrawn())
        assert table.state.to_play == 0 and not table.state.clockwise

    def test_sv02_in_three_player_a_reverser_gives_the_turn_back(self) -> None:
        table = given([[SENT] * 3, [MYSTIC] * 3, [MAGE] * 3], deck=[REV, SEER], current=1)
        use(table, 1, DRAW, USE)
        assert table.state.to_play == 0 and not table.state.clockwise

    def test_sv04_a_call_needs_four_or_fewer_cards_and_nothing_else_that_turn(self) -> None:
        table = given([[SENT, SENT, SENT, SENT, FLIP], [MYSTIC] * 4])
        assert table.refused(0, pb.CallVote()).rule == "SV-04"
        table = given([[(SPY, True), MAGE, MAGE], [MYSTIC] * 4])
        table.send(0, pb.SpyPeek(seat=1, position=0))
        error = table.refused(0, pb.CallVote())
        assert error.rule == "SV-04" and "already acted" in error.message

    def test_sv04_after_a_call_nobody_else_may_call(self) -> None:
        table = given([[SENT] * 4, [MYSTIC] * 4], deck=[MAGE])
        table.send(0, pb.CallVote())
        assert "CallVote" not in {type(a).__name__ for a in table.legal(1)}
        assert "seat 0 has already called" in table.refused(1, pb.CallVote()).message

    def test_sv04_the_others_may_give_the_caller_a_zombie(self) -> None:
        table = given([[SENT] * 4, [(ZOMBIE, True), MYSTIC, MYSTIC]], deck=[SEER])
        table.send(0, pb.CallVote())
        table.send(1, pb.GiveZombie(position=0))
        assert table.village(0)[-1] == ZOMBIE and len(table.village(0)) == 5

    def test_sv03_a_turn_completes_even_when_its_penalty_card_is_missing(self) -> None:
        table = given([[SENT, MYSTIC, MAGE, SENT], [FLIP] * 4], deck=[SPY])
        use(table, 0, DRAW, pb.StartMultipleExchange())
        use(table, 0, *(pb.SelectCard(position=p) for p in (0, 1, 2)), pb.ConfirmExchange())
        assert len(table.village(0)) == 5  # the Spy joined; no penalty card was there
        assert table.events_of(pb.RoundEnded)  # the next player has no private deck

    def test_sv21_a_game_is_exactly_four_rounds(self) -> None:
        game = RandomGame(3, 3, schemer).play()
        assert [e.round for e in game.table.events_of(pb.RoundDealt)] == [1, 2, 3, 4]
        assert len(game.table.events_of(pb.RoundScored)) == 4


class TestExchanges:
    def test_sv06_a_failed_exchange_below_the_threshold_takes_no_penalty(self) -> None:
        table = given([[SENT, MYSTIC, MAGE], [FLIP] * 4], deck=[SPY, THIEF])
        use(table, 0, DRAW, pb.StartMultipleExchange())
        use(table, 0, pb.SelectCard(position=0), pb.SelectCard(position=1), pb.ConfirmExchange())
        assert table.village(0) == [SENT, MYSTIC, MAGE, SPY]
        assert len(table.state.deck) == 1

    def test_sv06_the_threshold_is_a_flag(self) -> None:
        opts = pb.Options(mismatch_penalty_threshold=2)
        table = given([[SENT, MYSTIC, MAGE], [FLIP] * 4], deck=[SPY, THIEF], opts=opts)
        use(table, 0, DRAW, pb.StartMultipleExchange())
        use(table, 0, pb.SelectCard(position=0), pb.SelectCard(position=1), pb.ConfirmExchange())
        assert table.village(0) == [SENT, MYSTIC, MAGE, SPY, THIEF]

    def test_sv27_cards_are_selected_left_to_right_and_at_least_two(self) -> None:
        table = given([[SENT, SENT, MAGE], [FLIP] * 4], deck=[SPY])
        use(table, 0, DRAW, pb.StartMultipleExchange())
        assert table.refused(0, pb.SelectCard(position=2)).rule == "SV-06"  # none to its right
        table.send(0, pb.SelectCard(position=1))
        # SV-27's test: left of the last selected card, and a plain exchange
        assert table.refused(0, pb.SelectCard(position=0)).rule == "SV-27"
        assert table.refused(0, pb.Exchange(position=2)).rule == "SV-27"
        assert table.refused(0, pb.ConfirmExchange()).rule == "SV-06"
        assert table.refused(0, pb.DiscardDrawn()).rule == "SV-27"
        # Nothing is shown before the confirmation
        assert not table.events_of(pb.CardsShown)
        assert table.fold(1).villages[0][1].card is None
        assert [type(a).__name__ for a in table.legal(0)] == ["SelectCard"]

    def test_cr_sv03_the_held_card_takes_the_leftmost_vacated_spot(self) -> None:
        table = given([[MAGE, SENT, MAGE, MYSTIC, MAGE], [FLIP] * 4], deck=[SPY])
        use(table, 0, DRAW, pb.StartMultipleExchange())
        use(table, 0, *(pb.SelectCard(position=p) for p in (0, 2, 4)), pb.ConfirmExchange())
        assert table.village(0) == [SPY, SENT, MYSTIC]
        assert table.state.discard[-3:] == (MAGE, MAGE, MAGE)

    def test_a_card_taken_from_the_discard_pile_must_be_exchanged(self) -> None:
        table = given([[SENT] * 4, [FLIP] * 4], discard=[MAGE])
        table.send(0, pb.TakeDiscard())
        error = table.refused(0, pb.DiscardDrawn())
        assert error.rule == "rulebook: Take a Card from the Discard Pile"
        assert table.refused(0, USE).rule == "rulebook: Abilities"
        table.send(0, pb.Exchange(position=1))
        assert table.faces(0)[1] and table.village(0)[1] == MAGE

    def test_sv08_z1_a_zombie_offered_in_a_matching_set_stays_and_the_card_is_discarded(
        self,
    ) -> None:
        table = given([[ZOMBIE, ZOMBIE, SENT], [FLIP] * 4], deck=[MAGE, SEER])
        use(table, 0, DRAW, pb.StartMultipleExchange())
        use(table, 0, pb.SelectCard(position=0), pb.SelectCard(position=1), pb.ConfirmExchange())
        assert table.village(0) == [ZOMBIE, ZOMBIE, SENT]
        assert table.state.discard[-1] == MAGE
        assert all(s.public for s in table.state.villages[0][:2])
        assert table.fold(None).villages[0][0].card == ZOMBIE  # a spectator saw them

    def test_sv08_z2_a_drawn_zombie_cannot_be_discarded(self) -> None:
        table = given([[SENT] * 4, [FLIP] * 4], deck=[ZOMBIE])
        table.send(0, DRAW)
        assert table.refused(0, pb.DiscardDrawn()).rule == "SV-08"
        assert "DiscardDrawn" not in {type(a).__name__ for a in table.legal(0)}

    def test_sv08_z4_a_failed_set_with_a_zombie_goes_back_face_down(self) -> None:
        table = given([[(ZOMBIE, True), SENT, MAGE], [FLIP] * 4], deck=[SPY, THIEF])
        use(table, 0, DRAW, pb.StartMultipleExchange())
        use(table, 0, *(pb.SelectCard(position=p) for p in (0, 1, 2)), pb.ConfirmExchange())
        assert table.village(0) == [ZOMBIE, SENT, MAGE, SPY, THIEF]
        assert table.faces(0) == [False] * 5

    def test_sv08_z6_a_zombie_goes_to_the_player_before_not_past_a_sentinel(self) -> None:
        table = given([[FLIP] * 3, [(ZOMBIE, True), SENT], [(SENT, True), MAGE]], current=1)
        # Seat 1's predecessor is seat 0 (clockwise play).
        table.send(1, pb.GiveZombie(position=0))
        assert table.village(0)[-1] == ZOMBIE and not table.faces(0)[-1]
        blocked = given([[(SENT, True)], [(ZOMBIE, True), SENT]], current=1)
        assert blocked.refused(1, pb.GiveZombie(position=0)).rule == "SV-15"
        face_down = given([[SENT], [ZOMBIE, SENT]], current=1)
        assert face_down.refused(1, pb.GiveZombie(position=0)).rule == "SV-08"

    def test_cr_sv04_a_drawn_zombie_kept_is_shown(self) -> None:
        table = given([[ZOMBIE, SENT], [FLIP] * 4], deck=[ZOMBIE, SEER])
        use(table, 0, DRAW, pb.Exchange(position=0))
        assert table.village(0) == [ZOMBIE, SENT, ZOMBIE] and not table.events_of(pb.RoundEnded)
        assert table.fold(None).villages[0][2].card == ZOMBIE
        assert table.fold(1).villages[0][0].card == ZOMBIE


class TestAbilities:
    @pytest.mark.parametrize(
        ("partner", "village", "discard"),
        [
            (MAGE, [APPROX, ZOMBIE, SENT], (MAGE,)),  # X > 4: the Zombie stays
            (ZOMBIE, [ZOMBIE, ZOMBIE, SENT, APPROX], ()),  # two Zombies: both stay
            (HALF, [APPROX, SENT], (ZOMBIE, HALF)),  # X < 4: both go, X on top
        ],
    )
    def test_sv08_z5_the_approximator_and_a_zombie(
        self, partner: int, village: list[int], discard: tuple[int, ...]
    ) -> None:
        table = given([[partner, ZOMBIE, SENT], [FLIP] * 4], deck=[APPROX])
        use(table, 0, DRAW, USE, pb.SelectCard(position=0), pb.SelectCard(position=1))
        assert table.village(0) == village
        assert table.state.discard == discard
        assert table.faces(0)[village.index(APPROX)]

    def test_sv09_the_approximator_without_two_other_cards_is_not_offered(self) -> None:
        table = given([[SENT], [FLIP] * 4], deck=[APPROX])
        table.send(0, DRAW)
        assert "UseAbility" not in {type(a).__name__ for a in table.legal(0)}
        assert table.refused(0, USE).rule == "SV-09"

    def test_no_ability_for_cards_without_one(self) -> None:
        table = given([[SENT] * 3, [FLIP] * 3], deck=[SPY])
        table.send(0, DRAW)
        assert table.refused(0, USE).rule == "rulebook: Abilities"

    def test_sv10_a_switch_keeps_each_cards_orientation(self) -> None:
        table = given([[SENT, MYSTIC], [(FLIP, True), MAGE]], deck=[MAGE, SEER])
        use(table, 0, DRAW, USE, choose(1, 1))  # B's face-down 8 turns up
        assert table.village(1)[1] == MAGE and table.faces(1)[1]
        assert {type(a).__name__ for a in table.legal(0)} == {"UseAbility", "SwitchWith"}
        table.send(0, pb.SwitchWith(position=0))
        assert table.village(0) == [MAGE, MYSTIC] and table.faces(0) == [True, False]
        assert table.village(1) == [FLIP, SENT] and table.faces(1) == [True, False]
        assert table.fold(0).villages[1][1].card == SENT  # A still knows its Sentinel

    def test_sv10_using_the_turned_cards_ability(self) -> None:
        table = given([[SENT, SENT], [(FLIP, True), MAGE], [MYSTIC]], deck=[MAGE])
        use(table, 0, DRAW, USE, choose(1, 0), USE)  # the Flipper, as A's ability
        assert table.state.ability is not None
        table.send(0, pb.ChooseVillage(seat=2))
        assert table.faces(2) == [True] and table.faces(1) == [True, False]

    def test_sv25a_a_magician_cannot_turn_the_same_card_twice_in_a_turn(self) -> None:
        table = given([[SENT], [(MAGE, True)], [(MAGE, True), SENT]], deck=[MAGE])
        use(table, 0, DRAW, USE, choose(1, 0), USE, choose(2, 0), USE)
        assert table.refused(0, choose(1, 0)).rule == "SV-25"
        assert table.refused(0, choose(2, 0)).rule == "SV-25"
        table.send(0, choose(2, 1))  # the last card not yet turned
        assert table.faces(2) == [True, True]

    def test_cr_sv07_a_magician_with_nothing_to_do_ends_the_turn(self) -> None:
        table = given([[], [SENT, MAGE]], deck=[MAGE, SEER])  # nothing of A's to switch
        use(table, 0, DRAW, USE, choose(1, 0))
        assert table.state.to_play == 1 and table.faces(1) == [True, False]

    def test_sv11_the_thief_may_view_its_own_card_and_switch_it_away(self) -> None:
        table = given([[SENT, MYSTIC], [FLIP, MAGE], [SPY]], deck=[THIEF, SEER])
        use(table, 0, DRAW, USE, choose(0, 1))
        assert table.refused(0, choose(0, 0)).rule == "SV-11"  # not within its village
        table.send(0, choose(2, 0))
        assert table.village(0) == [SENT, SPY] and table.village(2) == [MYSTIC]
        assert table.fold(0).villages[2][0].card == MYSTIC
        assert table.fold(0).villages[0][1].card is None  # it may not look at the Spy
        assert table.fold(2).villages[0][1].card == SPY  # its owner still knows it

    def test_sv11_and_sv15_a_sentinel_blocks_the_switch(self) -> None:
        table = given([[SENT, MYSTIC], [(SENT, True), MAGE], [SPY]], deck=[THIEF])
        use(table, 0, DRAW, USE, choose(0, 1))
        assert table.refused(0, choose(1, 1)).rule == "SV-15"
        table.send(0, choose(2, 0))  # another village is still open
        assert table.village(2) == [MYSTIC]

    def test_sv12_without_a_card_of_4_or_lower_every_face_down_card_is_viewed(self) -> None:
        table = given([[MAGE, MYSTIC], [FLIP]], deck=[SEER, SEER])
        use(table, 0, DRAW, USE, choose(0, 0))
        assert table.refused(0, choose(0, 0)).rule == "SV-12"
        use(table, 0, choose(0, 1), choose(1, 0))
        assert table.state.to_play == 1 and not any(table.faces(1))
        assert table.fold(0).villages[1][0].card == FLIP

    def test_cr_sv08_the_mystic_seer_views_one_or_two_cards(self) -> None:
        table = given([[MAGE, MYSTIC], [FLIP, SENT]], deck=[MYSTIC, SEER])
        use(table, 0, DRAW, USE)
        assert table.refused(0, pb.StopViewing()).rule == "rulebook: 9 Mystic Seer"
        use(table, 0, choose(1, 1), pb.StopViewing())
        assert table.state.to_play == 1 and table.fold(0).villages[1][1].card == SENT

    def test_sv13_private_deck_cards_are_not_scored_nor_counted(self) -> None:
        table = given([[(DC, True)], [SENT, SENT]], deck=[SPY], private=[[], [FURRY, THIEF]])
        use(table, 0, DRAW, pb.DiscardDrawn())  # the deck is empty: the round ends ...
        assert not table.events_of(pb.RoundEnded)  # ... not yet: B has a private deck
        use(table, 1, pb.DrawCard(private_deck=True), pb.DiscardDrawn())
        [scored] = table.events_of(pb.RoundScored)
        assert [s.sum for s in scored.scores] == [-2, 6]

    def test_sv14_a_spy_peeks_only_into_other_villages_at_face_down_cards(self) -> None:
        table = given([[(SPY, True), SENT], [(MAGE, True), FLIP]])
        assert table.refused(0, pb.SpyPeek(seat=0, position=1)).rule == "SV-14"
        assert table.refused(0, pb.SpyPeek(seat=1, position=0)).rule == "SV-14"
        table.send(0, pb.SpyPeek(seat=1, position=1))
        assert table.fold(0).villages[1][1].card == FLIP


class TestSV24AnAbilityThatCanDoNothing:
    """SV-24 (replaces CR-SV-05): a drawn card's ability may always be used;
    one that can do nothing is used without effect, and under a Magician
    that satisfies "use its ability or switch it"."""

    def test_1_the_decks_last_card_is_a_renfield_used_without_effect(self) -> None:
        # Given the deck's last card is a Renfield
        table = given([[SENT] * 3, [FLIP] * 3], deck=[RENF])
        table.send(0, DRAW)
        assert "UseAbility" in {type(a).__name__ for a in table.legal(0)}
        # When A uses it
        table.send(0, USE)
        # Then it is accepted: A's private deck is unchanged, the Renfield is
        # on the discard pile and the turn ends
        [started] = table.events_of(pb.AbilityStarted)
        assert started.card == RENF and started.no_effect
        assert table.state.private[0] == () and table.state.discard[-1] == RENF
        assert table.state.ability is None and table.village(0) == [SENT] * 3
        assert not table.events_of(pb.PrivateDeckGrown)

    def test_2_a_magician_from_the_private_deck_uses_a_renfield_without_effect(self) -> None:
        # Given the regular deck is empty and A draws a Magician from its private deck
        table = given([[SENT, SENT], [RENF, FLIP]], private=[[MAGE], []])
        use(table, 0, pb.DrawCard(private_deck=True), USE)
        # When A turns B's face-down Renfield face up
        table.send(0, choose(1, 0))
        assert table.faces(1) == [True, False]
        # Then A may use it (with no effect), and A's village is unchanged
        assert "UseAbility" in {type(a).__name__ for a in table.legal(0)}
        table.send(0, USE)
        last = table.events_of(pb.AbilityStarted)[-1]
        assert (last.card, last.via_magician, last.no_effect) == (RENF, True, True)
        assert table.village(0) == [SENT, SENT] and table.village(1) == [RENF, FLIP]
        assert table.state.private == ((), ())

    @pytest.mark.parametrize("card", [SEER, MYSTIC, THIEF])
    def test_a_seer_or_thief_with_no_face_down_card_is_used_without_effect(self, card: int) -> None:
        table = given([[(SENT, True)], [(FLIP, True)]], deck=[card, SPY])
        use(table, 0, DRAW, USE)
        assert table.events_of(pb.AbilityStarted)[-1].no_effect
        assert table.state.to_play == 1 and table.state.discard[-1] == card

    def test_a_magician_with_no_card_in_another_village_is_used_without_effect(self) -> None:
        table = given([[SENT, FLIP], []], deck=[MAGE, SPY])
        use(table, 0, DRAW, USE)
        assert table.events_of(pb.AbilityStarted)[-1].no_effect
        assert table.state.to_play == 1

    def test_a_flipper_with_every_village_empty_is_used_without_effect(self) -> None:
        table = given([[], []], deck=[FLIP, SPY])
        use(table, 0, DRAW, USE)
        assert table.events_of(pb.AbilityStarted)[-1].no_effect
        assert table.state.to_play == 1

    def test_under_a_magician_a_seer_with_nothing_to_view_need_not_be_switched(self) -> None:
        # B's Mystic Seer is the last face-down card; turned up, none is left
        table = given([[(SENT, True)], [MYSTIC]], deck=[MAGE, SPY])
        use(table, 0, DRAW, USE, choose(1, 0))
        legal = {type(a).__name__ for a in table.legal(0)}
        assert legal == {"UseAbility", "SwitchWith"}
        table.send(0, USE)
        assert table.events_of(pb.AbilityStarted)[-1].no_effect
        assert table.village(0) == [SENT] and table.village(1) == [MYSTIC]
        assert table.state.to_play == 1


class TestRulingsOf2026_12_01:
    """SV-22, SV-23, SV-25..SV-27: each ruling's own test (they confirm what
    the engine did under CR-SV-01..04 and 06..11)."""

    def test_sv22_a_failed_exchange_goes_back_down_and_the_taken_card_joins_the_right(
        self,
    ) -> None:
        # Village [6u, 7d, 9d]; A takes a 3 from the discard pile and tries 6u+7d
        table = given([[(FLIP, True), SEER, MYSTIC], [SPY] * 3], discard=[SENT])
        use(table, 0, pb.TakeDiscard(), pb.StartMultipleExchange())
        use(table, 0, pb.SelectCard(position=0), pb.SelectCard(position=1), pb.ConfirmExchange())
        # The result is [6d, 7d, 9d, 3u], with no penalty card
        assert table.village(0) == [FLIP, SEER, MYSTIC, SENT]
        assert table.faces(0) == [False, False, False, True]
        assert not [e for e in table.events_of(pb.CardAdded) if e.source == pb.ADDED_FROM_DECK]

    def test_sv22_the_held_card_takes_the_leftmost_vacated_spot(self) -> None:
        # Village [6u, 6d, 6d, 9d] with a drawn Halfling, exchanging positions 0 and 1
        table = given([[(FLIP, True), FLIP, FLIP, MYSTIC], [SPY] * 3], deck=[HALF])
        use(table, 0, DRAW, pb.StartMultipleExchange())
        use(table, 0, pb.SelectCard(position=0), pb.SelectCard(position=1), pb.ConfirmExchange())
        # The result is [Hd, 6d, 9d]
        assert table.village(0) == [HALF, FLIP, MYSTIC]
        assert table.faces(0) == [False, False, False]

    def test_sv23_a_peek_comes_before_the_action_resolves_not_inside_an_ability(self) -> None:
        # A has a face-up Spy and draws a Mystic Seer
        def drawn() -> Table:
            table = given([[(SPY, True), SENT], [FLIP, MAGE]], deck=[MYSTIC, SEER])
            table.send(0, DRAW)
            return table

        # Viewing one card with it, a peek sent now is refused
        table = drawn()
        use(table, 0, USE, choose(1, 0))
        assert table.refused(0, pb.SpyPeek(seat=1, position=1)).rule == "SV-23"
        assert "SpyPeek" not in {type(a).__name__ for a in table.legal(0)}
        # A peek made while holding the Mystic Seer, before using it, is accepted
        table = drawn()
        assert "SpyPeek" in {type(a).__name__ for a in table.legal(0)}
        use(table, 0, pb.SpyPeek(seat=1, position=1), USE, choose(1, 0))
        assert table.fold(0).villages[1][1].card == MAGE
        # and the turn ends when the action resolves: the next seat plays
        table.send(0, pb.StopViewing())
        assert table.state.to_play == 1

    def test_sv23_the_dagger_is_turned_before_the_action_resolves(self) -> None:
        table = given([[SENT] * 3, [FLIP] * 3], deck=[MYSTIC, SEER], dagger_usable=True)
        use(table, 0, DRAW, USE, choose(1, 0))
        assert table.refused(0, pb.TurnDagger()).rule == "SV-23"

    def test_sv25_a_magicians_magician_cannot_turn_the_magician_back(self) -> None:
        # A's Magician turns B's face-down Magician and uses it
        table = given([[SENT], [MAGE, FLIP], [MYSTIC]], deck=[MAGE, SEER])
        use(table, 0, DRAW, USE, choose(1, 0), USE)
        # B's Magician is then not a legal target of that second use
        targets = {(a.seat, a.position) for a in table.legal(0) if isinstance(a, pb.ChooseCard)}
        assert (1, 0) not in targets and targets == {(1, 1), (2, 0)}
        assert table.refused(0, choose(1, 0)).rule == "SV-25"

    def test_sv26_a_failed_exchanges_cards_stay_known_to_all_and_may_be_viewed(self) -> None:
        # A fails an exchange with 6u+3d
        table = given([[(FLIP, True), SENT, MAGE], [SPY, SPY]], deck=[MYSTIC, SEER, SPY])
        use(table, 0, DRAW, pb.StartMultipleExchange())
        use(table, 0, pb.SelectCard(position=0), pb.SelectCard(position=1), pb.ConfirmExchange())
        # both go back face down and are known to all
        assert table.faces(0)[:2] == [False, False]
        for seat in (None, 1):
            assert [s.card for s in table.fold(seat).villages[0][:2]] == [FLIP, SENT]
        # B's Elusive Seer may view A's 3 first and turn it face up
        use(table, 1, DRAW, USE)
        assert choose(0, 1) in table.legal(1)
        table.send(1, choose(0, 1))
        assert table.faces(0)[1] and table.village(0)[1] == SENT
        assert table.state.to_play == 0


class TestTheDagger:
    def test_sv18_only_after_a_successful_call(self) -> None:
        table = given([[SENT] * 4, [FLIP] * 4])
        error = table.refused(0, pb.TurnDagger())
        assert error.rule == "SV-18" and "successful call" in error.message

    def test_sv18_once_a_round_and_never_on_a_calling_turn(self) -> None:
        table = given([[SENT] * 4, [FLIP] * 4], deck=[MAGE] * 4, dagger_usable=True)
        table.send(0, pb.TurnDagger())
        assert table.refused(0, pb.CallVote()).rule == "SV-04"
        assert "TurnDagger" not in {type(a).__name__ for a in table.legal(0)}
        use(table, 0, DRAW, pb.DiscardDrawn(), DRAW)
        assert table.refused(0, pb.TurnDagger()).rule == "SV-18"


class TestEmptiness:
    def test_sv20_a_player_may_give_away_its_last_card_and_play_on(self) -> None:
        table = given(
            [[(ZOMBIE, True)], [FLIP] * 4], deck=[MAGE, SENT, MYSTIC, ZOMBIE, SEER], discard=[SPY]
        )
        table.send(0, pb.GiveZombie(position=0))
        assert table.village(0) == []
        use(table, 1, DRAW, pb.DiscardDrawn())
        assert table.refused(0, pb.TakeDiscard()).rule == "SV-20"
        use(table, 0, DRAW, pb.DiscardDrawn())
        use(table, 1, DRAW, pb.DiscardDrawn())
        table.send(0, DRAW)  # a Zombie: it joins the empty village at once, shown
        assert table.village(0) == [ZOMBIE] and table.fold(None).villages[0][0].card == ZOMBIE
        assert table.state.to_play == 1


def test_sv19_the_winner_of_every_random_game_follows_the_tie_break() -> None:
    from cardroom.domain.silver_dagger.scoring import winner

    for seed in range(30):
        table = RandomGame(seed, 2 + seed % 3, schemer, check=False).play().table
        [ended] = table.events_of(pb.GameEnded)
        assert table.state.dagger is not None
        assert list(ended.winners) == [winner(list(ended.totals), table.state.dagger)]


def test_looks_are_public_positions_and_secret_cards() -> None:
    table = Table(3, deals=[pb.DealRound(order=sorted(_DECK), start_seat=1)])
    table.deal_next()
    table.send(2, pb.LookAtCards(first=1, second=4))
    assert table.state.phase.value == "look"
    assert table.refused(2, pb.LookAtCards(first=0, second=1)).rule == "T-TURN"
    seen = table.fold(2).villages[2]
    assert [s.card is not None for s in seen] == [False, True, False, False, True]
    assert all(s.card is None for s in table.fold(0).villages[2])
    assert [s.knowers for s in table.fold(0).villages[2]][1] == frozenset({2})
    assert Viewer.of_seat(2)


_DECK = [c for c in range(DC, FURRY + 1) for _ in range(2 if c in (DC, FURRY) else 4)]
