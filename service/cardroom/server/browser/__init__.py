"""The browser port: Connect and gRPC-Web for the same servicer, its connection
limits, and the web table's committed build (web_table/). Imports live and
below."""
