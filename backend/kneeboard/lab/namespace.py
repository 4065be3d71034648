"""`kneeboard lab up | down | status`: a network namespace joined to the host by a multi-queue veth pair,
running unbound, CoreDNS and AdGuard Home (when built), BIND, nginx, an iperf3 server and (optionally) devsim — the lab's own systems under test —
HAProxy, Caddy and nginx balancing over three nginx backends in namespaces of their own (lab.balancers),
and a node_exporter on the lab address, which the node monitor scrapes (its targets' metrics_url).
Inside the namespace /proc/net is the namespace's own, but /proc/stat is the whole machine's: the
per-CPU softirq it reports is the box's, which is the truth of one box where load and server share it.

Only the addresses created here (10.77.0.1 host side, 10.77.0.2 lab side) and loopback may receive load.
"""

from __future__ import annotations

import logging
import os
import shutil
import signal
import stat
import subprocess
from dataclasses import asdict, dataclass, field
from pathlib import Path

from kneeboard.lab import adguard, agents, backends, balancers, bind, coredns, dns, haproxy, impair, nginx, processes
from kneeboard.lab_link import HOST_ADDR, HOST_IF, LAB_ADDR, LAB_IF, NETNS, PREFIX_LEN, STATE_FILE  # noqa: F401 - the lab's names, said here too
from kneeboard.lab.system import CommandFailed, cpu_count, is_root, list_sysfs, run, which

log = logging.getLogger(__name__)

DNS_PORT = 53
HTTP_PORT = 80
HTTPS_PORT = 443  # the same nginx, over TLS (a certificate generated at `lab up`)
IPERF3_PORT = 5201
DEVSIM_PORT = 7000
DEVSIM_PROCS = 8  # SO_REUSEPORT listeners: 100,000 devices at 12,500 connections each, under a 20,000 open-file limit
METRICS_PORT = 9100
METRICS_URL = f"http://{LAB_ADDR}:{METRICS_PORT}/metrics"
DEFAULT_WORKDIR = Path(os.environ.get("KNEEBOARD_LAB_DIR", "/var/lib/kneeboard-lab"))  # on disk: /run is a tmpfs, query logs would fill memory
SERVER_NAMES = ("unbound", "coredns", "AdGuardHome", "named", "nginx", "iperf3", "devsim", "prometheus-node", "haproxy", "caddy")  # comm names (15 chars) of processes the lab starts
METRICS_SERVICE = "lab-node-exporter"
COREDNS_METRICS_URL = f"http://{LAB_ADDR}:{coredns.METRICS_PORT}/metrics"
SHIPPED_METRICS_URL = f"http://{LAB_ADDR}:{coredns.SHIPPED_METRICS_PORT}/metrics"
HAPROXY_METRICS_URL = f"http://{LAB_ADDR}:{haproxy.METRICS_PORT}/metrics"


class LabError(RuntimeError):
    """The lab cannot be brought up (not root, ip missing, a link cannot be made…)."""


@dataclass
class LabStatus:
    """What the lab looks like now: present or why not, the veth queue count, its services."""

    present: bool
    reason: str | None = None
    queues: int | None = None
    services: list[dict] = field(default_factory=list)

    def to_dict(self) -> dict:
        """Plain JSON-able form."""
        return asdict(self)


def missing_prerequisite() -> str | None:
    """Why the lab cannot be created here ("not root", "ip not installed"), or None."""
    if which("ip") is None:
        return "ip not installed (apt-get install iproute2)"
    if not is_root():
        return "not root (`kneeboard lab up` needs root)"
    return None


def targets() -> list[dict]:
    """The targets the lab offers (to register, tagged `lab`): kind, name, host, port, tags, notes, the server's command
    name (`process`, read from /proc by the process monitor)."""
    return [
        {"kind": kind, "name": name, "host": LAB_ADDR, "port": port, "tags": ["lab"], "notes": notes, "metrics_url": METRICS_URL,
         "process": SERVER_PROCESS[name], "exporters": exporters(name)}
        for kind, name, port, notes in _SERVICE_TABLE
    ]


