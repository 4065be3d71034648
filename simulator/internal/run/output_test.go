package run

import (
	"testing"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"kneeboard/simulator/internal/stats"
)

// childParts splits 1..3000 µs over two children's wire histograms; whole holds them all.
func childParts(t *testing.T) (wires [2]*stats.Wire, whole *stats.Histogram) {
	t.Helper()
	var parts [2]stats.Histogram
	whole = new(stats.Histogram)
	for us := uint64(1); us <= 3000; us++ {
		parts[us%2].Record(us * (1 + us%7))
		whole.Record(us * (1 + us%7))
	}
	for i := range parts {
		w, err := parts[i].Wire()
		if err != nil {
			t.Fatal(err)
		}
		wires[i] = w
	}
	return wires, whole
}

func decodedCount(t *testing.T, encoded string) int64 {
	t.Helper()
	h, err := hdr.Decode([]byte(encoded))
	if err != nil {
		t.Fatal(err)
	}
	return h.TotalCount()
}

func TestParentMergesChildIntervalsExactly(t *testing.T) {
	wires, whole := childParts(t)
	iv, err := mergeIntervals([]*Interval{{Phase: "report", Acked: 1500, Hist: wires[0]}, {Phase: "report", Acked: 1500, Hist: wires[1]}})
	if err != nil {
		t.Fatal(err)
	}
	var want Interval
	want.fillLatency(whole)
	if n := decodedCount(t, iv.HDR); n != 3000 || iv.Hist != nil {
		t.Fatalf("merged interval holds %d values (want 1500 + 1500), wire %v", n, iv.Hist)
	}
	if iv.AckP50MS != want.AckP50MS || iv.AckP90MS != want.AckP90MS || iv.AckP99MS != want.AckP99MS ||
		iv.AckP999MS != want.AckP999MS || iv.AckAvgMS != want.AckAvgMS {
		t.Fatalf("merged %+v, whole %+v", iv, want)
	}
	ramp, _ := mergeIntervals([]*Interval{{Phase: "ramp", Hist: wires[0]}, {Phase: "report", Hist: wires[1]}})
	if ramp.HDR != "" || ramp.AckP50MS == 0 {
		t.Fatalf("an interval outside the reporting phase shows its histogram (%q) or lacks its figures", ramp.HDR)
	}
}

func TestParentMergesChildSummariesExactly(t *testing.T) {
	wires, whole := childParts(t)
	s, err := mergeSummaries([]*Summary{{Acked: 1500, Hist: wires[0]}, {Acked: 1500, Hist: wires[1]}})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := whole.Encode()
	if s.HDR != want || decodedCount(t, s.HDR) != int64(s.Acked) || s.AckMaxMS != whole.MaxMS() {
		t.Fatalf("summary histogram is not the children's together (max %v)", s.AckMaxMS)
	}
	if _, err := mergeSummaries([]*Summary{{Hist: &stats.Wire{HDR: "broken"}}}); err == nil {
		t.Fatal("a broken child histogram went unnoticed")
	}
}
