"""A game server's half of the relays: each new event published once per
kind of viewer, already redacted and serialized, in the order of the log.

Only the server that wrote an event publishes it. For every game it writes
it keeps one cursor per kind of viewer (the spectators, each seat), exactly
as if a watcher of that kind followed the game on this server
(cardroom.server.live.feeds): the spectators' copies go out as the spectator
policy lets them see (a delayed game's later, an omniscient-after-end
game's last events as the auditor's copies), each seat's at once. The bytes
are those the server's own watchers get (one ``Outgoing`` per viewer and
event, shared with :class:`~cardroom.server.live.feeds.Feeds`), so a relay's
stream is byte for byte the server's.
"""

from __future__ import annotations

from collections import OrderedDict

from cardroom.domain.kernel import SPECTATOR, Viewer
from cardroom.server.games.identity import effective, horizon
from cardroom.server.live.broker import Broker, subject
from cardroom.server.live.feeds import Made, outgoing
from cardroom.server.storage.cache import LoadedGame
from cardroom.trust.heads import HeadSigner

# Games whose cursors are kept; an older game's next write starts afresh
# from its batch (a relay reads anything it missed from the store).
MAX_GAMES = 10_000


def viewers(loaded: LoadedGame) -> list[Viewer]:
    """Every kind of viewer whose copies are published: the spectators and
    each seat (never the auditor: the broker holds no copy with more than
    a spectator or one seat may see)."""
    return [SPECTATOR, *(Viewer.of_seat(s) for s in range(loaded.table.seat_count))]


class Publisher:
    def __init__(
        self, broker: Broker, max_games: int = MAX_GAMES, heads: HeadSigner | None = None
    ) -> None:
        self.broker = broker
        self.heads = heads  # the server's signed heads ride along to the relays
        self.max_games = max_games
        self._cursors: OrderedDict[str, dict[Viewer, int]] = OrderedDict()

    def written(self, loaded: LoadedGame, first: int, made: Made) -> None:
        """This process wrote events ``first``.. of the game: publish what
        each kind of viewer may now see (on the event loop)."""
        game_id = loaded.game_id
        cursors = self._cursors.pop(game_id, None)
        if cursors is None:
            cursors = {viewer: first for viewer in viewers(loaded)}
        for viewer, cursor in cursors.items():
            now = effective(loaded, viewer)
            end = horizon(loaded, now)
            name = subject(game_id, viewer)
            while cursor < end:
                self.broker.publish(name, outgoing(loaded, cursor, now, made, self.heads).data)
                cursor += 1
            cursors[viewer] = cursor
        if loaded.finished and all(c >= loaded.version for c in cursors.values()):
            return  # nothing more will come
        self._cursors[game_id] = cursors
        while len(self._cursors) > self.max_games:
            self._cursors.popitem(last=False)