def exporters(name: str) -> list[dict]:
    """The exporters a lab target lists: the server's own where it has one (CoreDNS's prometheus plugin, HAProxy's
    built-in exporter), and the lab's node_exporter (the host's CPUs, NIC, softnet and the kernel's drop counters)."""
    own = {coredns.SERVICE: {"name": "coredns", "url": COREDNS_METRICS_URL, "packs": ["coredns", "process", "go"]},
           coredns.SHIPPED_SERVICE: {"name": "coredns", "url": SHIPPED_METRICS_URL, "packs": ["coredns", "process", "go"]},
           haproxy.SERVICE: {"name": "haproxy", "url": HAPROXY_METRICS_URL, "packs": ["haproxy"]}}
    return [*([own[name]] if name in own else []), {"name": "node", "url": METRICS_URL, "packs": ["node"]}]


_SERVICE_TABLE = (
    ("dns", "lab-dns", DNS_PORT, "unbound in netns kblab, zone example.lab (www + h0000..h0499)"),
    ("dns", coredns.SERVICE, coredns.PORT, f"CoreDNS {coredns.VERSION} in netns kblab, zone example.lab from a zone file (www + "
                                           f"h0000..h0499), not forwarding; its prometheus plugin at {COREDNS_METRICS_URL}. "
                                           f"DNS over TLS on port {coredns.DOT_PORT} and over HTTPS on {coredns.DOH_PORT} "
                                           f"({coredns.DOH_PATH}) with a self-signed certificate for {nginx.TLS_NAME} and "
                                           f"{LAB_ADDR} (dnsperf params mode dot/doh with that port). GOMAXPROCS="
                                           f"{coredns.GOMAXPROCS}: one CPU for the server. "
                                           "Configurations (variant action lab.coredns_config, default "
                                           f"{coredns.DEFAULT}): " + "; ".join(map(coredns.describe, coredns.CONFIGS))),
    ("dns", coredns.SHIPPED_SERVICE, coredns.SHIPPED_PORT,
     f"CoreDNS {coredns.VERSION} as shipped, beside lab-coredns: Go's default GOMAXPROCS (one P per usable CPU, none set "
     f"in its environment), its own process in netns kblab with lab-coredns's configurations (zone example.lab from "
     f"a zone file, not forwarding), plain DNS only; its prometheus plugin at {SHIPPED_METRICS_URL}. Configurations "
     f"(variant action lab.coredns_shipped_config, default {coredns.DEFAULT}): the same as lab-coredns's"),
    ("dns", adguard.SERVICE, adguard.PORT, f"AdGuard Home {adguard.VERSION} in netns kblab forwarding to the lab's unbound "
                                           f"({LAB_ADDR}:{DNS_PORT}): {adguard.COMMON}; its API at http://{LAB_ADDR}:"
                                           f"{adguard.HTTP_PORT}/control/ (user {adguard.USER}, password in the lab's "
                                           f"workdir, adguard/{adguard.PASSWORD_FILE}). Configurations (variant action "
                                           f"lab.adguard_config, default {adguard.DEFAULT}): "
                                           + "; ".join(map(adguard.describe, adguard.CONFIGS))),
    ("dns", bind.SERVICE, bind.PORT, f"BIND 9 (Debian's named) in netns kblab, authoritative for example.lab from CoreDNS's "
                                     "zone file (www + h0000..h0499), no recursion, no forwarding; its statistics channel "
                                     f"at http://{LAB_ADDR}:{bind.STATS_PORT}/json/v1/server. Configurations (variant "
                                     f"action lab.bind_config, default {bind.DEFAULT}): "
                                     + "; ".join(map(bind.describe, bind.CONFIGS))),
    ("http", "lab-http", HTTP_PORT, "nginx in netns kblab: /index.html 590 B, /slow/3k.html at 1000 B/s"),
    ("http", "lab-https", HTTPS_PORT, f"the same nginx over TLS (scheme https): a self-signed certificate for {nginx.TLS_NAME} "
                                      f"and {LAB_ADDR}; its PEM is lab-http's ca_pem in GET /api/v1/lab (a plan's ca_pem)"),
    ("net", "lab-iperf3", IPERF3_PORT, "iperf3 -s in netns kblab, behind veth kbh0<->kbl0"),
    ("device", "lab-devsim", DEVSIM_PORT, "devsim serve --ack-reports in netns kblab"),
    *balancers.table(),
)
SERVER_PROCESS = {"lab-dns": "unbound", coredns.SERVICE: "coredns", coredns.SHIPPED_SERVICE: "coredns",
                  adguard.SERVICE: "AdGuardHome", bind.SERVICE: "named", "lab-http": "nginx", "lab-https": "nginx",
                  "lab-iperf3": "iperf3", "lab-devsim": "devsim", **balancers.PROCESSES}  # each target's server, by comm


