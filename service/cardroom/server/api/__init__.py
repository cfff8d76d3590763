"""The gRPC surface and the process that serves it: the servicer, the error-to-
status table, health that follows the store, and build/run of the server.
Imports every room but relay."""
