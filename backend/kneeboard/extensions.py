"""Where the core's extensions are registered, one line each, at the start of every process that needs them (the API
in main.py, the worker in worker/celery_app.py, the scheduler in worker/beat.py; an observer registers its host
actions itself, observers/agent.py). The core imports none of them: the events catalogue (events/actions.py), the
after-settle hooks (runs/settled.py) and the bearer kinds auth resolves (auth/resolve.py) are filled here.
docs/architecture.md, "Where does it go", says what goes where."""

from __future__ import annotations

from kneeboard import remote_write
from kneeboard.agentlink import credentials as agent_credentials
from kneeboard.campaigns import service as campaigns
from kneeboard.lab import actions as lab_actions
from kneeboard.lab import events as lab_events
from kneeboard.observers import actions as host_actions
from kneeboard.observers import host_settings
from kneeboard.runs.settled import after_settle
from kneeboard.targets import service as targets
from kneeboard.trends import settle as trends
from kneeboard.webhooks import fire as webhook_action
from kneeboard.webhooks import service as webhooks


def register_all() -> None:
    """Fill the catalogue and the hook lists (again: nothing changes); the order is the catalogue's and the hooks'."""
    lab_events.register_events()  # lab.* point events, run by the worker
    host_actions.register_events()  # host.* point events, run by an observer
    lab_actions.register_settings()  # lab.* variant settings, applied by the worker
    host_settings.register_settings()  # host.* variant settings, applied by the campaign's observer
    webhook_action.register_events()  # webhook.send, run by the worker
    after_settle(trends.settled)  # a completed campaign's trend row and its plan's new change points…
    after_settle(webhooks.settled)  # …which webhooks then tell
    after_settle(after=remote_write.after_campaign)  # results out to remote-write Prometheus servers
    targets.register_prometheus_users()  # a Prometheus a target names is not deleted
    agent_credentials.register_bearer()  # an agent's or observer's bearer secret (kba_…), resolved by auth
    agent_credentials.register_observers()  # a plan's observer event names an existing observer credential
    campaigns.register_baseline_check()  # a plan's pinned baseline is a completed campaign of its tool
