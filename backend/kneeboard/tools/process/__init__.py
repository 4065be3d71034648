"""The process monitor: the server process's own CPU from /proc (adapter: its summary; read: the reader process, standard
library only, so it starts in milliseconds)."""
