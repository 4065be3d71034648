"""Every external command the code and the tests start comes from scripts/install-deps.sh (issue 48), in seconds.

The commands: the static ones (argv literals in backend/ and tests/: the first argument of a subprocess or runner call,
a list returned by a function whose name ends in `argv`, a name given to shutil.which; in `which(a) or which(b)` b is a
fallback, listed and not required), and, with --recorded FILE, those
the suite's own runs recorded (tools/runner.py appends argv[0] of every process it starts to $KB_RECORD_COMMANDS,
which scripts/test-python.sh sets). Each must be built here (the venv, .cache/, simulator/bin: install-deps.sh's own
builds), be a command of the machine's toolchains (PREREQUISITES), or resolve to a Debian package that install-deps.sh
names for its mode, that one of those depends on, or that every Debian 12 has (Essential, or priority required). The
mode is `test` (what `make test` installs), `bench` for tests/bench, or the one a file names ("install-deps.sh review"); a
command of another mode than test that is not installed here passes when that mode names a package of its name.

Usage: check-commands.py [--recorded FILE] [--install-deps PATH] [--list]; exit 1 naming each command that fails.
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "backend"))
from kneeboard.tools.runner import commands  # noqa: E402 - the one reading of wrappers, shared with the recording

SCANNED = ("backend/kneeboard", "tests")
# The machine's own toolchains (README: a Debian 12 machine with Go and Node.js), used to build and to test the frontend.
PREREQUISITES = {"go", "gofmt", "node", "npm", "npx", "git", "make"}
BUILT_HERE = (".venv", ".cache", "simulator/bin", "frontend/node_modules")  # install-deps.sh's builds, inside the repo
STARTERS = {"run", "Popen", "check_output", "check_call", "call", "start", "execvp", "execv", "create_subprocess_exec"}
COMMAND = re.compile(r"^(/[\w./+-]+|[A-Za-z0-9_][\w.+-]*)$")
ASKS = re.compile(r"install-deps\.sh (\w+)")  # a file that names a mode ("… (scripts/install-deps.sh review)") runs in it
ABSENT = re.compile(r"no-?such|not-installed")  # the name a test gives a command that must not exist (the runner's missing-tool error)


@dataclass
class Found:
    """A command, where it was seen (file:line, or the recording), whether it is required (not only a fallback) and in
    which install-deps.sh modes."""

    name: str
    where: list[str] = field(default_factory=list)
    started: bool = False
    modes: set[str] = field(default_factory=set)

    def see(self, where: str, started: bool, mode: str) -> None:
        """One more place it was seen."""
        self.where.append(where)
        self.started |= started
        self.modes.add(mode)

    @property
    def mode(self) -> str:
        """The install-deps.sh mode it must come from: `test` unless only bench code starts it."""
        return next(iter(self.modes)) if len(self.modes) == 1 else "test"


def _constant(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _argv(node: ast.expr | None) -> list[str | None] | None:
    """A list or tuple literal's elements (None for one not a string constant), or None for anything else."""
    if not isinstance(node, ast.List | ast.Tuple) or not node.elts:
        return None
    return [_constant(e) for e in node.elts]


def _called(node: ast.Call) -> str:
    return node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id if isinstance(node.func, ast.Name) else ""


