package httpload

import (
	"encoding/json"
	"errors"
	"net/url"
	"testing"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// recorded is a recorder holding latencies 1..1000 ms (one each), two timeouts, a refusal and a 503.
func recorded() *Recorder {
	rec := NewRecorder(true)
	for ms := int64(1); ms <= 1000; ms++ {
		rec.Sent()
		rec.Done(answered, ms*1000, nil)
	}
	rec.Done(timedOut, 0, errors.New("context deadline exceeded"))
	rec.Done(timedOut, 0, errors.New("a second timeout"))
	rec.Done(refused, 0, errors.New("connection refused"))
	rec.Done(badStatus, 2000, errors.New("GET http://h/: 503 Service Unavailable"))
	rec.Done(cancelled, 0, errors.New("context canceled"))
	return rec
}

func TestPointLineHasTheRunsFigures(t *testing.T) {
	rec := recorded()
	cfg := RunConfig{URL: &url.URL{Scheme: "http", Host: "h"}, Rate: 600, Connections: 3}
	line, _ := json.Marshal(rec.point(cfg, time.Unix(1_700_000_000, 500_000_000), 2*time.Second, 7))
	var p map[string]any
	if err := json.Unmarshal(line, &p); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"kbhttp": "point", "t": 1_700_000_000.5, "offered_rate": 600.0, "achieved_rate": 500.5,
		"elapsed_s": 2.0, "connections": 3.0, "sent": 1000.0, "completed": 1001.0, "dropped": 7.0, "cancelled": 1.0,
		"errors_total": 4.0, "min_ms": 1.0, "max_ms": 1000.0}
	for k, v := range want {
		if p[k] != v {
			t.Errorf("%s = %v, want %v", k, p[k], v)
		}
	}
	sorted := []int64{1000, 2000, 2000} // the raw latencies in µs, sorted: 1, 2, 2 (the 503), 3 ... 1000 ms
	for ms := int64(3); ms <= 1000; ms++ {
		sorted = append(sorted, ms*1000)
	}
	for name, q := range map[string]float64{"p50_ms": 50, "p90_ms": 90, "p99_ms": 99, "p999_ms": 99.9} {
		rank := max(1, int(q/100*float64(len(sorted))+0.5)) // HDR's rank rule, as tests/unit/test_analysis_hdr.py
		want := float64(rec.total.hist.ValueAtPercentile(q)) / 1000
		if exact := float64(sorted[rank-1]) / 1000; p[name] != want || want < exact || want > exact*1.001 {
			t.Errorf("%s = %v, want %v: the top of the bucket holding the raw value of rank %d (%v)", name, p[name], want, rank, exact)
		}
	}
	if avg := p["avg_ms"].(float64); avg != (500500.0+2)/1001 {
		t.Errorf("avg_ms %v is not the exact mean", avg)
	}
	errs := p["errors"].(map[string]any)
	if errs["timeout"] != 2.0 || errs["connect"] != 1.0 || errs["status"] != 1.0 || errs["other"] != 0.0 {
		t.Errorf("errors by kind: %v", errs)
	}
	first := p["first_errors"].(map[string]any)
	if first["timeout"] != "context deadline exceeded" || first["connect"] != "connection refused" ||
		first["status"] != "GET http://h/: 503 Service Unavailable" || len(first) != 3 {
		t.Errorf("first errors: %v", first)
	}
	if len(rec.raw) != 1001 {
		t.Errorf("raw latencies: %d, want 1001", len(rec.raw))
	}
}

func TestStoredHistogramDecodesToTheSamePercentiles(t *testing.T) {
	rec := recorded()
	w := rec.TakeInterval()
	line := w.interval(time.Unix(1_700_000_001, 0), 500*time.Millisecond)
	if line.Rate != 2002 || line.Errors != 4 || line.Completed != 1001 || line.Sent != 1000 {
		t.Fatalf("interval counts: %+v", line)
	}
	decoded, err := hdr.Decode([]byte(line.HDR))
	if err != nil {
		t.Fatal(err)
	}
	if decoded.TotalCount() != 1001 || decoded.LowestTrackableValue() != LowestUS || decoded.HighestTrackableValue() != HighestUS ||
		decoded.SignificantFigures() != Digits {
		t.Fatalf("decoded histogram: count %d, range %d..%d, %d digits", decoded.TotalCount(),
			decoded.LowestTrackableValue(), decoded.HighestTrackableValue(), decoded.SignificantFigures())
	}
	if got := float64(decoded.ValueAtPercentile(99.9)) / 1000; got != *line.P999 {
		t.Fatalf("p99.9 from the stored histogram %v, the line says %v", got, *line.P999)
	}
	if next := rec.TakeInterval(); next.Completed != 0 || next.hist.TotalCount() != 0 {
		t.Fatal("taking an interval starts a new one")
	}
	if empty := newWindow().interval(time.Now(), time.Second); empty.P50 != nil || empty.HDR == "" {
		t.Fatalf("an empty interval has no percentiles but still a histogram: %+v", empty)
	}
}
