"""Argparse wiring of the client commands and the small ones: plans, campaigns, import."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kneeboard.client import exits, output
from kneeboard.client.http import ApiError, Client
from kneeboard.client.run import UsageError, run
from kneeboard.client.trend import add_trend_command
from kneeboard.gate import baseline_outcome


def _connection(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--url", help="the Kneeboard server (default: KB_URL, else http://127.0.0.1:8000)")
    parser.add_argument("--token", help="an API token (default: KB_TOKEN)")


def add_client_commands(sub: argparse._SubParsersAction) -> None:
    """Add run, plans, campaigns, import and trend to the `kneeboard` parser."""
    run_p = sub.add_parser("run", help="run a plan file on a server and gate on thresholds and a baseline (exit 0, 99, 98, 97, 1, 2)")
    run_p.add_argument("plan", help="a plan in YAML (it may have a thresholds: list)")
    run_p.add_argument("--threshold", action="append", metavar="EXPR", help="metric<value, <=, > or >=, checked on every completed point (repeatable)")
    run_p.add_argument("--baseline", metavar="CAMPAIGN_ID|latest-pinned", help="compare with this campaign; a significant regression exits 98")
    run_p.add_argument("--junit", metavar="FILE", help="write JUnit XML")
    run_p.add_argument("--json", metavar="FILE", help="write the result as JSON")
    run_p.add_argument("--wait", action=argparse.BooleanOptionalAction, default=True, help="follow the campaign to its end (default)")
    run_p.add_argument("--strict", action="store_true", help="an inconclusive baseline comparison exits 97 instead of warning")
    run_p.add_argument("--poll", type=float, default=1.0, help=argparse.SUPPRESS)
    _connection(run_p)
    run_p.set_defaults(handler=lambda a, c: run(a, c))

    plans = sub.add_parser("plans", help="stored plans: list, export ID (YAML)")
    plans.add_argument("action", choices=["list", "export"])
    plans.add_argument("id", nargs="?", type=int)
    _connection(plans)
    plans.set_defaults(handler=plans_command)

    campaigns = sub.add_parser("campaigns", help="campaigns: list, show ID, cancel ID, compare A B, export ID --html FILE|--markdown FILE.zip")
    campaigns.add_argument("action", choices=["list", "show", "cancel", "compare", "export"])
    campaigns.add_argument("ids", nargs="*", type=int)
    campaigns.add_argument("--tag", help="list: only campaigns with this tag")
    campaigns.add_argument("--status", help="list: only campaigns in this status")
    campaigns.add_argument("--limit", type=int, default=20)
    campaigns.add_argument("--html", metavar="FILE", help="export: write the report as one self-contained HTML file")
    campaigns.add_argument("--markdown", metavar="FILE.zip", help="export: write the report as Markdown with SVG charts, zipped")
    _connection(campaigns)
    campaigns.set_defaults(handler=campaigns_command)

    compare = sub.add_parser("compare", help="compare 2-10 campaigns (the first is the reference) into one HTML file: compare A B … --html FILE")
    compare.add_argument("ids", nargs="+", metavar="ID", help="campaign ids, or id@variant")
    compare.add_argument("--html", metavar="FILE", required=True, help="write the comparison as one self-contained HTML file")
    _connection(compare)
    compare.set_defaults(handler=compare_command)

    imp = sub.add_parser("import", help="import a plan (.yaml) or a campaign (Kneeboard JSON export, seed CSV, dnsperf output)")
    imp.add_argument("file")
    _connection(imp)
    imp.set_defaults(handler=import_command)
    add_trend_command(sub, _connection)


def dispatch(args: argparse.Namespace) -> int:
    """Run a client command; API and usage errors become a message and exit 1 or 2."""
    client = Client(args.url, args.token)
    try:
        return args.handler(args, client)
    except UsageError as exc:
        print(f"kneeboard: {exc}", file=sys.stderr)
        return exits.USAGE
    except ApiError as exc:
        print(f"kneeboard: {exc}", file=sys.stderr)
        return exits.USAGE if exc.status in (400, 401, 403, 404, 422) else exits.CAMPAIGN_FAILED
    except KeyboardInterrupt:
        print("\nkneeboard: interrupted (the campaign goes on; cancel it with `kneeboard campaigns cancel ID`)", file=sys.stderr)
        return 130


def _need(args: argparse.Namespace, count: int) -> list[int]:
    ids = args.ids if hasattr(args, "ids") else [args.id] if args.id is not None else []
    if len(ids) != count:
        raise UsageError(f"{args.action} takes {count} id(s)")
    return ids


def plans_command(args: argparse.Namespace, client: Client) -> int:
    """`kneeboard plans list|export ID`."""
    if args.action == "list":
        output.table([[p["id"], p["name"], p["tool"], p["target_id"], len(p["phases"])] for p in client.get("/plans")],
                     ["id", "name", "tool", "target", "phases"])  # fmt: skip
        return exits.OK
    (plan_id,) = _need(args, 1)
    sys.stdout.write(client.get(f"/plans/{plan_id}.yaml"))
    return exits.OK


def campaigns_command(args: argparse.Namespace, client: Client) -> int:
    """`kneeboard campaigns list|show ID|cancel ID|compare A B`."""
    if args.action == "list":
        page = client.get("/campaigns", tag=args.tag, status=args.status, limit=args.limit)
        rows = [[c["id"], c["name"], c["tool"], c["status"], f"{c['progress']['done']}/{c['progress']['total']}", ",".join(c["tags"])]
                for c in page["items"]]  # fmt: skip
        output.table(rows, ["id", "name", "tool", "status", "points", "tags"])
        return exits.OK
    if args.action == "compare":
        a, b = _need(args, 2)
        comparison = client.request("GET", "/compare", params=[("c", str(a)), ("c", str(b))])
        rows = [[h["label"], h["values"].get(str(a)), h["values"].get(str(b)), (h["deltas"].get(str(b)) or {}).get("pct"),
                 h["verdicts"].get(str(b)) or "—"] for h in comparison["headline"]]  # fmt: skip
        output.table(rows, ["metric", f"#{a}", f"#{b}", "Δ %", "verdict"])
        if steps := output.next_steps(comparison, str(b)):
            print("undecided: what would decide a 10 % change")
            for line in steps:
                print(f"  {line}")
        outcome = baseline_outcome(comparison, str(b))
        print(f"{b} against {a}: {outcome.outcome}: {outcome.detail}")
        return exits.OK
    (campaign_id,) = _need(args, 1)
    if args.action == "export":
        return export_command(args, client, campaign_id)
    if args.action == "cancel":
        campaign = client.post(f"/campaigns/{campaign_id}/cancel")
        print(f"campaign {campaign_id}: {campaign['status']}")
        return exits.OK
    output.summary(client.get(f"/campaigns/{campaign_id}"))
    print(f"report: {client.report_url(campaign_id)}")
    return exits.OK


EXPORT_TIMEOUT_S = 180.0  # the server draws the file with its renderer (at most a minute) and may queue it


def _save(client: Client, path: str, file: str, params: list[tuple[str, str]] | None = None) -> None:
    """GET an export and write it to `file`."""
    body = client.send("GET", path, params=params, timeout=EXPORT_TIMEOUT_S).content
    try:
        Path(file).write_bytes(body)
    except OSError as exc:
        raise UsageError(f"{file}: {exc.strerror}") from None
    print(f"wrote {file} ({len(body):,} bytes)")


def export_command(args: argparse.Namespace, client: Client, campaign_id: int) -> int:
    """`kneeboard campaigns export ID --html FILE --markdown FILE.zip` (either or both)."""
    if not args.html and not args.markdown:
        raise UsageError("export needs --html FILE or --markdown FILE.zip")
    if args.html:
        _save(client, f"/campaigns/{campaign_id}/export.html", args.html)
    if args.markdown:
        _save(client, f"/campaigns/{campaign_id}/export.md.zip", args.markdown)
    return exits.OK


def compare_command(args: argparse.Namespace, client: Client) -> int:
    """`kneeboard compare A B … --html FILE`: the comparison as one HTML file."""
    if not 2 <= len(args.ids) <= 10:
        raise UsageError("compare takes 2 to 10 campaign ids")
    _save(client, "/compare/export.html", args.html, [("c", c) for c in args.ids])
    return exits.OK


def import_command(args: argparse.Namespace, client: Client) -> int:
    """`kneeboard import FILE`: a .yaml/.yml plan, else a campaign file."""
    path = Path(args.file)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise UsageError(f"{path}: {exc.strerror}") from None
    if path.suffix in (".yaml", ".yml"):
        plan = client.post("/plans/import.yaml", content=data, headers={"Content-Type": "application/yaml"})
        print(f"plan {plan['id']} {plan['name']!r} stored")
        return exits.OK
    campaign = client.post("/campaigns/import", files={"file": (path.name, data)})
    print(f"campaign {campaign['id']} {campaign['name']!r} imported: {client.report_url(campaign['id'])}")
    return exits.OK