# ---------------------------------------------------------------- network


def _ns_exists() -> bool:
    proc = run(["ip", "netns", "list"], check=False)
    return any(line.split()[0] == NETNS for line in proc.stdout.splitlines() if line.strip())


def _link_exists(dev: str, netns: str | None = None) -> bool:
    argv = ["ip", "-n", netns, "link", "show", dev] if netns else ["ip", "link", "show", dev]
    return run(argv, check=False).returncode == 0


def _ensure_network() -> None:
    if not _ns_exists():
        run(["ip", "netns", "add", NETNS])
    if not _link_exists(HOST_IF):
        if _link_exists(LAB_IF, NETNS):
            run(["ip", "-n", NETNS, "link", "del", LAB_IF])
        n = str(cpu_count())
        run(["ip", "link", "add", HOST_IF, "numtxqueues", n, "numrxqueues", n, "type", "veth",
             "peer", "name", LAB_IF, "numtxqueues", n, "numrxqueues", n, "netns", NETNS])
    elif not _link_exists(LAB_IF, NETNS):
        raise LabError(f"{HOST_IF} exists but its peer {LAB_IF} is not in netns {NETNS}; run `kneeboard lab down` first")
    run(["ip", "addr", "replace", f"{HOST_ADDR}/{PREFIX_LEN}", "dev", HOST_IF])
    run(["ip", "-n", NETNS, "addr", "replace", f"{LAB_ADDR}/{PREFIX_LEN}", "dev", LAB_IF])
    run(["ip", "link", "set", HOST_IF, "up"])
    run(["ip", "-n", NETNS, "link", "set", "lo", "up"])
    run(["ip", "-n", NETNS, "link", "set", LAB_IF, "up"])


def current_queues() -> int | None:
    """The veth's current queue count (rx queues of the host side, read from sysfs), None if absent."""
    names = list_sysfs(f"/sys/class/net/{HOST_IF}/queues")
    count = sum(1 for n in names if n.startswith("rx-"))
    return count or None


# ---------------------------------------------------------------- services


def _service_specs(workdir: Path, devsim_binary: str | None) -> list[dict]:
    specs = [
        {"kind": "dns", "name": "lab-dns", "port": DNS_PORT, "binary": dns.unbound_binary()},
        {"kind": "dns", "name": coredns.SERVICE, "port": coredns.PORT, "binary": coredns.binary(),
         "missing": coredns.missing_reason(), "config": coredns.DEFAULT},
        {"kind": "dns", "name": coredns.SHIPPED_SERVICE, "port": coredns.SHIPPED_PORT, "binary": coredns.binary(),
         "missing": coredns.missing_reason(), "config": coredns.DEFAULT},
        {"kind": "dns", "name": adguard.SERVICE, "port": adguard.PORT, "binary": adguard.binary(),
         "missing": adguard.missing_reason(), "config": adguard.DEFAULT},
        {"kind": "dns", "name": bind.SERVICE, "port": bind.PORT, "binary": bind.binary(),
         "missing": bind.missing_reason(), "config": bind.DEFAULT},
        {"kind": "http", "name": "lab-http", "port": HTTP_PORT, "binary": which("nginx")},
        {"kind": "net", "name": "lab-iperf3", "port": IPERF3_PORT, "binary": which("iperf3")},
        {"kind": "metrics", "name": METRICS_SERVICE, "port": METRICS_PORT, "binary": which("prometheus-node-exporter")},
    ]
    specs += balancers.service_specs()
    if devsim_binary:
        exists = Path(devsim_binary).is_file() and os.access(devsim_binary, os.X_OK)
        specs.append({"kind": "device", "name": "lab-devsim", "port": DEVSIM_PORT, "binary": devsim_binary if exists else None})
    return specs


def _answers(kind: str, port: int, host: str = LAB_ADDR) -> bool:
    if kind == "dns":
        try:
            dns.wait_until_answering(host, port, timeout_s=1.0)
            return True
        except RuntimeError:
            return False
    return processes.tcp_answers(host, port)


