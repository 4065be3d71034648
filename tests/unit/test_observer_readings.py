"""The observer's own readings (observers/readings.py): parsers on /proc files captured from this machine, and seed 003's
server-side mpstat figures fed as a /proc/stat sequence, read by the evidence rules as the server host's CPUs."""

from __future__ import annotations

import pathlib

import pytest

from kneeboard.evidence import bottleneck
from kneeboard.evidence import readings as evidence_readings
from kneeboard.observers import readings

FIXTURES = pathlib.Path(__file__).parent.parent / "fixtures" / "proc"
CAPTURED = FIXTURES / "host-2cpu"  # /proc/{stat,softirqs,net/softnet_stat,net/dev} taken twice, 1 s apart, on a 2-CPU host
SEED = FIXTURES / "seed003"
STAT_ORDER = ("usr", "nice", "sys", "idle", "iowait", "irq", "soft", "steal")
TICKS_PER_S = 10_000  # per CPU: one tick is 0.01 %, mpstat's resolution, so the seed's figures come back exactly


def seed_rows(name: str) -> dict[str, dict[str, float]]:
    """Seed 003's mpstat -P ALL rows (CPU %usr %nice %sys %iowait %irq %soft %steal %guest %gnice %idle)."""
    rows = {}
    for line in (SEED / f"{name}.mpstat").read_text().splitlines():
        cpu, usr, nice, sys_, iowait, irq, soft, steal, _guest, _gnice, idle = line.split()
        rows[cpu] = {"usr": float(usr), "nice": float(nice), "sys": float(sys_), "iowait": float(iowait),
                     "irq": float(irq), "soft": float(soft), "steal": float(steal), "idle": float(idle)}
    return rows


def write_stat_sequence(root: pathlib.Path, rows: dict[str, dict[str, float]], seconds: int) -> list[pathlib.Path]:
    """A /proc root per second whose stat deltas give the rows' utilisation (idle takes the rounding remainder)."""
    roots = []
    for second in range(seconds + 1):
        lines, total = [], [0] * len(STAT_ORDER)
        for cpu, modes in rows.items():
            step = {m: round(modes[m] * TICKS_PER_S / 100) for m in STAT_ORDER if m != "idle"}
            step["idle"] = TICKS_PER_S - sum(step.values())
            ticks = [1_000_000 + second * step[m] for m in STAT_ORDER]
            total = [a + b for a, b in zip(total, ticks)]
            lines.append(f"cpu{cpu} " + " ".join(map(str, ticks)) + " 0 0")
        folder = root / str(second)
        folder.mkdir(parents=True)
        (folder / "stat").write_text("cpu  " + " ".join(map(str, total)) + " 0 0\n" + "\n".join(lines) + "\nintr 0\n")
        roots.append(folder)
    return roots


def test_cpu_ticks_add_up_to_the_aggregate_line():
    """Each mode's per-CPU ticks sum to /proc/stat's own `cpu` line (the kernel's independent total). The kernel
    converts each CPU's time to ticks on its own, rounding down: the captures differ by 0 or 1 tick a mode (measured on
    both files), so the tolerance is one tick per CPU."""
    text = (CAPTURED / "0" / "stat").read_text()
    per_cpu = readings.cpu_ticks(text)
    aggregate = [int(v) for v in text.splitlines()[0].split()[1:9]]
    assert len(per_cpu) == 2
    for i, mode in enumerate(STAT_ORDER):
        assert abs(sum(c[mode] for c in per_cpu.values()) - aggregate[i]) <= len(per_cpu)


def test_captured_counters_parse_per_cpu_and_per_interface():
    """softirqs, softnet_stat and net/dev as this machine wrote them: one entry per CPU, lo among the interfaces."""
    snap = readings.snapshot(str(CAPTURED / "0"), t=0.0)
    assert set(snap.net_rx) == set(snap.ticks) == set(snap.softnet) == {"0", "1"}
    line = next(l for l in (CAPTURED / "0" / "softirqs").read_text().splitlines() if "NET_RX" in l)
    assert [snap.net_rx["0"], snap.net_rx["1"]] == [int(v) for v in line.split()[1:3]]
    assert snap.softnet["0"][0] == int((CAPTURED / "0" / "net" / "softnet_stat").read_text().split()[0], 16)
    assert "lo" in snap.dev and all(v >= 0 for v in snap.dev["lo"])


