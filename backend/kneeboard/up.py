"""`kneeboard up`: everything a newcomer needs on one machine, ended together on Ctrl-C."""

from __future__ import annotations

import os
import re
import secrets
import sys
import threading
from pathlib import Path

from kneeboard import stack
from kneeboard.stack import ROOT

LOCAL_DNS_PORT = 5353


def _env(rundir: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("DATABASE_URL", f"sqlite:///{rundir / 'kneeboard.db'}")
    env.setdefault("WORKDIR", str(rundir / "work"))
    env.setdefault("FRONTEND_DIST", str(ROOT / "frontend" / "dist"))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "backend"), env.get("PYTHONPATH")]))
    return env


def run_up(host: str, port: int, *, with_lab: bool, stop: threading.Event, devsim_binary: str | None, agents: int = 0) -> int:
    """Start Redis (unless REDIS_URL is set), migrations, a local DNS server, the lab, a worker and the API,
    and (root, with the lab) `agents` load agents each in its own network namespace."""
    from kneeboard.lab.dns import start_unbound

    rundir = ROOT / ".run"
    rundir.mkdir(exist_ok=True)
    env = _env(rundir)
    started = []
    lab_started = False
    try:
        own_redis = "REDIS_URL" not in os.environ
        if own_redis:
            redis_proc, env["REDIS_URL"] = stack.start_redis(rundir, stack.free_port(6379), password=secrets.token_urlsafe(24))
            started.append(redis_proc)
        env["HOST"] = host
        os.environ.update({k: env[k] for k in ("DATABASE_URL", "REDIS_URL", "WORKDIR", "FRONTEND_DIST")})
        stack.migrate(env)
        from kneeboard.auth.bootstrap import ensure_admin

        admin_note = ensure_admin(rundir / "admin.env")
        dns_port = stack.free_port(LOCAL_DNS_PORT)
        started.append(start_unbound("127.0.0.1", dns_port, rundir / "dns"))
        from kneeboard.targets.registration import register_lab_targets, register_local_dns

        register_local_dns("127.0.0.1", dns_port)
        lab_note = _lab(with_lab, devsim_binary)
        lab_started = lab_note is None
        if lab_started:
            register_lab_targets()
        started.append(stack.start_worker(env, rundir))
        started.append(stack.start_beat(env, rundir))
        api, url = stack.start_api(env, rundir, host, stack.free_port(port))
        started.append(api)
        agents_note = _agents(agents, lab_started, env, rundir, started)
        print(f"Kneeboard is up: {url}", flush=True)
        print(f"  {admin_note}")
        print(f"  database {env['DATABASE_URL']}, broker {_masked(env['REDIS_URL'])}, DNS server 127.0.0.1:{dns_port} (target local-dns)")
        print(f"  lab: {'up (targets tagged lab)' if lab_started else lab_note}; logs in {rundir}; Ctrl-C stops everything", flush=True)
        if agents_note:
            print(f"  agents: {agents_note}", flush=True)
        while not stop.wait(1.0):
            dead = [p for p in started if p.poll() is not None]
            if dead:
                print(f"kneeboard: a process exited ({dead[0].args[0]} code {dead[0].returncode}); see {rundir}/*.log", file=sys.stderr)
                return 1
        return 0
    except RuntimeError as exc:
        print(f"kneeboard: {exc}", file=sys.stderr)
        return 1
    finally:
        for proc in reversed(started):
            stack.stop(proc)
        if lab_started:
            from kneeboard.lab import namespace

            namespace.down()
        print("kneeboard: stopped", flush=True)


def _agents(count: int, lab_up: bool, env: dict[str, str], rundir: Path, started: list) -> str | None:
    """Start `count` agents in the lab's agent namespaces (with an API process on the bridge for them); what to print.
    `lab_up`: the lab is up."""
    if not count:
        return None
    if not lab_up:
        return f"AGENTS={count} not started: agents run in network namespaces, which need root and the lab"
    from kneeboard.lab import agents

    agents.ensure(count)
    api, url = agents.start_api(env, rundir)
    started.append(api)
    for i in range(1, count + 1):
        started.append(agents.start(i, url, _agent_credential(agents.agent_name(i)), rundir / f"agent-{i}.log"))
    return (f"{', '.join(agents.agent_name(i) for i in range(1, count + 1))} in netns {agents.netns(1)}..{count} "
            f"({agents.address(1)}..), their API {url}; plans use them with `agents: N`")


def _agent_credential(name: str) -> str:
    """A fresh agent credential bound to `name`, through the service layer (audited as made by `kneeboard up`)."""
    from kneeboard.agentlink import credentials
    from kneeboard.audit.service import record
    from kneeboard.db import session_scope

    with session_scope() as session:
        row, secret = credentials.issue(name, actor="kneeboard up", session=session)
        record(session, "kneeboard up", "create", "agent_credential", row.id, name, None, {"prefix": row.prefix})
        return secret


def _masked(url: str) -> str:
    """A URL with its password replaced by ***."""
    return re.sub(r"(//[^:/@]*:)[^@/]+@", r"\1***@", url)


def _lab(wanted: bool, devsim_binary: str | None) -> str | None:
    """None when the lab is up, else why not."""
    if not wanted:
        return "not started (--no-lab)"
    from kneeboard.lab import namespace

    missing = namespace.missing_prerequisite()
    if missing:
        return f"not available: {missing}"
    try:
        namespace.up(devsim_binary=devsim_binary)
    except namespace.LabError as exc:
        return f"not available: {exc}"
    return None