def _start(spec: dict, workdir: Path) -> subprocess.Popen:
    kind, binary, port = spec["kind"], spec["binary"], spec["port"]
    if spec["name"] in balancers.SERVICES:
        return balancers.start(spec, LAB_ADDR, workdir, NETNS)
    if spec["name"] == coredns.SERVICE:
        return coredns.start(binary, LAB_ADDR, workdir / "coredns", spec["config"], NETNS)
    if spec["name"] == coredns.SHIPPED_SERVICE:
        return coredns.start_shipped(binary, LAB_ADDR, workdir / coredns.SHIPPED_FOLDER, spec["config"], NETNS)
    if spec["name"] == adguard.SERVICE:
        return adguard.start(binary, LAB_ADDR, workdir / "adguard", spec["config"], f"{LAB_ADDR}:{DNS_PORT}", NETNS)
    if spec["name"] == bind.SERVICE:
        return bind.start(binary, LAB_ADDR, workdir / "bind", spec["config"], NETNS)
    if kind == "dns":
        proc = dns.start_unbound(LAB_ADDR, port, workdir / "dns", netns=NETNS)
        dns.wait_until_answering(LAB_ADDR, port, proc)
        return proc
    if kind == "http":
        nginx.write_site(LAB_ADDR, port, workdir / "http", tls_port=HTTPS_PORT)
        argv = nginx.nginx_argv(binary, workdir / "http")
    elif kind == "net":
        argv = [binary, "-s", "-B", LAB_ADDR, "-p", str(port)]
    elif kind == "metrics":  # our own process on the lab address only, not Debian's service
        argv = [binary, f"--web.listen-address={LAB_ADDR}:{port}"]
    else:
        argv = [binary, "serve", "--listen", f"{LAB_ADDR}:{port}", "--ack-reports", "--procs", str(DEVSIM_PROCS)]
    proc = processes.spawn(["ip", "netns", "exec", NETNS, *argv], workdir / f"{spec['name']}.log")
    processes.wait_tcp(LAB_ADDR, port, proc)
    if kind == "http":
        processes.wait_tcp(LAB_ADDR, HTTPS_PORT, proc)
    return proc


def _ensure_service(spec: dict, old: dict | None, workdir: Path) -> dict:
    record = {"kind": spec["kind"], "name": spec["name"], "host": spec.get("host", LAB_ADDR), "port": spec["port"],
              "pid": None, "started": None, "error": None, **({"config": spec["config"]} if "config" in spec else {})}
    if old and processes.is_alive(old.get("pid"), old.get("started")):
        if old.get("config") == spec.get("config") and _answers(spec["kind"], spec["port"], record["host"]):  # lab up: the default configuration
            return {**record, "pid": old["pid"], "started": old["started"]}
        processes.stop(old["pid"], old.get("started"))
    if spec["binary"] is None:
        what = spec.get("missing") or ("devsim binary not found" if spec["kind"] == "device" else f"{spec['name']}: server not installed")
        return {**record, "error": what}
    try:
        proc = _start(spec, workdir)
    except (RuntimeError, OSError) as exc:
        log.warning("lab service %s did not start: %s", spec["name"], exc)
        return {**record, "error": str(exc)}
    return {**record, "pid": proc.pid, "started": processes.start_time(proc.pid)}


def _end_strays(keep: set[int]) -> None:
    """End lab servers inside our namespace that the state file does not know (lost state, orphaned
    nginx workers): only processes named like our own servers, only in kblab and the backends' namespaces, by PID."""
    namespaces = (NETNS, *backends.namespaces())
    for pid_text in [pid for ns in namespaces for pid in run(["ip", "netns", "pids", ns], check=False).stdout.split()]:
        pid = int(pid_text)
        name = processes.process_name(pid)
        if name in SERVER_NAMES and pid not in keep and processes.parent_pid(pid) not in keep:
            log.warning("ending lab server %s (pid %d) not in the state file", name, pid)
            processes.stop(pid, None)


def _check_workdir(workdir: Path) -> None:
    for folder in [workdir, *workdir.parents]:
        if folder.exists() and not folder.stat().st_mode & stat.S_IXOTH:
            raise LabError(f"{folder} is not traversable by others; nginx workers (nobody) could not read the lab's files")


# ---------------------------------------------------------------- public


