"""The lab's network names: its namespace, the veth pair's two ends and their addresses, and the state file of what
`lab up` started (lab/namespace.py makes them; lab/impair.py and lab/agents.py use them)."""

from __future__ import annotations

import os
from pathlib import Path

NETNS = "kblab"
HOST_IF = "kbh0"
LAB_IF = "kbl0"
HOST_ADDR = "10.77.0.1"
LAB_ADDR = "10.77.0.2"
PREFIX_LEN = 24
STATE_FILE = Path(os.environ.get("KNEEBOARD_LAB_STATE", "/run/kneeboard-lab.json"))
