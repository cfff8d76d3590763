"""The terminal table: Textual apps to play (``PlayApp``), watch
(``WatchApp``) and replay (``ReplayApp``) a game, all drawn by the games'
narrators from the viewer's own redacted data."""
