"""Host variants through the observer for real (issue 51): a server host in a network namespace of its own behind a
veth made with two queues each way; an observer (`kneeboard agent --observe --actions FILE`, its own process) whose
root-owned actions file lets variants set that veth's channels within 1-2. A campaign with variants host.channels 1
and 2 has each variant's channel count, read back by the observer before its points, in its facts and in "what
differs" of the variant comparison; the channels are back as found after the campaign, after a cancel, and after the
observer is killed (-9) mid-campaign and started again. A count the file does not allow, and the interface carrying the
observer's own link to Kneeboard, are refused on the variant with the reason."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kneeboard.lab import ethtool
from kneeboard.stack import stop
from tests.integration.test_campaign_run import wait_status
from tests.integration.test_fanout import start_agent, wait_agents
from tests.integration.test_observer import launch
from tests.integration.test_observer_process import SERVER
from tests.support.policy import let_through
from tests.support.roles import client_for

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="a network namespace and ethtool -L need root")
COMM = "kb-nic-burn"
PORT = 5353
SECONDS = 2


def sh(*argv: str) -> None:
    subprocess.run(argv, check=True, capture_output=True)


@pytest.fixture(scope="module")
def server_host():
    """A netns `kbsrv…` whose veth end answers DNS (the burn server, 0.2 ms a query) at 10.251.X.2; the host's end,
    the observer's [nic] interface, has 2 RX/TX queues and runs with 1 (what the campaigns must put back)."""
    tag = secrets.token_hex(2)
    netns, here, there = f"kbsrv{tag}", f"kbnh{tag}", f"kbnn{tag}"
    octet = int(tag, 16) % 250 + 1
    sh("ip", "netns", "add", netns)
    try:
        sh("ip", "link", "add", here, "numtxqueues", "2", "numrxqueues", "2", "type", "veth", "peer", "name", there,
           "numtxqueues", "2", "numrxqueues", "2")
        sh("ip", "link", "set", there, "netns", netns)
        sh("ip", "addr", "add", f"10.251.{octet}.1/30", "dev", here)
        sh("ip", "link", "set", here, "up")
        sh("ip", "-n", netns, "addr", "add", f"10.251.{octet}.2/30", "dev", there)
        sh("ip", "-n", netns, "link", "set", there, "up")
        sh("ip", "-n", netns, "link", "set", "lo", "up")
        ethtool.set_channels(here, 1, 1)
        proc = subprocess.Popen(["ip", "netns", "exec", netns, sys.executable, str(SERVER), str(PORT), "0.2", f"10.251.{octet}.2", COMM],
                                stdout=subprocess.PIPE, text=True)
        assert proc.stdout.readline().strip() == "ready"
        try:
            yield {"interface": here, "address": f"10.251.{octet}.2"}
        finally:
            proc.kill()
            proc.wait()
    finally:
        subprocess.run(["ip", "link", "del", here], capture_output=True)
        subprocess.run(["ip", "netns", "del", netns], capture_output=True)


def channels(dev: str) -> int:
    return ethtool.channels(dev)["current"]["rx"]


@pytest.fixture(scope="module")
def admin(stack):
    with client_for(stack, "admin") as client:
        yield client


@pytest.fixture(scope="module")
def allowed(stack, server_host):
    """The server host's address let through the target policy for the module (put back after)."""
    with let_through(stack.api, server_host["address"]):
        yield server_host


def actions_file(folder: Path, interface: str) -> Path:
    """A root-owned actions file whose [nic] lets variants set `interface`'s channels within 1-2."""
    path = folder / "observer-actions.toml"
    path.write_text(f'[nic]\ninterface = "{interface}"\nchannels_min = 1\nchannels_max = 2\nsettle_s = 0.5\nprocess = "{COMM}"\n')
    os.chmod(folder, 0o755)
    os.chmod(path, 0o644)
    return path