def test_captured_second_gives_utilisation_that_sums_to_a_whole_cpu():
    """Two captured readings 1 s apart: every CPU's modes sum to 100 % (8 modes rounded to 0.01: within 0.04)."""
    before = readings.snapshot(str(CAPTURED / "0"), t=0.0)
    after = readings.snapshot(str(CAPTURED / "1"), t=1.0)
    second = readings.between(before, after, interface="lo")
    assert set(second["cpus"]) == {"0", "1"}
    for modes in second["cpus"].values():
        assert sum(modes.values()) == pytest.approx(100.0, abs=0.04)
    assert all(v >= 0 for v in second["net_rx_s"].values())
    assert second["interface"] is not None and second["interface"]["rx_drop_s"] >= 0
    with pytest.raises(ValueError):
        readings.between(after, before)


def _observed(tmp_path: pathlib.Path, name: str) -> dict:
    rows = seed_rows(name)
    roots = write_stat_sequence(tmp_path / name, rows, seconds=3)
    snaps = [readings.snapshot(str(root), t=float(i)) for i, root in enumerate(roots)]
    seconds = [readings.between(a, b) for a, b in zip(snaps, snaps[1:])]
    for second in seconds:  # the seed's figures come back (idle: the row's rounding remainder, ≤ 0.02 in the seed)
        for cpu, modes in rows.items():
            for mode, pct in modes.items():
                assert second["cpus"][cpu][mode] == pytest.approx(pct, abs=0.021)
    return readings.summary(seconds, observer="obs-server-1")


@pytest.mark.parametrize("name, fires", [("single-queue", True), ("multi-queue", False)])
def test_seed_003_one_receive_queue_on_the_server_by_the_observer(tmp_path, name, fires):
    """Seed 003 on the server: single queue (CPU11 99 % softirq) → "one receive queue", said as read by the observer;
    multi-queue (softirq ≤ 84 % on any CPU) → it does not fire."""
    r = evidence_readings.read({"observer": _observed(tmp_path, name)})
    assert r.cpus_source == f"{evidence_readings.OBSERVER_SOURCE} obs-server-1"
    found = [c for c in bottleneck.candidates(r, None) if c.resource.endswith("softirq") and c.fired]
    if fires:
        assert [c.resource for c in found] == ["CPU11 softirq"]
        assert "read on the server by observer obs-server-1" in found[0].figure
        assert "load generator" not in found[0].figure
    else:
        assert found == []


def test_the_observer_reports_its_host_seconds_in_a_body_the_api_takes(tmp_path):
    """The agent's HostReader over seed 003's single-queue files gives per-second figures that the observer's report
    schema takes as they are, and that come back to the evidence as the seed's CPU11 softirq; a stray field is refused."""
    from pydantic import ValidationError

    from kneeboard.observers.agent import HostReader
    from kneeboard.observers.schemas import ObservedProfile

    roots = write_stat_sequence(tmp_path, seed_rows("single-queue"), seconds=2)
    reader = HostReader(str(roots[0]))
    for root in roots:
        reader.root = str(root)
        reader.read()
    assert len(reader.seconds) == 2
    body = ObservedProfile.model_validate({"host_seconds": reader.seconds})
    summary = readings.summary([s.model_dump() for s in body.host_seconds], "obs-a")
    assert summary["mean_pct_by_cpu"]["11"]["soft"] == pytest.approx(98.99, abs=0.021)
    with pytest.raises(ValidationError):
        ObservedProfile.model_validate({"host_seconds": [reader.seconds[0] | {"shell": "rm -rf /"}]})


def test_the_observer_reads_nothing_where_proc_has_no_stat(tmp_path):
    """A root without stat (a kernel or mount without it) gives no seconds rather than zeros."""
    from kneeboard.observers.agent import HostReader

    reader = HostReader(str(tmp_path))
    reader.read()
    reader.read()
    assert reader.seconds == []
