"""What the commands print: progress (a bar on a terminal, plain lines otherwise), tables and summaries."""

from __future__ import annotations

import shutil
import sys
from typing import Any, TextIO

from kneeboard.analysis.conclusion import criterion_text, rate_text
from kneeboard.states import PointStatus


def fmt(value: Any) -> str:
    """A number compactly (4 significant digits), anything else as text, None as a dash."""
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def point_label(point: dict[str, Any]) -> str:
    """`#3 saturation c=4 rate=2000` (with the variant and repeat when there are any)."""
    rate = point.get("offered_rate")
    text = f"#{point['seq']} {point['phase']} c={point['concurrency']}" + (f" rate={rate:g}" if rate is not None else "")
    if point.get("variant"):
        text += f" [{point['variant']}]"
    return text + (f" r{point['repeat']}" if point.get("repeat") else "")


def table(rows: list[list[Any]], header: list[str], out: TextIO = sys.stdout) -> None:
    """Aligned columns."""
    cells = [header] + [[fmt(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    for row in cells:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip(), file=out)


class Progress:
    """Shows a running campaign: a redrawn bar with current point, ETA and headline metric on a TTY; a line per change otherwise."""

    def __init__(self, out: TextIO = sys.stdout, tty: bool | None = None) -> None:
        self.out = out
        self.tty = out.isatty() if tty is None else tty
        self.last_line = ""

    def show(self, campaign: dict[str, Any], points: list[dict[str, Any]], headline: str | None) -> None:
        """Render one poll of the campaign."""
        progress = campaign["progress"]
        running = next((p for p in points if p["status"] == PointStatus.RUNNING), None)
        finished = [p for p in points if p["status"] == "completed" and headline and (p.get("metrics") or {}).get(headline) is not None]
        search = progress.get("search")
        parts = [campaign["status"], _search_progress(search) if search else f"{progress['done']}/{progress['total']} points"]
        if running:
            parts.append(f"point {point_label(running)}")
        if progress.get("eta_s") is not None:
            parts.append(f"ETA {progress['eta_s']:.0f}s")
        if finished:
            parts.append(f"{headline}={fmt(finished[-1]['metrics'][headline])}")
        text = " · ".join(parts)
        if self.tty:
            width = shutil.get_terminal_size((100, 20)).columns
            bar_width = 20
            filled = int(bar_width * progress["done"] / max(progress["total"], 1))
            line = f"[{'#' * filled}{'-' * (bar_width - filled)}] {text}"[: width - 1]
            self.out.write("\r" + line.ljust(len(self.last_line)))
            self.out.flush()
            self.last_line = line
        elif text != self.last_line:
            print(text, file=self.out, flush=True)
            self.last_line = text

    def end(self) -> None:
        """Leave the bar's line."""
        if self.tty and self.last_line:
            self.out.write("\n")
            self.out.flush()


def _search_progress(search: dict[str, Any]) -> str:
    """A running search as the bar says it: its trials so far and its bracket, never a total it does not know."""
    b = search.get("bracket") or {}
    return (f"search: {search['trials']} trials, {b.get('criterion')} within [{fmt(b.get('low'))}, {fmt(b.get('high'))}] "
            f"{search['unit']} ({search['narrowed_pct']:.0f} % narrowed)")


def search_line(search: dict[str, Any]) -> str:
    """A search phase's outcome: the capacity per criterion ("capacity at loss_pct ≤ 2: 489 req/s [489–493]"), or where it stopped."""
    where = f"search (phase {search['phase_index'] + 1}{', ' + search['variant'] if search.get('variant') else ''}"
    where += f", repetition {search['repeat'] + 1})" if search.get("repeat") else ")"
    cost = f"{search['trials']} trials, {search['trial_seconds']:g} s of load"
    if not search.get("done"):
        b = search.get("bracket") or {}
        why = search.get("stopped") or "resume to continue"
        return f"{where}: stopped at {b.get('criterion')} within [{fmt(b.get('low'))}, {fmt(b.get('high'))}] {search['unit']} ({cost}); {why}"
    found = "; ".join(f"capacity at {c['criterion']}: {c['statement']}" for c in search["criteria"])
    return f"{where}: {found} ({cost})"


def figures(campaign: dict[str, Any]) -> list[str]:
    """The campaign's headline figures, each naming its metric and rule, as the report and the comparison show them."""
    s, analysis = campaign["summary"], campaign.get("analysis") or {}
    unit = analysis.get("unit") or "ops/s"
    lines = [f"capacity at {c['label']} (search, {'mean of ' + str(c['repeats']) + ' repetitions' if c['repeats'] > 1 else 'one run'}): "
             f"{c['statement']}" for c in analysis.get("searched") or []]  # fmt: skip
    if (capacity := analysis.get("capacity")) and capacity.get("statement"):
        lines.append(f"capacity at {criterion_text(capacity['metric'], capacity['limit_ms'])} (SLO, sweep): {capacity['statement']}")
    ceiling = analysis.get("ceiling") or {}
    top = ceiling.get("achieved_rate", s["max_achieved_rate"])
    lines.append(f"ceiling (highest achieved rate, mean of repetitions): {'≥ ' if ceiling.get('bound') else ''}"
                 f"{rate_text(top, unit) if top is not None else '—'} · mean latency at low load {fmt(s['baseline_latency_ms'])} ms"
                 f" · loss {fmt(s['loss_pct'])} %")  # fmt: skip
    if knee := analysis.get("knee"):
        lines.append(f"knee ({knee.get('load_axis', 'offered')}; {knee.get('rule_text')}): {rate_text(knee['offered_rate'], unit)}")
    return lines


def summary(campaign: dict[str, Any], out: TextIO = sys.stdout) -> None:
    """The campaign's headline figures and conclusion."""
    s, progress = campaign["summary"], campaign["progress"]
    print(f"campaign {campaign['id']} {campaign['name']!r}: {campaign['status']}"
          + (f" ({campaign['error']})" if campaign.get("error") else ""), file=out)  # fmt: skip
    print(f"  points: {s['points_completed']} completed, {s['points_failed']} failed of {progress['total']}", file=out)
    for line in figures(campaign):
        print(f"  {line}", file=out)
    for search in (campaign.get("analysis") or {}).get("search") or []:
        print(f"  {search_line(search)}", file=out)
    for line in conclusion_lines(campaign.get("analysis") or {}):
        print(f"  {line}", file=out)


def conclusion_lines(analysis: dict[str, Any]) -> list[str]:
    """The conclusion as the report shows it: the headline, then a line per section of the detail; an analysis stored
    before headlines gives its one paragraph."""
    if not analysis.get("headline"):
        return [analysis["conclusion"]] if analysis.get("conclusion") else []
    return [analysis["headline"], *(f"· {section['text']}" for section in analysis.get("sections") or [])]


def next_steps(comparison: dict[str, Any], key: str) -> list[str]:
    """Per headline row whose verdict for `key` is undecided, what would decide it: "<row>: to detect a 10 % change: 12
    repetitions a side … (now 3 …); these could detect 24.3 %" (the comparison's next_steps, analysis/verdicts.next_step)."""
    return [f"{row['label']}: {step['text']}" for row in comparison["headline"] if (step := (row.get("next_steps") or {}).get(key))]
