"""Complete states a seat cannot tell from its own fold, for the search bot
(``cardroom.domain.search``).

All 200 cards are always somewhere: a hand, the draw pile, the cards set
aside, a luck draw, the held card, the lives in front of the players, the
discard pile, the river, out of the game or bet face down in the casino.
Lives, discard, river and what left the game are public; a seat's fold has
its own hand, and elsewhere exactly the cards it was shown (a journalist's
look, a barter, a medium's or luck's look at the pile), each where it is,
with ``None`` for the rest and every count right. So the cards a seat cannot
place are the 200 less every card its fold names, and a sample deals them at
random into the ``None`` places, keeping each known card where it is: the
sample renders to the seat's own view. Two places carry a constraint: a
casino bet is a salary (SL-27), and a barter's protected card is one of the
initiator's cards the seat has not seen (SL-16); they are filled first.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from cardroom.domain.search.pool import Pool
from cardroom.domain.smile_life.cards import DECK, SALARY, card
from cardroom.domain.smile_life.state import State, derive, normalized


def _placed(state: State) -> list[str | None]:
    """Every card the fold has a place for (None: a place it cannot see)."""
    cards: list[str | None] = [c for hand in state.hands for c in hand]
    cards += [*state.pile, *state.set_aside, *state.luck, *state.river, *state.out_of_game]
    cards += [c for c, _ in state.discard]
    for life in state.lives:
        cards += life.cards()
    if state.held is not None:
        cards.append(state.held)
    casino = state.casino
    if casino is not None:
        if casino.bettor is not None:
            cards.append(casino.bet)
        if casino.second_bettor is not None:
            cards.append(casino.second_bet)
    return cards


class Determinizer:
    def sample(self, state: State, seat: int, rng: random.Random) -> State:
        pool: Pool[str] = Pool(Counter(DECK), _placed(state), rng)
        casino = state.casino
        if casino is not None:

            def salary(c: str) -> bool:
                return card(c).family == SALARY

            if casino.bettor is not None and casino.bet is None:
                casino = derive(casino, bet=pool.take(salary))
            if casino.second_bettor is not None and casino.second_bet is None:
                casino = derive(casino, second_bet=pool.take(salary))
        hands = tuple(normalized(pool.fill(h)) for h in state.hands)
        sample = derive(
            state,
            hands=hands,
            pile=pool.fill(state.pile),
            set_aside=pool.fill(state.set_aside),
            luck=pool.fill(state.luck),
            casino=casino,
        )
        barter = state.barter
        if barter is not None and barter.protected and barter.protected_card is None:
            seen = Counter(c for c in state.hands[barter.seat] if c is not None)
            unseen = list(hands[barter.seat])
            for c in seen.elements():
                unseen.remove(c)
            if unseen:
                sample = derive(sample, barter=derive(barter, protected_card=rng.choice(unseen)))
        return sample

    def score(self, state: State) -> Sequence[float] | None:
        """A game cut short: the smiles so far, softly (SL-01)."""
        if not state.lives:
            return None
        smiles = state.smiles()
        best = max(smiles)
        weights = [0.5 ** ((best - s) / 3) for s in smiles]
        total = sum(weights)
        return [w / total for w in weights]


DETERMINIZER = Determinizer()