def up(workdir: Path | str = DEFAULT_WORKDIR, devsim_binary: str | None = None) -> LabStatus:
    """Create (or complete) the lab: namespace, veth, addresses, services; idempotent. Raises LabError."""
    reason = missing_prerequisite()
    if reason:
        raise LabError(reason)
    workdir = Path(workdir).resolve()
    if not workdir.exists():
        workdir.mkdir(mode=0o755, parents=True)
    _check_workdir(workdir)
    try:
        _ensure_network()
        backends.ensure_network(NETNS, LAB_IF, HOST_IF, LAB_ADDR)
    except CommandFailed as exc:
        raise LabError(str(exc)) from exc
    impair.clear()  # a lab that starts has an unimpaired link
    state = processes.load_state(STATE_FILE)
    old = state.get("services", {})
    _end_strays({r["pid"] for r in old.values() if processes.is_alive(r.get("pid"), r.get("started"))})
    services = {}
    for spec in _service_specs(workdir, devsim_binary):
        services[spec["name"]] = _ensure_service(spec, old.get(spec["name"]), workdir)
        processes.save_state(STATE_FILE, {"workdir": str(workdir), "services": {**old, **services}})
    for name, rec in old.items():  # e.g. devsim from an earlier `up` that was given its binary
        if name not in services and processes.is_alive(rec.get("pid"), rec.get("started")):
            services[name] = rec
    processes.save_state(STATE_FILE, {"workdir": str(workdir), "services": services})
    return status()


def restart_service(name: str, config: str) -> dict:
    """Run the lab service `name` with another of its configurations (CoreDNS's): stop it, start it with `config`, wait
    until it answers, record it in the state file; returns its record. A service already running `config` is kept.
    Raises LabError when the lab or the service is not there, or it does not come back."""
    state = processes.load_state(STATE_FILE)
    old = state.get("services", {}).get(name)
    workdir = Path(state.get("workdir") or DEFAULT_WORKDIR)
    spec = next((s for s in _service_specs(workdir, None) if s["name"] == name and "config" in s), None)
    if old is None or spec is None:
        raise LabError(f"{name} is not in the lab (run `kneeboard lab up`)")
    if spec["binary"] is None:  # before stopping the one that runs
        raise LabError(spec["missing"])
    record = _ensure_service({**spec, "config": config}, old, workdir)
    record["set_by"] = {"pid": os.getpid(), "started": processes.start_time(os.getpid())}  # see setter_alive
    state = processes.load_state(STATE_FILE)  # fresh: only this service's record changes
    processes.save_state(STATE_FILE, {**state, "services": {**state.get("services", {}), name: record}})
    if record["error"]:
        raise LabError(f"{name} with configuration {config}: {record['error']}")
    return record


def stop_service(name: str, kill: bool = False) -> None:
    """Stop the lab service `name` by its recorded PID (SIGTERM, or SIGKILL when `kill`), recording it as stopped; a
    service not running is left as it is. Raises LabError when the lab does not have it."""
    state = processes.load_state(STATE_FILE)
    record = state.get("services", {}).get(name)
    if record is None:
        raise LabError(f"{name} is not in the lab (run `kneeboard lab up`)")
    if kill and processes.is_alive(record.get("pid"), record.get("started")):
        # the process group we started it in: nginx's workers outlive a killed master and would go on serving
        if os.getpgid(record["pid"]) == record["pid"]:
            os.killpg(record["pid"], signal.SIGKILL)
        else:
            os.kill(record["pid"], signal.SIGKILL)
    if record.get("pid"):
        processes.stop(record["pid"], record.get("started"))
    state = processes.load_state(STATE_FILE)
    stopped = {**record, "pid": None, "started": None, "error": "stopped (killed)" if kill else "stopped"}
    processes.save_state(STATE_FILE, {**state, "services": {**state.get("services", {}), name: stopped}})


def start_service(name: str) -> dict:
    """Start the lab service `name` again with its recorded configuration, only it (nothing else restarts); its record
    once it answers. Raises LabError when the lab does not have it or it does not come back."""
    state = processes.load_state(STATE_FILE)
    old = state.get("services", {}).get(name)
    workdir = Path(state.get("workdir") or DEFAULT_WORKDIR)
    spec = next((s for s in _service_specs(workdir, None) if s["name"] == name), None)
    if old is None or spec is None:
        raise LabError(f"{name} is not in the lab (run `kneeboard lab up`)")
    record = _ensure_service({**spec, **({"config": old["config"]} if "config" in old else {})}, old, workdir)
    state = processes.load_state(STATE_FILE)
    processes.save_state(STATE_FILE, {**state, "services": {**state.get("services", {}), name: record}})
    if record["error"]:
        raise LabError(f"{name} did not start: {record['error']}")
    return record


