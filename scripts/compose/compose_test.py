"""`make compose-test` (root): the team install of docs/running.md, built and run for real.

Starts a Docker engine if none runs (and stops only the one it started), builds stand-ins for the official base
images offline (Debian from mmdebstrap, Go and Node.js from the host's toolchains, Postgres and Redis from Debian's
packages), then in a copy of the repository follows the documented first-run steps as written, checks the admin
login, the registered agent and that the API answers on 127.0.0.1 only, runs a campaign whose points run on the
agent container against a target in the compose network, kills the worker during a 30 s point (crashed within
30 s, the agent's load gone within 5 s, Resume completes), tears everything down and prints each stage's time. KB_COMPOSE_KEEP=1 leaves the stack, its images and the engine
running, to look into a failure.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
STANDINS = Path(__file__).resolve().parent / "standins"
PROJECT = "kbcomposetest"
AGENT = "load-1"
SUBNET = "172.30.77.0/24"  # docker-compose.yml's fixed network (the documented first run allows it)
FIRST_RUN_MARK = "<!-- first-run:"  # docs/running.md: the fenced block after this comment is the first run
IMAGES = {"DEBIAN_IMAGE": "kb-standin/debian:bookworm", "GO_IMAGE": "kb-standin/golang:host",
          "NODE_IMAGE": "kb-standin/node:host", "POSTGRES_IMAGE": "kb-standin/postgres:15", "REDIS_IMAGE": "kb-standin/redis:7"}  # fmt: skip
KILL_POINT_S = 30
LABEL = "org.kneeboard.compose-test=stand-in"  # on the Debian stand-in, so on every image built from it: pruned at the end
times: list[tuple[str, float]] = []


class Failed(Exception):
    """A check of the install failed: the message says which and what was seen."""


@contextlib.contextmanager
def stage(name: str) -> Iterator[None]:
    """Time a stage and print its duration (also when it fails)."""
    print(f"== {name}", flush=True)
    started = time.monotonic()
    try:
        yield
    finally:
        times.append((name, time.monotonic() - started))
        print(f"   {name}: {times[-1][1]:.1f} s", flush=True)


def sh(*argv: str, env: dict | None = None, cwd: Path | None = None, check: bool = True, quiet: bool = False) -> str:
    """Run a command (an argv, never a shell line); its stdout, or Failed with its output's tail."""
    done = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True)
    if check and done.returncode != 0:
        raise Failed(f"{' '.join(argv[:6])} exited {done.returncode}:\n{(done.stdout + done.stderr)[-3000:]}")
    if not quiet and done.stderr.strip() and done.returncode != 0:
        print(done.stderr[-2000:], file=sys.stderr)
    return done.stdout


def engine_runs() -> bool:
    """Whether a Docker engine answers."""
    return subprocess.run(["docker", "info"], capture_output=True).returncode == 0


def start_engine(workdir: Path) -> subprocess.Popen:
    """dockerd without iptables rules or IP forwarding: the stack's containers talk over their bridge and to the host
    through published ports, builds use the host's network, and the host's FORWARD policy (the lab's) is left alone."""
    log = open(workdir / "dockerd.log", "w")  # noqa: SIM115 - open while the engine runs
    engine = subprocess.Popen(["dockerd", "--iptables=false", "--ip-forward=false", "--pidfile", str(workdir / "dockerd.pid")],
                              stdout=log, stderr=subprocess.STDOUT)  # fmt: skip
    deadline = time.monotonic() + 60
    while not engine_runs():
        if engine.poll() is not None or time.monotonic() > deadline:
            raise Failed(f"dockerd did not start:\n{(workdir / 'dockerd.log').read_text()[-2000:]}")
        time.sleep(0.5)
    return engine


def stop_engine(engine: subprocess.Popen, bridge_was_there: bool) -> None:
    """SIGTERM the engine this run started (its containerd goes with it), wait for it, and remove the docker0 bridge
    it left behind unless that was there before."""
    engine.send_signal(signal.SIGTERM)
    try:
        engine.wait(timeout=60)
    except subprocess.TimeoutExpired:
        engine.kill()
        engine.wait()
    if not bridge_was_there:
        sh("ip", "link", "delete", "docker0", check=False)


def build(tag: list[str], dockerfile: Path, context: Path, base: str | None = None) -> None:
    """A stand-in image with the legacy builder on the host's network."""
    tags = [arg for t in tag for arg in ("-t", t)]
    sh("docker", "build", "-q", "--network", "host", *tags, *(["--build-arg", f"BASE={base}"] if base else []),
       "-f", str(dockerfile), str(context), env={**os.environ, "DOCKER_BUILDKIT": "0"})  # fmt: skip


