"""Table life over time: turn clocks and their deadlines, who is present, and
the server's own bots. Imports storage only."""