def static_commands(source: str) -> Iterator[tuple[str, int, bool]]:
    """(command, line, required) for each external command a Python source names as an argv literal or to shutil.which
    (a fallback, the later operand of an `or`, is not required)."""
    tree = ast.parse(source)
    fallbacks = {id(value) for node in ast.walk(tree) if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or)
                 for value in node.values[1:]}  # fmt: skip
    argvs: list[tuple[list[str | None], int, bool]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args:
            name = _called(node)
            if name == "which" and _constant(node.args[0]):
                argvs.append(([_constant(node.args[0])], node.lineno, id(node) not in fallbacks))
            elif name in STARTERS and (argv := _argv(node.args[0])):
                argvs.append((argv, node.lineno, True))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.lower().endswith("argv"):
            argvs += [(argv, r.lineno, True) for r in ast.walk(node) if isinstance(r, ast.Return) and (argv := _argv(r.value))]
    for argv, line, started in argvs:
        for name in commands(argv):
            if COMMAND.match(name) and not ABSENT.search(name):
                yield name, line, started


def scan(root: Path = ROOT, install_deps: str | None = None) -> dict[str, Found]:
    """The static commands of backend/ and tests/ by name, each file's in the install-deps.sh mode it runs in."""
    install_deps = (root / "scripts/install-deps.sh").read_text() if install_deps is None else install_deps
    modes = set(re.findall(r'"\$mode" = (\w+)', install_deps)) - {"test", "run"}
    found: dict[str, Found] = {}
    for top in SCANNED:
        for path in sorted((root / top).rglob("*.py")):
            where = path.relative_to(root)
            source = path.read_text()
            mode = "bench" if where.is_relative_to("tests/bench") else next(iter(set(ASKS.findall(source)) & modes), "test")
            for name, line, started in static_commands(source):
                found.setdefault(name, Found(name)).see(f"{where}:{line}", started, mode)
    return found


def recorded(path: Path) -> dict[str, Found]:
    """The commands a test run recorded (one a line)."""
    names = {line.strip() for line in path.read_text().splitlines() if line.strip()} if path.is_file() else set()
    names = {name for name in names if not ABSENT.search(name)}
    return {name: Found(name, [f"recorded in {path}"], True, {"test"}) for name in names}


def listed_packages(install_deps: str, mode: str = "test") -> set[str]:
    """The Debian packages install-deps.sh installs in `mode`: run_pkgs (test_pkgs too in test), and what
    `[ "$mode" = X ] && want+=(…)` adds for X."""
    arrays = {m.group(1): m.group(2).split() for m in re.finditer(r"^(\w+_pkgs)=\(([^)]*)\)", install_deps, re.M)}
    packages = set(arrays.get("run_pkgs", [])) | (set(arrays.get("test_pkgs", [])) if mode == "test" else set())
    for m in re.finditer(r'\[ "\$mode" = (\w+) \] && want\+=\(([^)]*)\)', install_deps):
        packages |= set(m.group(2).split()) if m.group(1) == mode else set()
    return packages


@dataclass
class Debian:
    """What dpkg knows of the installed packages: depends, provides, and the base every Debian 12 has."""

    depends: dict[str, set[str]]
    provided_by: dict[str, set[str]]
    base: set[str]

    @classmethod
    def read(cls) -> Debian:
        """One dpkg-query over every installed package."""
        out = subprocess.run(["dpkg-query", "-W", "-f", r"${Package}\t${Status}\t${Depends}, ${Pre-Depends}\t${Provides}\t${Essential}\t${Priority}\n"],
                             capture_output=True, text=True, check=True).stdout  # fmt: skip
        depends, provided_by, base = {}, {}, set()
        for line in out.splitlines():
            package, status, deps, provides, essential, priority = line.split("\t")
            if not status.endswith(" installed"):
                continue
            depends[package] = {_name(alt) for dep in deps.split(",") for alt in dep.split("|") if _name(alt)}
            for virtual in filter(None, map(_name, provides.split(","))):
                provided_by.setdefault(virtual, set()).add(package)
            if essential == "yes" or priority == "required":
                base.add(package)
        return cls(depends, provided_by, base)

    def closure(self, packages: Iterable[str]) -> set[str]:
        """The packages and every installed package they depend on, transitively (virtual ones through Provides)."""
        seen, todo = set(), list(packages)
        while todo:
            package = todo.pop()
            for real in {package} | self.provided_by.get(package, set()):
                if real not in seen:
                    seen.add(real)
                    todo += self.depends.get(real, ())
        return seen


def _name(spec: str) -> str:
    return spec.strip().split(" ")[0].split(":")[0]


def owners(paths: Iterable[Path]) -> dict[Path, str]:
    """The package dpkg says owns each path (tried as given, resolved, and with or without /usr: merged /usr)."""
    tries: dict[str, Path] = {}
    for path in paths:
        for variant in (path, path.resolve()):
            text = str(variant)
            for candidate in (text, text.removeprefix("/usr"), "/usr" + text):
                tries.setdefault(candidate, path)
    out = subprocess.run(["dpkg-query", "-S", *tries], capture_output=True, text=True).stdout
    found: dict[Path, str] = {}
    for line in out.splitlines():
        packages, _, owned = line.partition(": ")
        if owned in tries and "diversion" not in packages:
            found.setdefault(tries[owned], _name(packages.split(",")[0]))
    return found


def _locate(name: str) -> Path | None:
    if name.startswith("/"):
        return Path(name) if os.path.exists(name) else None
    path = os.pathsep.join([str(ROOT / ".venv/bin"), os.environ.get("PATH", ""), "/usr/local/sbin:/usr/sbin:/sbin"])
    located = shutil.which(name, path=path)
    return Path(located) if located else None


def _built_here(name: str, path: Path | None, install_deps: str) -> bool:
    """Whether a command is one install-deps.sh builds (or a test wrote into /tmp): a path inside BUILT_HERE, or, not
    built yet, a name install-deps.sh builds (`-o bin/NAME`, a lab server's binary)."""
    if path is not None and path.is_relative_to(Path("/tmp")):
        return True
    if path is not None and path.is_relative_to(ROOT):
        return any(path.is_relative_to(ROOT / d) for d in BUILT_HERE)
    built = set(re.findall(r"-o bin/([\w.-]+)", install_deps)) | set(re.findall(r"^lab_server .* (\S+) build_\w+$", install_deps, re.M))
    return os.path.basename(name) in built or name.startswith(BUILT_HERE)


def check(found: dict[str, Found], install_deps: str, debian: Debian | None = None) -> list[str]:
    """Why each started command is not from the install step (empty when every one is)."""
    debian = debian or Debian.read()
    listed = {mode: listed_packages(install_deps, mode) for mode in {"test"} | {seen.mode for seen in found.values()}}
    allowed = {mode: debian.closure(packages) | debian.base for mode, packages in listed.items()}
    located = {name: _locate(name) for name, seen in found.items() if seen.started}
    owned = owners(path for path in located.values() if path is not None)
    problems = []
    for name, path in sorted(located.items()):
        seen, mode = found[name], found[name].mode
        if os.path.basename(name) in PREREQUISITES or _built_here(name, path, install_deps):
            continue
        if path is None and mode != "test" and name in listed[mode]:
            continue  # installed when its target runs install-deps.sh MODE (bench, review…), not by `make test`
        where = ", ".join(seen.where[:3]) + (f" and {len(seen.where) - 3} more" if len(seen.where) > 3 else "")
        if path is None:
            problems.append(f"{name} ({where}): not installed, and scripts/install-deps.sh {mode} installs no package for it")
        elif path not in owned:
            problems.append(f"{name} ({where}): {path} belongs to no Debian package (install it from scripts/install-deps.sh)")
        elif owned[path] not in allowed[mode]:
            problems.append(f"{name} ({where}): from Debian's {owned[path]}, which scripts/install-deps.sh {mode} does not install "
                            f"(nor any package it names depends on it)")  # fmt: skip
    return problems


def main() -> int:
    """Check the static commands (and the recorded ones with --recorded) against install-deps.sh; 1 on a problem."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--recorded", type=Path, help="the file KB_RECORD_COMMANDS named during the test run")
    parser.add_argument("--install-deps", type=Path, default=ROOT / "scripts/install-deps.sh")
    parser.add_argument("--list", action="store_true", help="print every command and where it was seen")
    args = parser.parse_args()
    install_deps = args.install_deps.read_text()
    found = recorded(args.recorded) if args.recorded else scan(install_deps=install_deps)
    if args.list:
        for name, seen in sorted(found.items()):
            print(f"{name} ({seen.mode}{'' if seen.started else ', a fallback'}): {', '.join(seen.where[:4])}")
    problems = check(found, install_deps)
    what = f"recorded by the test run ({args.recorded})" if args.recorded else "in backend/ and tests/"
    for problem in problems:
        print(f"kneeboard: external command {problem}", file=sys.stderr)
    print(f"kneeboard: {len(found)} external commands {what}: " + (f"{len(problems)} not from the install step" if problems else "all from the install step"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
