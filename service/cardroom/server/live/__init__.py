"""Live feeds: each new event fanned out to this process's watchers, heard from
the store or published to the broker. Imports games and below."""
