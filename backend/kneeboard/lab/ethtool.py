"""ethtool: pure parsers of `ethtool -l` / `ethtool -k` output and thin argv wrappers around them."""

from __future__ import annotations

from kneeboard.lab.system import in_netns, run

CHANNEL_KINDS = ("rx", "tx", "other", "combined")
# short names `ethtool -K` accepts → the long names `ethtool -k` prints
FEATURE_NAMES = {
    "gro": "generic-receive-offload",
    "gso": "generic-segmentation-offload",
    "tso": "tcp-segmentation-offload",
    "lro": "large-receive-offload",
}


def _sections(text: str, keys: tuple[str, ...]) -> dict[str, dict[str, int | None]]:
    """`ethtool -l`/`-g` style output → {"max": {key: n}, "current": {...}} for the given lower-case keys; "n/a" → None."""
    out: dict[str, dict[str, int | None]] = {}
    section: str | None = None
    for raw in text.splitlines():
        line = raw.strip()
        lower = line.lower()
        if lower.startswith("pre-set maximums"):
            section = "max"
            out[section] = {}
        elif lower.startswith("current hardware settings"):
            section = "current"
            out[section] = {}
        elif section and ":" in line:
            key, _, value = line.partition(":")
            key, value = key.strip().lower(), value.strip()
            if key in keys:
                out[section][key] = int(value) if value.isdigit() else None
    return out


def parse_channels(text: str) -> dict[str, dict[str, int | None]]:
    """`ethtool -l` output → {"max": {rx, tx, other, combined}, "current": {...}}; "n/a" becomes None."""
    return _sections(text, CHANNEL_KINDS)


def parse_rings(text: str) -> dict[str, dict[str, int | None]]:
    """`ethtool -g` output → {"max": {rx, rx mini, rx jumbo, tx}, "current": {...}} (the same sections as `-l`)."""
    return _sections(text, ("rx", "rx mini", "rx jumbo", "tx"))


def parse_features(text: str) -> dict[str, dict[str, bool]]:
    """`ethtool -k` output → {feature: {"on": bool, "fixed": bool}} for every feature line."""
    out: dict[str, dict[str, bool]] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.lower().startswith("features for") or ":" not in line:
            continue
        name, _, rest = line.partition(":")
        words = rest.split()
        if not words or words[0] not in ("on", "off"):
            continue
        out[name.strip()] = {"on": words[0] == "on", "fixed": "[fixed]" in rest}
    return out


def feature_on(parsed: dict[str, dict[str, bool]], name: str) -> bool | None:
    """Whether a feature (short or long name) is on in parsed `ethtool -k` output; None if not listed."""
    entry = parsed.get(FEATURE_NAMES.get(name, name))
    return None if entry is None else entry["on"]


def channels(dev: str, netns: str | None = None) -> dict[str, dict[str, int | None]]:
    """Run `ethtool -l DEV` (inside netns if given) and parse it; raises CommandFailed."""
    return parse_channels(run(in_netns(netns, ["ethtool", "-l", dev])).stdout)


def features(dev: str, netns: str | None = None) -> dict[str, dict[str, bool]]:
    """Run `ethtool -k DEV` (inside netns if given) and parse it; raises CommandFailed."""
    return parse_features(run(in_netns(netns, ["ethtool", "-k", dev])).stdout)


def rings(dev: str, netns: str | None = None) -> dict[str, dict[str, int | None]]:
    """Run `ethtool -g DEV` (inside netns if given) and parse it; raises CommandFailed (veth has no rings)."""
    return parse_rings(run(in_netns(netns, ["ethtool", "-g", dev])).stdout)


def set_channels(dev: str, rx: int, tx: int, netns: str | None = None) -> None:
    """`ethtool -L DEV rx N tx N` (veth has separate RX/TX channels, no combined)."""
    run(in_netns(netns, ["ethtool", "-L", dev, "rx", str(rx), "tx", str(tx)]))


def set_combined(dev: str, count: int, netns: str | None = None) -> None:
    """`ethtool -L DEV combined N` (most multi-queue NICs pair each RX queue with a TX queue)."""
    run(in_netns(netns, ["ethtool", "-L", dev, "combined", str(count)]))


def set_features(dev: str, settings: dict[str, bool], netns: str | None = None) -> None:
    """`ethtool -K DEV name on|off …` for the given features."""
    argv = ["ethtool", "-K", dev]
    for name, on in settings.items():
        argv += [name, "on" if on else "off"]
    run(in_netns(netns, argv))
