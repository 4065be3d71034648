"""`python -m kneeboard.firstrun`: the one-time bootstrap of a new install (docs/running.md, docker compose).

Applies the migrations, then creates the first admin with a random password, adds networks to the target policy and makes a credential for
each named remote agent, in one transaction, and prints the password and the credentials once (they are stored
only as hashes). Run twice, it refuses: an admin exists.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
import time

from kneeboard.agentlink import credentials
from kneeboard.audit.service import record
from kneeboard.auth import service
from kneeboard.auth.bootstrap import ADMIN
from kneeboard.auth.roles import Role
from kneeboard.auth.schemas import UserCreate
from kneeboard.db import session_scope
from kneeboard.policy import service as policy
from kneeboard.policy.schemas import Policy
from kneeboard.stack import migrate

ACTOR = "bootstrap"
DATABASE_WAIT_S = 60  # `compose run` may start it beside a database that is still starting


def bootstrap(agents: list[str], networks: list[str]) -> tuple[str, dict[str, str]] | None:
    """Create the admin, widen the policy, issue the agents' credentials; (password, {agent: secret}), or None when
    an admin already exists (nothing is changed)."""
    with session_scope() as session:
        if service.find_user(ADMIN, session=session) is not None:
            return None
        password = secrets.token_urlsafe(18)
        user = service.create_user(UserCreate(username=ADMIN, password=password, role=Role.admin), session=session)
        record(session, ACTOR, "create", "user", user.id, user.username, None, {"role": user.role, "by": ACTOR})
        if networks:
            current = policy.get_policy(session=session)
            wanted = Policy(networks=[*current.networks, *(n for n in networks if n not in current.networks)],
                            hosts=current.hosts, role_caps=current.role_caps)  # fmt: skip
            policy.put_policy(wanted, actor=ACTOR, session=session)
            record(session, ACTOR, "update", "policy", 1, "targets", None, {"networks": wanted.networks})
        issued = {}
        for agent in agents:
            row, issued[agent] = credentials.issue(agent, actor=ACTOR, session=session)
            record(session, ACTOR, "create", "agent_credential", row.id, agent, None, {"by": ACTOR})
    return password, issued


def _migrate() -> None:
    deadline = time.monotonic() + DATABASE_WAIT_S
    while True:
        try:
            return migrate(dict(os.environ))
        except RuntimeError:
            if time.monotonic() > deadline:
                raise
            time.sleep(2)


def _network(text: str) -> str:
    try:
        return Policy(networks=[text]).networks[0]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a network (CIDR such as 172.30.77.0/24)") from None


def main(argv: list[str] | None = None) -> int:
    """Bootstrap and print; exit 1 when already bootstrapped."""
    parser = argparse.ArgumentParser(prog="python -m kneeboard.firstrun", description=__doc__.splitlines()[0])
    parser.add_argument("--agent", action="append", default=[], help="make a credential for this remote agent (repeatable)")
    parser.add_argument("--allow-network", action="append", default=[], metavar="CIDR", type=_network,
                        help="add this network to the target policy (repeatable), e.g. the compose network")
    args = parser.parse_args(argv)
    _migrate()
    done = bootstrap(args.agent, args.allow_network)
    if done is None:
        print(f"already bootstrapped: user {ADMIN} exists (make agent credentials on the Agents page)", file=sys.stderr)
        return 1
    password, issued = done
    print(f"admin user: {ADMIN}")
    print(f"admin password: {password}  (shown once: sign in and change it)")
    for agent, secret in issued.items():
        print(f"agent {agent}: add the next line to .env (shown once)")
        print(f"KB_AGENT_TOKEN={secret}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
