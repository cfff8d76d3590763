"""cardroom's benchmarks, measured from outside the server (docs/benchmarks.md).

``__main__`` runs them and prints the tables; one module per measurement
(``commands``, ``long_game``, ``restart``, ``spectators``, ``memory``,
``game_list``, ``scale_out``), and what they share: ``servers`` (the
``cardroom serve`` processes and their databases), ``load`` (worker
processes and channels), ``bots``, ``health`` and ``raw_save`` (the
baselines), ``report`` and ``config``.
"""