def build_standins(workdir: Path) -> None:
    """The base images no registry can give here: Debian (mmdebstrap, imported), Go and Node.js (the host's, as the
    install step set them up), Postgres 15 and Redis 7 (Debian's packages, the official images' variables)."""
    tarball = workdir / "debian.tar"
    sh("mmdebstrap", "--variant=minbase", "--mode=root", "--quiet", "bookworm", str(tarball))
    sh("docker", "import", "--change", f"LABEL {LABEL}", str(tarball), IMAGES["DEBIAN_IMAGE"])
    tarball.unlink()
    go = shutil.which("go") or "/usr/local/go/bin/go"
    goroot = sh(go, "env", "GOROOT").strip()
    build([IMAGES["GO_IMAGE"]], STANDINS / "golang.Dockerfile", Path(goroot), IMAGES["DEBIAN_IMAGE"])
    node_dir = workdir / "node"
    node_dir.mkdir()
    shutil.copy2(shutil.which("node") or "/usr/bin/node", node_dir / "node")
    npm = Path(os.path.realpath(shutil.which("npm") or "/usr/bin/npm")).parents[1]  # …/node_modules/npm/bin/npm-cli.js
    shutil.copytree(npm, node_dir / "npm", symlinks=True)
    build([IMAGES["NODE_IMAGE"]], STANDINS / "node.Dockerfile", node_dir, IMAGES["DEBIAN_IMAGE"])
    shutil.rmtree(node_dir)
    build([IMAGES["POSTGRES_IMAGE"], IMAGES["REDIS_IMAGE"]], STANDINS / "services.Dockerfile", STANDINS, IMAGES["DEBIAN_IMAGE"])


def copy_repository(workdir: Path) -> Path:
    """The repository's files (tracked and new, not ignored) in a folder of their own: the first run writes .env."""
    tree = workdir / "kneeboard"
    tree.mkdir()
    files = sh("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", cwd=ROOT).split("\0")
    for name in filter(None, files):
        source = ROOT / name
        if source.is_file():
            (tree / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, tree / name)
    bundle = Path(os.environ.get("SSL_CERT_FILE") or "/etc/ssl/certs/ca-certificates.crt")
    if bundle.is_file():  # the CAs this network reaches the registries through, given to the build (docs/running.md)
        shutil.copy(bundle, tree / "docker" / "ca" / "host-ca.pem")
    return tree


def host_mirrors() -> dict[str, str]:
    """The package mirrors this host is set up with, as the Dockerfile's build arguments (unset: the tools' defaults)."""
    found = {}
    sources = Path("/etc/apt/sources.list.d/debian.sources")
    if sources.exists() and (uri := re.search(r"^URIs:\s*(\S+/debian)\s*$", sources.read_text(), re.M)):
        found["APT_MIRROR"] = uri.group(1)
    for name, argv in {"PIP_INDEX_URL": [sys.executable, "-m", "pip", "config", "get", "global.index-url"],
                       "NPM_REGISTRY": ["npm", "config", "get", "registry"],
                       "GOPROXY": [shutil.which("go") or "/usr/local/go/bin/go", "env", "GOPROXY"]}.items():  # fmt: skip
        with contextlib.suppress(OSError):
            value = subprocess.run(argv, capture_output=True, text=True).stdout.strip()
            if value and value not in {"undefined", "null"}:
                found[name] = value
    return found


