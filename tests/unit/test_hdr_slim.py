"""Point responses leave the per-interval histograms out (a long point stores thousands) and say how many are kept."""

from kneeboard.analysis.hdr import without_intervals


def test_interval_histograms_are_left_out_and_counted_for_the_point_and_each_share():
    extra = {"hdr": "HISTF…", "hdr_intervals": [[1.0, "a"], [2.0, "b"]], "rcodes": {"NOERROR": 3},
             "shares": [{"agent": "a1", "hdr": "H1", "hdr_intervals": [[1.0, "c"]]}, {"agent": "a2", "error": "gone"}]}
    slim = without_intervals(extra)
    assert slim == {"hdr": "HISTF…", "hdr_intervals_stored": 2, "rcodes": {"NOERROR": 3},
                    "shares": [{"agent": "a1", "hdr": "H1", "hdr_intervals_stored": 1}, {"agent": "a2", "error": "gone"}]}
    assert extra["hdr_intervals"] == [[1.0, "a"], [2.0, "b"]], "the stored extra is not changed"


def test_an_extra_without_histograms_is_returned_as_it_is():
    assert without_intervals({"warnings": ["x"]}) == {"warnings": ["x"]}


def test_kbhttps_outcomes_per_10_ms_are_left_out_and_said_to_be_stored():
    slim = without_intervals({"outcomes": {"bucket_ms": 10, "buckets": 601}, "rcodes": {}})
    assert slim == {"outcomes_stored": True, "rcodes": {}}
