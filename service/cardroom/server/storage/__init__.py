"""Storage: the event log in SQLite or PostgreSQL, and what is read back from
it (games in memory, checkpoints, the exact stored bytes, the game list's
tables). Imports no other room."""
