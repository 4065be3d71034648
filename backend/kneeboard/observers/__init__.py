"""Observers: agents in the observe-only role on the server under test. A plan that names one gives it an observe
assignment per point (a CPU profile of a named process over the point's steady window), which it acknowledges before
the load starts and answers with the folded profile through the API. It never takes load, launches or reads others'."""