class Observer:
    """An observer process of its own name and credential, started (again) with its actions file."""

    def __init__(self, stack, admin, folder: Path, interface: str) -> None:
        self.stack, self.name, self.path = stack, f"nic-{secrets.token_hex(3)}", actions_file(folder, interface)
        created = admin.post("/api/v1/agent-credentials", json={"agent": self.name, "role": "observe"})
        assert created.status_code == 201, created.text
        self.secret, self.proc, self.starts = created.json()["secret"], None, 0
        self.start()

    def log(self) -> str:
        return (self.stack.tmp / f"agent-{self.name}.log").read_text()

    def start(self) -> None:
        """Start it, and wait until this process (not a killed one's registration, still alive for a while) registered."""
        self.proc, self.starts = start_agent(self.stack, self.name, self.secret, None, "--observe", "--actions", str(self.path)), self.starts + 1
        until(lambda: self.log().count(f"agent {self.name} registered") == self.starts, 60,
              f"observer {self.name} registering ({self.starts} starts): {self.log()[-1500:]}")
        wait_agents(self.stack, {self.name})


@pytest.fixture(scope="module")
def observer(stack, admin, allowed, tmp_path_factory):
    found = Observer(stack, admin, tmp_path_factory.mktemp("etc"), allowed["interface"])
    try:
        yield found
    finally:
        stop(found.proc)


def plan(admin, address: str, observer: str, channels_set: list[int], seconds: float = SECONDS, found: bool = False) -> dict:
    target = admin.post("/api/v1/targets", json={"name": f"nic-{secrets.token_hex(3)}", "kind": "dns", "host": address,
                                                 "port": PORT, "process": COMM, "tags": ["test"]})
    assert target.status_code == 201, target.text
    return {"name": f"host channels {secrets.token_hex(3)}", "tool": "dnsperf", "target_id": target.json()["id"], "pause_s": 0,
            "params": {"names": ["www.example.lab"], "timeout_s": 2, "latency_capture": False},
            "monitors": [{"kind": "process", "observer": observer}],
            "variants": [{"label": "as found", "set": {}}] * found + [{"label": f"q{n}", "set": {"host.channels": n}} for n in channels_set],
            "phases": [{"kind": "scalability", "concurrency": [1], "unit_rate": 200, "duration_s": seconds}]}


def until(check, timeout_s: float, what: str) -> None:
    deadline = time.monotonic() + timeout_s
    while not check():
        assert time.monotonic() < deadline, f"{what} not within {timeout_s} s"
        time.sleep(0.1)


def test_each_variants_channels_read_back_in_its_facts_and_in_what_differs(admin, allowed, observer):
    dev = allowed["interface"]
    campaign_id = launch(admin, plan(admin, allowed["address"], observer.name, [1, 2], found=True))
    campaign = wait_status(admin, campaign_id, {"completed", "failed", "cancelled", "crashed"}, 120)
    assert campaign["status"] == "completed", campaign
    variants = campaign["environment"]["variants"]
    assert variants["as found"][f"server.nic.{dev}.channels.rx"] == "1" and "setting.host.channels" not in variants["as found"]
    for n in (1, 2):
        facts = variants[f"q{n}"]
        assert facts["setting.host.channels"] == str(n)
        assert facts[f"server.nic.{dev}.channels.rx"] == str(n) and facts[f"server.nic.{dev}.channels.rx_max"] == "2"
        assert facts[f"server.process.{COMM}.affinity"] not in ("", "not running")
    assert campaign["environment"]["restored"] == {"host.channels": 1}
    assert channels(dev) == 1  # as found
    compared = admin.get("/api/v1/compare", params=[("c", f"{campaign_id}@q1"), ("c", f"{campaign_id}@q2")])
    assert compared.status_code == 200, compared.text
    differs = {d["key"]: d["values"] for d in compared.json()["differences"]["environment"]}
    assert list(differs[f"server.nic.{dev}.channels.rx"].values()) == ["1", "2"]
    audited = [e["details"] for e in admin.get("/api/v1/audit", params={"kind": "observe_assignment", "limit": 100}).json()["items"]
               if e["details"].get("campaign_id") == campaign_id and e["details"].get("host_settings")]
    changed = [(d["name"], d["value"], d["read_back"]) for e in audited for d in e["host_settings"]]
    assert changed.count(("host.channels", 2, 2)) == 1 and changed.count(("host.channels", 1, 1)) == 2  # q1, then put back


def test_channels_put_back_after_a_cancel(admin, allowed, observer):
    dev = allowed["interface"]
    campaign_id = launch(admin, plan(admin, allowed["address"], observer.name, [2, 1], seconds=20))
    until(lambda: channels(dev) == 2, 30, "the observer setting 2 channels")
    assert admin.post(f"/api/v1/campaigns/{campaign_id}/cancel").status_code == 200
    wait_status(admin, campaign_id, {"cancelled"}, 60)
    assert channels(dev) == 1


