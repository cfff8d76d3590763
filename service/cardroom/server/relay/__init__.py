"""``cardroom relay``: WatchEvents served from the broker's copies, checked
against the store. The top room: imports api and below."""
