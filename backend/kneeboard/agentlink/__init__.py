"""The remote agents' link to the server, over HTTP(S) only: agent credentials bound to one name, work by
long-poll, and each share's sign of life, live samples and outcome, accepted only from the agent it is assigned to."""
