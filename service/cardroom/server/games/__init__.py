"""The use cases: who is calling, writing commands, reading views and logs, the
game list, and the facade (application.Games) that composes them. Imports
storage and table."""