def free_port() -> int:
    """A free TCP port on 127.0.0.1 for the API (8000 may be a developer's `make up`)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def compose_env(tree: Path, workdir: Path, port: int) -> dict[str, str]:
    """The environment the documented commands run in: the stand-ins, this test's additions to the compose file, a
    project name of its own, and `docker compose` mapped to docker-compose 1.29 where Compose v2 is missing."""
    env = {**os.environ, **IMAGES, **host_mirrors(), "COMPOSE_PROJECT_NAME": PROJECT, "KB_PORT": str(port),
           "COMPOSE_FILE": os.pathsep.join(["docker-compose.yml", "scripts/compose/test.yml"]), "DOCKER_BUILDKIT": "0"}  # fmt: skip
    if subprocess.run(["docker", "compose", "version"], capture_output=True).returncode != 0:
        shim = workdir / "bin"
        shim.mkdir()
        real = shutil.which("docker")
        (shim / "docker").write_text(f'#!/bin/sh\nif [ "$1" = compose ]; then shift; exec docker-compose "$@"; fi\nexec {real} "$@"\n')
        (shim / "docker").chmod(0o755)
        env["PATH"] = f"{shim}{os.pathsep}{env['PATH']}"
    return env


def first_run_block(tree: Path) -> str:
    """The shell block of docs/running.md marked as the first run."""
    text = (tree / "docs" / "running.md").read_text()
    found = re.search(re.escape(FIRST_RUN_MARK) + r".*?-->\s*```sh\n(.*?)```", text, re.S)
    if not found:
        raise Failed("docs/running.md has no first-run block")
    return found.group(1)


def follow_first_run(tree: Path, env: dict[str, str], workdir: Path) -> str:
    """Run the documented first run as written (bash -e); the admin password it printed."""
    block = first_run_block(tree)
    print("   " + block.strip().replace("\n", "\n   "))
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", block], cwd=tree, env=env, capture_output=True, text=True)
    (workdir / "first-run.log").write_text(done.stdout + done.stderr)
    if done.returncode != 0:
        raise Failed(f"the first-run steps exited {done.returncode}:\n{(done.stdout + done.stderr)[-4000:]}")
    password = re.search(r"^admin password: (\S+)", done.stdout + done.stderr, re.M)
    if not password:
        raise Failed(f"the bootstrap printed no admin password:\n{done.stderr[-2000:]}")
    if "KB_AGENT_TOKEN=" not in (tree / ".env").read_text():
        raise Failed(".env has no KB_AGENT_TOKEN after the first run")
    return password.group(1)


def compose(env: dict[str, str], tree: Path, *args: str, check: bool = True) -> str:
    """`docker compose …` (or docker-compose 1.29 through the shim) in the copy."""
    return sh("docker", "compose", *args, env=env, cwd=tree, check=check)


def container(env: dict[str, str], tree: Path, service: str) -> str:
    """The container id of a service."""
    found = compose(env, tree, "ps", "-q", service).split()
    if not found:
        raise Failed(f"no container for {service}")
    return found[0]


def wait_healthy(env: dict[str, str], tree: Path, services: list[str], timeout_s: float = 180) -> None:
    """Every service's container healthy (running, for one without a health check)."""
    deadline, states = time.monotonic() + timeout_s, {}
    while time.monotonic() < deadline:
        for service in services:
            states[service] = sh("docker", "inspect", "-f", "{{if .State.Health}}{{.State.Health.Status}}{{else}}{{.State.Status}}{{end}}",
                                 container(env, tree, service)).strip()  # fmt: skip
        if all(state in {"healthy", "running"} and (state == "healthy" or service == "target") for service, state in states.items()):
            return
        time.sleep(2)
    raise Failed(f"not healthy after {timeout_s:.0f} s: {states}")


def sign_in(url: str, password: str) -> httpx.Client:
    """The documented admin login, then an API token for the rest of the test."""
    with httpx.Client(base_url=url, timeout=30, headers={"Origin": url}) as browser:
        answer = browser.post("/api/v1/auth/login", json={"username": "admin", "password": password})
        if answer.status_code != 200:
            raise Failed(f"the admin login with the printed password answered {answer.status_code}: {answer.text}")
        token = browser.post("/api/v1/tokens", json={"name": "compose-test"})
        if token.status_code != 201:
            raise Failed(f"creating a token answered {token.status_code}: {token.text}")
    return httpx.Client(base_url=url, timeout=30, headers={"Authorization": f"Bearer {token.json()['token']}"})


def check_only_loopback(env: dict[str, str], tree: Path, port: int) -> None:
    """The API is published on 127.0.0.1 only: docker says so, and no other address of this host answers."""
    published = sh("docker", "port", container(env, tree, "api"), "8000/tcp").split()
    if published != [f"127.0.0.1:{port}"]:
        raise Failed(f"the API is published on {published}, not 127.0.0.1:{port} only")
    for address in sh("hostname", "-I").split():
        if ":" in address:
            continue
        with socket.socket() as probe:
            probe.settimeout(2)
            if probe.connect_ex((address, port)) == 0:
                raise Failed(f"the API answers on {address}:{port}")


