"""Search from one seat's information set, for every game through the
``Game`` contract: a flat rollout algorithm by default, single-observer
information-set Monte Carlo tree search (Cowling, Powley & Whitehouse 2012)
with ``Settings(flat=False)``.

The search starts from one seat's own fold: the state that seat's redacted
event stream folds into, with ``None`` wherever a card is hidden from it.
Each iteration asks the game's :class:`Determinizer` for one complete state
that agrees with everything the seat has seen, and plays it forward with the
pure deciders (``decide``, ``evolve``, ``legal_actions``, ``sample_chance``).

Flat (the default, ``choose_flat``): every root move is played out from the
same sample with the same rollout seed, every seat then playing as the
game's heuristic bot would (the rollout policy) for ``rollout_moves`` moves,
then the determinizer's ``score``. The differences between moves are
measured on the same deals (common random numbers), so a few dozen samples
tell them apart; this is one step of policy improvement over the heuristic,
with the opponents modelled as what they are at a table of bots.

Tree: down the shared tree, whose nodes are keyed by the moves made (so
every determinization lands in the same information-set nodes), then by the
rollout policy. Children are chosen by UCB1 with *availability* counts, since
a move exists only in some determinizations.

Either way the move played is the best one found, unless the prior (the
game's heuristic bot, when there is one) chose another and the search has
not shown the best one clearly better.

Everything is pure: the randomness is the ``rng`` passed in, the budget is a
number of iterations, and a caller with a clock passes ``stop`` (asked
between rollouts) to end the search early. So the same fold and seed give
the same move, and a fold the seat cannot tell apart from another gives the
same move too: nothing here reads anything but the fold.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from google.protobuf.message import Message

from cardroom.domain import registry
from cardroom.domain.kernel import DEALER, Actor, Game, Viewer
from cardroom.domain.presentation import Strategy


class Determinizer(Protocol):
    """One game's knowledge of what a seat cannot see
    (``DETERMINIZER`` in ``cardroom.domain.<game>.determinize``)."""

    def sample(self, state: Any, seat: int, rng: random.Random) -> Any:
        """A complete state (as an auditor would fold it) that agrees with
        ``state``, ``seat``'s own fold: every card the seat knows where it
        knows it, every count and every public fact; the cards it has not
        seen drawn at random from those it cannot place."""
        ...

    def score(self, state: Any) -> Sequence[float] | None:
        """For a game cut short by the move limit: each seat's share of a
        win, as well as the game's standing tells (summing to 1), or None
        for an even share."""
        ...

    # Optional: ``seen_by(state, seat)``, a complete state with what ``seat``
    # could not know blanked, for a rollout's strategy to read where the
    # game's view of a complete state would show it more (see StrategyPolicy).


def determinizer(kind: str) -> Determinizer | None:
    """The game's determinizer, or None when it has none."""
    module = registry.part(kind, "determinize")
    return getattr(module, "DETERMINIZER", None)


def key(command: Message) -> bytes:
    """A move's identity in the tree: its type and its fields."""
    return (
        command.DESCRIPTOR.full_name.encode() + b":" + command.SerializeToString(deterministic=True)
    )


# How a rollout picks a seat's move: (complete state, seat, legal moves, rng).
Policy = Callable[[Any, int, list[Message], random.Random], Message]


def random_policy(state: Any, seat: int, moves: list[Message], rng: random.Random) -> Message:
    return moves[rng.randrange(len(moves))]


@dataclass(frozen=True)
class StrategyPolicy:
    """Rollouts played by a strategy (the game's heuristic bot), from the
    seat's view of the sampled state, with a random move now and then
    (``epsilon``) so the rollouts do not all run alike."""

    game: Game[Any]
    strategy: Strategy
    epsilon: float = 0.1
    # What the seat's strategy may read of a complete state (the
    # determinizer's ``seen_by``): without it, a rollout's bots would play
    # seeing every card the view of a complete state shows.
    seen_by: Callable[[Any, int], Any] | None = None

    def __call__(self, state: Any, seat: int, moves: list[Message], rng: random.Random) -> Message:
        if len(moves) == 1:
            return moves[0]
        if self.epsilon and rng.random() < self.epsilon:
            return moves[rng.randrange(len(moves))]
        if self.seen_by is not None:
            state = self.seen_by(state, seat)
        return self.strategy.choose(self.game.view(state, Viewer.of_seat(seat)), moves, seat, rng)


