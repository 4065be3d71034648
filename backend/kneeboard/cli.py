"""The `kneeboard` command: `up` starts everything, `lab up|down|status` manages the lab; run, plans, campaigns and
import talk to a running server (kneeboard.client)."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading

from kneeboard.stack import ROOT


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="kneeboard", description="Capacity-test campaigns: plans, sweeps, reports, comparisons.")
    sub = parser.add_subparsers(dest="command", required=True)
    up = sub.add_parser("up", help="start Redis (unless REDIS_URL is set), a DNS server, the lab (root), a worker and the API")
    up.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"), help="address the API listens on")
    up.add_argument("--port", type=_port, default=int(os.environ.get("PORT", "8000")), help="port of the API and UI (1-65535)")
    up.add_argument("--no-lab", action="store_true", help="do not set up the network-namespace lab")
    up.add_argument("--agents", type=_agent_count, metavar="K", default=os.environ.get("AGENTS") or "0",
                    help="start K load agents, each in its own network namespace of the lab (root; default: $AGENTS or 0)")
    lab = sub.add_parser("lab", help="the network-namespace lab (root)")
    lab.add_argument("action", choices=["up", "down", "status"])
    agent = sub.add_parser("agent", help="a remote load generator: talks to the API only (no broker, no database)")
    agent.add_argument("--name", required=True, help="its name: the one its agent credential is bound to")
    agent.add_argument("--url", required=True, help="the API's base URL, e.g. https://kneeboard.example:8443")
    agent.add_argument("--token", default=os.environ.get("KB_AGENT_TOKEN"), help="its agent credential, made by an admin with "
                       "POST /api/v1/agent-credentials (default: $KB_AGENT_TOKEN, which keeps it out of the process list)")
    agent.add_argument("--observe", action="store_true", help="an observer on the server under test, with an observer credential "
                       "(role observe): takes the observe assignments of the plans that name it (CPU profiles), never load")
    agent.add_argument("--actions", metavar="FILE", help="with --observe: the root-owned TOML file of the host actions plans may "
                       "run on this host (services, HAProxy servers, a link's loss; docs/failover.md). Without it, none")
    agent.add_argument("--ca-bundle", help="PEM file of the CA that signed the API's certificate (default: the system's)")
    agent.add_argument("--insecure-http", action="store_true", help="allow plain http:// to an address off this machine "
                       "(the credential crosses the network in clear: only on a network that is yours alone)")
    from kneeboard.client.commands import add_client_commands

    add_client_commands(sub)
    return parser


def _agent_count(text: str) -> int:
    if not text.isdigit() or int(text) > 16:
        raise argparse.ArgumentTypeError(f"AGENTS / --agents: {text!r} is not a count 0-16")
    return int(text)


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{value} is outside 1-65535")
    return value


def _devsim_binary() -> str | None:
    binary = ROOT / "simulator" / "bin" / "devsim"
    return str(binary) if binary.exists() else None


def lab_command(action: str) -> int:
    """`kneeboard lab up|down|status`: prints the lab's state as JSON; exit 1 when it cannot be set up."""
    from kneeboard.lab import namespace

    if action == "down":
        namespace.down()
        print("lab: down")
        return 0
    if action == "up":
        try:
            state = namespace.up(devsim_binary=_devsim_binary())
        except namespace.LabError as exc:
            print(f"lab: cannot set up: {exc}", file=sys.stderr)
            return 1
        from kneeboard.targets.registration import register_lab_targets

        register_lab_targets()
    else:
        state = namespace.status()
    print(json.dumps(state.to_dict(), indent=1))
    return 0


def _no_token() -> int:
    print("kneeboard agent: give --token or set KB_AGENT_TOKEN", file=sys.stderr)
    return 2


def main(argv: list[str] | None = None) -> int:
    """Entry point; argparse exits 2 with a message on bad arguments."""
    args = _parser().parse_args(argv)
    if getattr(args, "handler", None) is not None:
        from kneeboard.client.commands import dispatch

        return dispatch(args)
    if args.command == "lab":
        return lab_command(args.action)
    if args.command == "agent":
        from kneeboard.agent_process import run_agent

        if not args.token:
            return _no_token()
        return run_agent(args.name, args.url, args.token, ca_bundle=args.ca_bundle, insecure_http=args.insecure_http, observe=args.observe,
                         actions_file=args.actions)
    from kneeboard.up import run_up

    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    return run_up(args.host, args.port, with_lab=not args.no_lab, stop=stop, devsim_binary=_devsim_binary(), agents=args.agents)


if __name__ == "__main__":
    sys.exit(main())
