"""The parser for the seed script's CSV."""

import pytest

from kneeboard.analysis import ImportFormatError, parse_seed_csv

HEADER = "Test_Type,Concurrency,Target_QPS,Actual_QPS,Avg_Latency_ms,StdDev_ms\n"


def test_parses_phases_and_optional_stddev():
    text = HEADER + "Scalability,4,10000,9964.92,0.936,0.21\nCapacity,20,500,499.99,0.668,\nStability,100,11000,10949.80,1.249,\n"
    points = parse_seed_csv(text)
    assert [p["phase"] for p in points] == ["scalability", "saturation", "stability"]
    first = points[0]
    assert first == {
        "phase": "scalability", "concurrency": 4, "offered_rate": 10000.0, "achieved_rate": 9964.92,
        "latency_avg_ms": 0.936, "latency_stddev_ms": 0.21, "loss_pct": None, "repeat": 0,
        "status": "completed", "variant": None,
    }
    assert points[1]["latency_stddev_ms"] is None


def test_repeats_crlf_bom_and_blank_lines():
    text = "\ufeff" + HEADER.replace("\n", "\r\n") + "Capacity,20,500,499,0.6,\r\n\r\nCapacity,20,500,498,0.7,\r\n"
    points = parse_seed_csv(text)
    assert [p["repeat"] for p in points] == [0, 1]


def test_empty_measurements_mean_a_failed_run():
    (p,) = parse_seed_csv(HEADER + "Scalability,8,20000,,,\n")
    assert p["status"] == "failed" and p["achieved_rate"] is None


def test_seed_file_parses():
    from pathlib import Path

    points = parse_seed_csv((Path(__file__).parent / "data" / "seed000.csv").read_text())
    assert len(points) == 16 + 23 + 1
    assert all(p["status"] == "completed" for p in points)


@pytest.mark.parametrize(
    "text, line, column, words",
    [
        ("", 1, 1, "empty"),
        ("Test_Type,Concurrency,Target_QPS,Actual_QPS,Avg_Latency,StdDev_ms\n", 1, 5, "Avg_Latency_ms"),
        (HEADER, 2, 1, "no data"),
        (HEADER + "Capacity,20,500,499.99,0.668,\nCapacity,20,abc,1,1,\n", 3, 3, "Target_QPS"),
        (HEADER + "Capacity,20,500,499.99\n", 2, 5, "expected 6 fields"),
        (HEADER + "Capacity,20,500,499.99,0.6,,7\n", 2, 7, "expected 6 fields"),
        (HEADER + "Warmup,20,500,499.99,0.6,\n", 2, 1, "Test_Type"),
        (HEADER + "Capacity,2.5,500,499.99,0.6,\n", 2, 2, "integer"),
        (HEADER + "Capacity,0,500,499.99,0.6,\n", 2, 2, "at least 1"),
        (HEADER + "Capacity,20,500,nan,0.6,\n", 2, 4, "finite"),
        (HEADER + "Capacity,20,500,499.99,-1,\n", 2, 5, "≥ 0"),
        (HEADER + "Capacity,20,500,499.99,,\n", 2, 5, "Avg_Latency_ms"),
        (HEADER + "\nCapacity,20,500,499.99,0.6,x\n", 3, 6, "StdDev_ms"),
    ],
)
def test_errors_name_line_and_column(text, line, column, words):
    with pytest.raises(ImportFormatError) as exc:
        parse_seed_csv(text)
    err = exc.value
    assert isinstance(err, ValueError)
    assert (err.line, err.column) == (line, column)
    assert words in str(err)
    assert str(err).startswith(f"line {line}, column {column}:")