def wait_agent(api: httpx.Client, name: str, timeout_s: float = 90) -> dict:
    """The agent registered and alive."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        found = {a["name"]: a for a in api.get("/api/v1/agents").json()}
        if found.get(name, {}).get("alive"):
            return found[name]
        time.sleep(1)
    raise Failed(f"agent {name} is not alive after {timeout_s:.0f} s: {found}")


def wait_status(api: httpx.Client, campaign_id: int, wanted: set[str], timeout_s: float) -> dict:
    """The campaign once its status is one of `wanted`."""
    deadline, campaign = time.monotonic() + timeout_s, {}
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            campaign = api.get(f"/api/v1/campaigns/{campaign_id}").json()
            if campaign.get("status") in wanted:
                return campaign
        time.sleep(0.25)
    raise Failed(f"campaign {campaign_id} is {campaign.get('status')} after {timeout_s:.0f} s, not {wanted}: {campaign.get('error')}")


def launch(api: httpx.Client, target_id: int, name: str, phases: list[dict]) -> int:
    """A kbhttp campaign whose points run on the agent container."""
    plan = {"name": name, "tool": "kbhttp", "target_id": target_id, "agents": [AGENT], "pause_s": 0,
            "params": {"path": "/", "timeout_s": 2}, "phases": phases}  # fmt: skip
    created = api.post("/api/v1/plans", json=plan)
    if created.status_code != 201:
        raise Failed(f"the plan was refused ({created.status_code}): {created.text}")
    launched = api.post("/api/v1/campaigns", json={"plan_id": created.json()["id"]})
    if launched.status_code != 202:
        raise Failed(f"the launch was refused ({launched.status_code}): {launched.text}")
    return launched.json()["id"]


def check_points(api: httpx.Client, campaign_id: int) -> list[dict]:
    """Every point completed on the agent, with samples; the points."""
    points = api.get(f"/api/v1/campaigns/{campaign_id}/points").json()
    for point in points:
        detail = api.get(f"/api/v1/points/{point['id']}").json()
        shares = (detail.get("extra") or {}).get("shares") or []
        samples = api.get(f"/api/v1/points/{point['id']}/samples").json()["samples"]
        if point["status"] != "completed" or not samples or [s.get("agent") for s in shares] != [AGENT]:
            raise Failed(f"point {point['index']}: {point['status']}, {len(samples)} samples, shares {[s.get('agent') for s in shares]}")
        if not point["metrics"].get("completed"):
            raise Failed(f"point {point['index']} has no completed requests: {point['metrics']}")
    return points


def agent_load(env: dict[str, str], tree: Path) -> bool:
    """Whether kbhttp runs in the agent container."""
    return subprocess.run(["docker", "exec", container(env, tree, "agent"), "pgrep", "-x", "kbhttp"], capture_output=True).returncode == 0


def kill_worker_mid_point(api: httpx.Client, env: dict[str, str], tree: Path, target_id: int) -> tuple[float, float]:
    """`docker kill` the worker during a 30 s point on the agent; (seconds until the agent's load is gone, seconds
    until the campaign is crashed). Then Resume completes on the restarted worker."""
    campaign_id = launch(api, target_id, "worker killed", [{"kind": "baseline", "concurrency": 2, "rate": 50, "duration_s": KILL_POINT_S}])
    deadline = time.monotonic() + 60
    while not agent_load(env, tree):
        if time.monotonic() > deadline:
            raise Failed("the agent's kbhttp never started")
        time.sleep(0.2)
    time.sleep(3)
    worker = container(env, tree, "worker")
    sh("docker", "kill", worker)
    killed, gone_s, crashed_s = time.monotonic(), None, None
    while (gone_s is None or crashed_s is None) and time.monotonic() - killed < 40:
        if gone_s is None and not agent_load(env, tree):
            gone_s = time.monotonic() - killed
        if crashed_s is None and api.get(f"/api/v1/campaigns/{campaign_id}").json()["status"] == "crashed":
            crashed_s = time.monotonic() - killed
        time.sleep(0.2)
    print(f"   worker killed: the agent's load gone after {gone_s and round(gone_s, 1)} s, campaign crashed after {crashed_s and round(crashed_s, 1)} s")
    if gone_s is None or gone_s > 5:
        raise Failed(f"the agent's load ran on {gone_s} s after its conductor was killed (bound: 5 s)")
    if crashed_s is None or crashed_s > 30:
        raise Failed(f"the campaign was not crashed within 30 s of the kill ({crashed_s})")
    if sh("docker", "inspect", "-f", "{{.State.Running}}", worker).strip() != "true":
        sh("docker", "start", worker)  # `docker kill` counts as a manual stop: the restart policy leaves it down
    wait_healthy(env, tree, ["worker"], timeout_s=120)
    resumed = api.post(f"/api/v1/campaigns/{campaign_id}/resume")
    if resumed.status_code != 202:
        raise Failed(f"resume answered {resumed.status_code}: {resumed.text}")
    done = wait_status(api, campaign_id, {"completed", "failed", "crashed", "cancelled"}, timeout_s=KILL_POINT_S + 90)
    if done["status"] != "completed":
        raise Failed(f"the resumed campaign is {done['status']}: {done.get('error')}")
    check_points(api, campaign_id)
    return gone_s, crashed_s


def run(workdir: Path, stack: dict) -> None:
    """The stages after the engine runs, filling `stack` (tree, env) for the teardown; raises Failed at the first
    check that does not hold."""
    with stage("stand-in base images"):
        build_standins(workdir)
    tree, port = copy_repository(workdir), free_port()
    env = compose_env(tree, workdir, port)
    stack.update(tree=tree, env=env)
    with stage("first run as documented (build, bootstrap, up)"):
        password = follow_first_run(tree, env, workdir)
    with stage("stack healthy"):
        wait_healthy(env, tree, ["postgres", "redis", "api", "worker", "beat", "agent", "target"])
    url = f"http://127.0.0.1:{port}"
    with stage("admin login, agent registered, API on 127.0.0.1 only"):
        api = sign_in(url, password)
        wait_agent(api, AGENT)
        check_only_loopback(env, tree, port)
    with stage("campaign on the agent container"):
        target = api.post("/api/v1/targets", json={"name": "compose-target", "kind": "http", "host": "target", "port": 8080})
        if target.status_code != 201:
            raise Failed(f"the target in the compose network was refused ({target.status_code}): {target.text}")
        target_id = target.json()["id"]
        campaign_id = launch(api, target_id, "on the agent", [{"kind": "saturation", "concurrency": 2, "rate": [50, 100], "duration_s": 3}])
        campaign = wait_status(api, campaign_id, {"completed", "failed", "crashed", "cancelled"}, timeout_s=120)
        if campaign["status"] != "completed":
            raise Failed(f"the campaign is {campaign['status']}: {campaign.get('error')}")
        points = check_points(api, campaign_id)
        print(f"   points: {[(p['offered_rate'], p['metrics'].get('achieved_rate')) for p in points]}")
    with stage("worker killed mid-point, then resume"):
        kill_worker_mid_point(api, env, tree, target_id)


def tear_down(stack: dict, failed: bool) -> None:
    """The stack, its volumes and every image this run built (the logs first, after a failure)."""
    tree, env = stack.get("tree"), stack.get("env")
    if tree is not None:
        for service in ("api", "worker", "agent") if failed else ():
            print(f"--- {service} (last lines)\n" + sh("docker", "compose", "logs", "--no-color", "--tail", "40", service, env=env, cwd=tree, check=False))
        sh("docker", "compose", "down", "--volumes", "--remove-orphans", "--rmi", "local", env=env, cwd=tree, check=False)
    sh("docker", "image", "rm", "-f", os.environ.get("KB_IMAGE", "kneeboard:latest"), *IMAGES.values(), check=False)
    for kind in ("container", "image"):  # a failed build leaves its step's container, which holds its image
        sh("docker", kind, "prune", *(["--all"] if kind == "image" else []), "--force", "--filter", f"label={LABEL}", check=False)


def main() -> int:
    """Everything, torn down whatever happens; exit 1 on a failed check."""
    if os.geteuid() != 0:
        print("make compose-test needs root (a Docker engine, mmdebstrap)", file=sys.stderr)
        return 2
    workdir = Path(tempfile.mkdtemp(prefix="kb-compose-test-"))
    engine, failure, started, stack = None, None, time.monotonic(), {}
    bridge_was_there = Path("/sys/class/net/docker0").exists()
    try:
        with stage("engine"):
            engine = None if engine_runs() else start_engine(workdir)
        run(workdir, stack)
    except Failed as exc:
        failure = str(exc)
    finally:
        if os.environ.get("KB_COMPOSE_KEEP"):  # to look into a failure: the stack, its images and the engine stay
            print(f"KB_COMPOSE_KEEP: left running in {workdir} (engine pid {engine and engine.pid})")
        else:
            with stage("teardown"):
                tear_down(stack, failure is not None)
            if engine is not None:
                with stage("engine stopped"):
                    stop_engine(engine, bridge_was_there)
            shutil.rmtree(workdir, ignore_errors=True)
    print("\ncompose-test stages:")
    for name, seconds in times:
        print(f"  {seconds:7.1f} s  {name}")
    print(f"  {time.monotonic() - started:7.1f} s  in all")
    if failure:
        print(f"\ncompose-test FAILED: {failure}", file=sys.stderr)
        return 1
    print("compose-test passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
