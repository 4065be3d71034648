"""Every model, imported together so the metadata is complete (Alembic, tests)."""


def import_all() -> None:
    """Import each domain's models."""
    from kneeboard.agentlink import models as _agentlink  # noqa: F401
    from kneeboard.agents import models as _agents  # noqa: F401
    from kneeboard.audit import models as _audit  # noqa: F401
    from kneeboard.auth import models as _auth  # noqa: F401
    from kneeboard.campaigns import models as _campaigns  # noqa: F401
    from kneeboard.observers import models as _observers  # noqa: F401
    from kneeboard.plans import models as _plans  # noqa: F401
    from kneeboard.policy import models as _policy  # noqa: F401
    from kneeboard.profiles import models as _profiles  # noqa: F401
    from kneeboard.profiling import models as _profiling  # noqa: F401
    from kneeboard.promql import models as _promql  # noqa: F401
    from kneeboard.schedules import models as _schedules  # noqa: F401
    from kneeboard.shares import models as _shares  # noqa: F401
    from kneeboard.targets import models as _targets  # noqa: F401
    from kneeboard.trends import models as _trends  # noqa: F401
    from kneeboard.webhooks import models as _webhooks  # noqa: F401
