"""Search bots: information-set Monte Carlo tree search from one seat's own
fold (``ismcts``), with each game's determinizer (``cardroom.domain.<game>.determinize``)
to fill in the cards that seat has not seen."""
