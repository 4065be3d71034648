"""The execution side of a campaign: running its points on an agent, leases and the reaper,
recovery after a crash, resume, and the spool that keeps results through a database outage."""