def strategy_policies(
    game: Game[Any], strategy: Strategy, determinize: Determinizer
) -> tuple[StrategyPolicy, StrategyPolicy]:
    """The rollout policy and the prior: both the strategy itself, reading
    what the seat may see (the rollouts model the opponents as heuristic
    bots, so they play as those bots do, not now and then at random)."""
    seen_by = getattr(determinize, "seen_by", None)
    return (
        StrategyPolicy(game, strategy, 0.0, seen_by),
        StrategyPolicy(game, strategy, 0.0, seen_by),
    )


@dataclass
class Node:
    mover: int = -1  # the seat whose move led here (-1 at the root)
    move: Message | None = None
    visits: int = 0
    available: int = 0
    reward: float = 0.0  # the mover's summed share of wins
    children: dict[bytes, Node] = field(default_factory=dict)


@dataclass(frozen=True)
class Settings:
    iterations: int = 200
    # Flat: every root move played out from the same samples by the rollout
    # policy (see Search.choose_flat); otherwise the IS-MCTS tree.
    flat: bool = True
    exploration: float = 0.7  # UCB1's constant
    rollout_moves: int = 20  # moves played by the rollout policy beyond the tree
    tree_moves: int = 60  # moves played down the tree in one iteration
    prior_bias: float = 0.5  # the bonus of the prior's move, over (visits + 1)
    # Standard errors by which another move must beat the prior's to be played.
    confidence: float = 1.5
    # Flat: after this many iterations, a move worse than the prior's by
    # ``prune`` standard errors is dropped.
    prune_after: int = 4
    prune: float = 1.0


@dataclass
class Result:
    move: Message
    iterations: int
    root: Node