def setter_alive(name: str) -> bool:
    """True while the process that last switched the service's configuration still runs (a worker under a variant)."""
    setter = service_record(name).get("set_by") or {}
    return processes.is_alive(setter.get("pid"), setter.get("started"))


def lab_workdir() -> Path:
    """The work directory of the lab that is up (its state file's), else the default."""
    return Path(processes.load_state(STATE_FILE).get("workdir") or DEFAULT_WORKDIR)


def service_record(name: str) -> dict:
    """The state file's record of one lab service ({} when the lab has none)."""
    return processes.load_state(STATE_FILE).get("services", {}).get(name) or {}


def status(probe: bool = True) -> LabStatus:
    """The lab as it is now (never raises): present or why not, queues, services (running = alive and answering;
    with probe=False only "alive" is checked, no packet is sent)."""
    try:
        return _status(probe)
    except (CommandFailed, OSError) as exc:
        return LabStatus(False, f"cannot read the lab's state: {exc}")


def _status(probe: bool) -> LabStatus:
    if which("ip") is None:
        return LabStatus(False, "ip not installed (apt-get install iproute2)")
    if not _ns_exists() or not _link_exists(HOST_IF):
        reason = missing_prerequisite() or "not set up (run `kneeboard lab up`)"
        return LabStatus(False, reason)
    services = []
    state = processes.load_state(STATE_FILE)
    for rec in state.get("services", {}).values():
        alive = processes.is_alive(rec.get("pid"), rec.get("started"))
        services.append({
            "kind": rec["kind"], "name": rec["name"], "host": rec["host"], "port": rec["port"], "pid": rec.get("pid"),
            "running": alive and (not probe or _answers(rec["kind"], rec["port"], rec["host"])),
            "error": rec.get("error") or (None if alive else "not running"),
            **({"config": rec["config"]} if "config" in rec else {}),
        })
        if rec["name"] == "lab-http" and state.get("workdir"):  # its https listener's certificate, to trust in a plan
            services[-1].update(tls_port=HTTPS_PORT, ca_pem=nginx.certificate_pem(Path(state["workdir"]) / "http"))
        if rec["name"] == coredns.SERVICE and state.get("workdir"):  # its DoT and DoH certificate (a dnsperf plan's ca_pem)
            services[-1].update(tls_ports=[coredns.DOT_PORT, coredns.DOH_PORT],
                                ca_pem=coredns.certificate_pem(Path(state["workdir"]) / "coredns"))
    return LabStatus(True, None, current_queues(), services)


def down() -> None:
    """Remove the lab: stop the servers it started (by recorded PID), delete the veth and the namespace."""
    state = processes.load_state(STATE_FILE)
    for rec in state.get("services", {}).values():
        if rec.get("pid"):
            processes.stop(rec["pid"], rec.get("started"))
    if which("ip") is None:
        return
    impair.clear()  # the host's table outlives the namespace
    agents.remove()
    _end_strays(set())  # kblab's and the backends' namespaces
    backends.remove()
    if _link_exists(HOST_IF):
        run(["ip", "link", "del", HOST_IF])
    if _ns_exists():
        run(["ip", "netns", "del", NETNS])
    if state.get("workdir"):
        _remove_files(Path(state["workdir"]))
    STATE_FILE.unlink(missing_ok=True)


def _remove_files(workdir: Path) -> None:
    """Remove only what up() wrote into workdir (configs, site, logs), then workdir itself if empty."""
    for sub in ("dns", "coredns", coredns.SHIPPED_FOLDER, "adguard", "bind", "http", *balancers.FOLDERS):
        shutil.rmtree(workdir / sub, ignore_errors=True)
    for name in [*(spec[1] for spec in _SERVICE_TABLE), METRICS_SERVICE]:
        (workdir / f"{name}.log").unlink(missing_ok=True)
    try:
        workdir.rmdir()
    except OSError:
        pass