def test_a_restarted_observer_puts_the_channels_back(admin, allowed, observer):
    dev = allowed["interface"]
    campaign_id = launch(admin, plan(admin, allowed["address"], observer.name, [2], seconds=20))
    until(lambda: admin.get(f"/api/v1/campaigns/{campaign_id}/points").json()[0]["status"] == "running", 30, "the point under 2 channels")
    assert channels(dev) == 2
    os.killpg(observer.proc.pid, 9)
    observer.proc.wait()
    assert channels(dev) == 2  # killed: nothing put it back yet
    observer.start()  # it puts back what the killed one changed before it registers
    assert channels(dev) == 1
    assert "put back a host setting a previous run left changed" in observer.log()
    campaign = wait_status(admin, campaign_id, {"completed", "failed", "cancelled", "crashed"}, 90)
    points = admin.get(f"/api/v1/campaigns/{campaign_id}/points").json()
    assert campaign["status"] == "completed", (campaign.get("error"), [(p["status"], p.get("error"), p.get("warnings")) for p in points])
    assert campaign["environment"]["restored"] == {"host.channels": "unchanged"}  # nothing left to put back at the end
    assert channels(dev) == 1


def test_a_count_the_file_does_not_allow_is_refused_on_the_variant(admin, allowed, observer):
    campaign_id = launch(admin, plan(admin, allowed["address"], observer.name, [3]))
    campaign = wait_status(admin, campaign_id, {"completed", "failed", "cancelled", "crashed"}, 60)
    said = campaign["environment"]["variants"]["q3"]["setting.error"]
    assert f"refused it: host.channels 3 is outside what this host allows on {allowed['interface']} (1-2)" in said
    assert channels(allowed["interface"]) == 1


def test_the_observers_own_link_is_refused(stack, admin, allowed, tmp_path_factory):
    own = Observer(stack, admin, tmp_path_factory.mktemp("etc-lo"), "lo")  # the API is on loopback here
    try:
        campaign_id = launch(admin, plan(admin, allowed["address"], own.name, [1]))
        campaign = wait_status(admin, campaign_id, {"completed", "failed", "cancelled", "crashed"}, 60)
        said = campaign["environment"]["variants"]["q1"]["setting.error"]
        assert "interface lo carries this observer's own link to Kneeboard" in said
    finally:
        stop(own.proc)


def test_an_observer_cannot_report_host_settings_its_assignment_did_not_ask_for(admin, allowed, observer):
    """The worker's side stands in (an acknowledged host assignment written as assign() writes it); the API refuses a
    report changing another setting, and a host report on an assignment that is not a host one."""
    from kneeboard.db import session_scope
    from kneeboard.models import import_all
    from kneeboard.observers.models import ObserveAssignment

    import_all()  # every table, for the assignment's foreign key
    campaign_id = launch(admin, plan(admin, allowed["address"], observer.name, [1]))
    wait_status(admin, campaign_id, {"completed", "failed", "cancelled", "crashed"}, 60)
    (point,) = admin.get(f"/api/v1/campaigns/{campaign_id}/points").json()
    ids = []
    with session_scope() as session:
        for settings in ({"host.channels": 1}, None):
            row = ObserveAssignment(observer=observer.name, campaign_id=campaign_id, point_id=point["id"], attempt=1, settings=settings,
                                    process=None if settings else COMM, start_at=time.time(), since=time.time(),
                                    until=time.time() + 5, status="acknowledged")
            session.add(row)
            session.flush()
            ids.append(row.id)
    headers = {"Authorization": f"Bearer {observer.secret}"}
    forged = {"host": {"applied": [{"name": "host.gro", "value": False, "read_back": False}], "facts": {}}}
    answer = admin.post(f"/api/v1/agent/observe/assignments/{ids[0]}/profile", json=forged, headers=headers)
    assert answer.status_code == 409 and "asked for no change of those host settings" in answer.text, answer.text
    answer = admin.post(f"/api/v1/agent/observe/assignments/{ids[1]}/profile", json={"host": {"facts": {}}}, headers=headers)
    assert answer.status_code == 409 and "gave no host settings" in answer.text, answer.text