class Search:
    """The search for one game; ``choose`` is one move's worth of it."""

    def __init__(
        self,
        game: Game[Any],
        determinize: Determinizer,
        settings: Settings,
        policy: Policy = random_policy,
        prior: Policy | None = None,
    ) -> None:
        self.game, self.determinize, self.settings = game, determinize, settings
        self.policy, self.prior = policy, prior
        self.seats = 0

    # ------------------------------------------------------------ moves

    def movers(self, state: Any) -> list[tuple[int, list[Message]]]:
        legal = self.game.legal_actions
        return [(s, moves) for s in range(self.seats) if (moves := legal(state, s))]

    def apply(self, state: Any, actor: Actor, command: Message) -> Any:
        for e in self.game.decide(state, actor, command):
            state = self.game.evolve(state, e)
        return state

    def chance(self, state: Any, rng: random.Random) -> Any | None:
        """The state after the dealer's draw, or None when none is due."""
        if self.game.chance_needed(state) is None:
            return None
        return self.apply(state, DEALER, self.game.sample_chance(state, rng))

    def shares(self, state: Any) -> list[float]:
        winners = self.game.winners(state)
        n = self.seats
        if winners is None:
            scored = self.determinize.score(state)
            return list(scored) if scored is not None else [1 / n] * n
        if not winners:
            return [0.0] * n
        return [1 / len(winners) if s in winners else 0.0 for s in range(n)]

    # ----------------------------------------------------------- search

    def choose(
        self,
        fold: Any,
        seat: int,
        rng: random.Random,
        *,
        stop: Callable[[], bool] | None = None,
        seats: int | None = None,
    ) -> Result:
        """``seat``'s move from its own fold ``fold``."""
        self.seats = seats if seats is not None else _seat_count(fold)
        legal = self.game.legal_actions(fold, seat)
        if not legal:
            raise ValueError(f"seat {seat} has no move to make")
        root = Node()
        if len(legal) == 1:
            return Result(legal[0], 0, root)
        # The prior's move at the root, from the seat's own fold (its view).
        hint = key(self.prior(fold, seat, legal, rng)) if self.prior is not None else None
        if self.settings.flat:
            return self.choose_flat(root, fold, seat, legal, rng, hint, stop)
        done = 0
        while done < self.settings.iterations:
            self.iterate(root, fold, seat, legal, rng, hint)
            done += 1
            if stop is not None and stop():
                break
        best = max(root.children.values(), key=lambda n: (n.visits, n.reward))
        prior = root.children.get(hint) if hint is not None else None
        if prior is not None and best is not prior and not self._clearly_better(best, prior):
            best = prior
        assert best.move is not None
        return Result(best.move, done, root)

    def choose_flat(
        self,
        root: Node,
        fold: Any,
        seat: int,
        legal: list[Message],
        rng: random.Random,
        hint: bytes | None,
        stop: Callable[[], bool] | None,
    ) -> Result:
        """A rollout algorithm (one step of policy improvement over the
        rollout policy): each iteration draws one sample and one rollout
        seed, and plays every root move out from that same sample with that
        same seed (common random numbers), so moves are compared on the
        same deals and the differences between them are measured, not the
        luck of the deal. The opponents in the rollouts play as the
        heuristic bots play, which is what they are at a table of bots and
        a fair model of a person. The move played is the best on average,
        unless the prior's move is not clearly worse (``_clearly_better``
        on the paired differences)."""
        keyed = {key(m): m for m in legal}
        for k, m in keyed.items():
            root.children[k] = Node(mover=seat, move=m)
        # Paired differences against the prior's move, per move.
        diffs: dict[bytes, list[float]] = {k: [] for k in keyed}
        active = dict(keyed)
        done = 0
        actor = Actor.of_seat(seat)
        while done < self.settings.iterations:
            sample = self.determinize.sample(fold, seat, rng)
            seed = rng.getrandbits(64)
            values: dict[bytes, float] = {}
            for k, move in active.items():
                # The clock is asked between rollouts too (an iteration
                # plays out every move in contention, which can take a
                # tenth of a second); an iteration cut short is dropped,
                # so every move is still compared on the same samples.
                if stop is not None and stop():
                    break
                state = self.rollout(self.apply(sample, actor, move), random.Random(seed))
                values[k] = self.shares(state)[seat]
            if len(values) < len(active):
                break
            for k in active:
                child = root.children[k]
                child.visits += 1
                child.available += 1
                child.reward += values[k]
            if hint is not None:
                for k in active:
                    diffs[k].append(values[k] - values[hint])
                # A move already clearly worse than the prior's is not
                # played out again: the budget goes to the contenders.
                if done + 1 >= self.settings.prune_after:
                    for k in [k for k in active if k != hint]:
                        if self._paired_better([-d for d in diffs[k]], self.settings.prune):
                            del active[k]
            root.visits += 1
            done += 1
            if stop is not None and stop():
                break
        tried = [k for k, n in root.children.items() if n.visits]
        if not tried:  # no budget at all: the prior's move, or any
            return Result(keyed[hint] if hint is not None else legal[0], done, root)
        best_key = max(tried, key=lambda k: (root.children[k].reward / root.children[k].visits, k))
        if hint is not None and best_key != hint and not self._paired_better(diffs[best_key]):
            best_key = hint
        best = root.children[best_key]
        assert best.move is not None
        return Result(best.move, done, root)

    def _paired_better(self, diffs: list[float], z: float | None = None) -> bool:
        """Whether the paired differences show a move better than the
        prior's by ``z`` (``confidence``) standard errors."""
        n = len(diffs)
        if n < 2:
            return False
        mean = sum(diffs) / n
        variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        z = self.settings.confidence if z is None else z
        return mean > z * math.sqrt((variance + 1e-4) / n)

    def _clearly_better(self, best: Node, prior: Node) -> bool:
        """Whether the most visited move beats the prior's by ``confidence``
        standard errors (shares of a win lie in [0, 1], so a mean ``m`` has a
        variance of at most m(1 - m)): a few noisy samples do not overrule
        the heuristic bot."""
        z = self.settings.confidence
        if not prior.visits or not best.visits:
            return best.visits > 0
        m1, n1 = best.reward / best.visits, best.visits
        m0, n0 = prior.reward / prior.visits, prior.visits
        error = math.sqrt((m1 * (1 - m1) + 0.01) / n1 + (m0 * (1 - m0) + 0.01) / n0)
        return m1 - m0 > z * error

    def iterate(
        self,
        root: Node,
        fold: Any,
        seat: int,
        legal: list[Message],
        rng: random.Random,
        hint: bytes | None = None,
    ) -> None:
        """One iteration: a sample, a walk down the tree that adds one node,
        a rollout, and every node on the way credited with its mover's share."""
        settings = self.settings
        state = self.determinize.sample(fold, seat, rng)
        path = [root]
        node = root
        options: list[tuple[int, list[Message]]] = [(seat, legal)]
        for depth in range(settings.tree_moves):
            if not options:
                if self.game.winners(state) is not None:
                    break
                after = self.chance(state, rng)
                if after is not None:
                    state = after
                    options = self.movers(state)
                    continue
                options = self.movers(state)
                if not options:
                    break
            mover, moves = options[rng.randrange(len(options))] if len(options) > 1 else options[0]
            if depth and self.prior is not None and len(moves) > 1:
                hint = key(self.prior(state, mover, moves, rng))
            k, move = self._select(node, [(key(m), m) for m in moves], hint, rng)
            hint = None
            child = node.children.get(k)
            expanded = child is None
            if child is None:
                child = node.children[k] = Node(mover=mover, move=move, available=1)
            state = self.apply(state, Actor.of_seat(mover), move)
            node = child
            path.append(node)
            options = []
            if expanded:
                break
        state = self.rollout(state, rng)
        shares = self.shares(state)
        for n in path:
            n.visits += 1
            if n.mover >= 0:
                n.reward += shares[n.mover]

    def _select(
        self,
        node: Node,
        keyed: list[tuple[bytes, Message]],
        hint: bytes | None,
        rng: random.Random,
    ) -> tuple[bytes, Message]:
        """UCB1 over the moves available in this sample, counting each
        child's availability; a move not tried yet is valued at its tried
        siblings' mean (first-play urgency) rather than first in line, and
        the prior's move (the heuristic bot's) gets a bonus that fades as
        it is visited. Ties go to a random one."""
        c, bias = self.settings.exploration, self.settings.prior_bias
        children = node.children
        tried = [children[k] for k, _ in keyed if k in children and children[k].visits]
        for k, _ in keyed:
            child = children.get(k)
            if child is not None:
                child.available += 1
        if tried:
            fpu = sum(ch.reward / ch.visits for ch in tried) / len(tried)
        else:
            fpu = 1 / max(1, self.seats)
        total = max(1, sum(ch.available for ch in tried))
        best: list[tuple[bytes, Message]] = []
        best_value = -math.inf
        for k, move in keyed:
            child = children.get(k)
            visits = child.visits if child is not None else 0
            available = child.available if child is not None else total
            mean = child.reward / visits if child is not None and visits else fpu
            value = mean + c * math.sqrt(math.log(available + 1) / (visits + 1))
            if k == hint:
                value += bias / (visits + 1)
            if value > best_value + 1e-12:
                best, best_value = [(k, move)], value
            elif value > best_value - 1e-12:
                best.append((k, move))
        return best[rng.randrange(len(best))] if len(best) > 1 else best[0]

    def rollout(self, state: Any, rng: random.Random) -> Any:
        for _ in range(self.settings.rollout_moves):
            if self.game.winners(state) is not None:
                return state
            after = self.chance(state, rng)
            if after is not None:
                state = after
                continue
            options = self.movers(state)
            if not options:
                return state
            mover, moves = options[rng.randrange(len(options))]
            state = self.apply(state, Actor.of_seat(mover), self.policy(state, mover, moves, rng))
        return state


def _seat_count(state: Any) -> int:
    for name in ("seat_count",):
        if hasattr(state, name):
            return int(getattr(state, name))
    settings = getattr(state, "settings", None)
    if settings is not None and hasattr(settings, "seat_count"):
        return int(settings.seat_count)
    raise ValueError("pass seats=: this game's state does not say how many seats it has")
