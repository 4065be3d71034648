package httpload

import (
	"encoding/json"
	"errors"
	"net/url"
	"testing"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// recorded is a recorder holding response times 1..1000 ms (one each; service times half that,
// sent 10 µs late, every tenth after waiting for a connection), two timeouts, a refusal, a
// failed handshake, a 503 and one cut off by a stop, spread over the shards as senders would.
func recorded() *Recorder {
	rec := NewRecorder(true)
	for ms := int64(1); ms <= 1000; ms++ {
		rec.shardFor(int(ms)).record(request{o: answered, responseUS: ms * 1000, serviceUS: ms * 500, lateUS: 10, queued: ms%10 == 0}, true)
	}
	for k, q := range []request{
		{o: timedOut, err: errors.New("context deadline exceeded")}, {o: timedOut, err: errors.New("a second timeout")},
		{o: refused, err: errors.New("connection refused")}, {o: tlsFailed, err: &TLSError{errors.New("x509: unknown authority")}},
		{o: badStatus, responseUS: 2000, serviceUS: 1000, err: errors.New("GET http://h/: 503 Service Unavailable")},
		{o: cancelled, err: errors.New("context canceled")},
	} {
		q.lateUS = 10
		rec.shardFor(k).record(q, true)
	}
	rec.shardFor(0).handshake(false)
	rec.shardFor(1).handshake(true)
	return rec
}

func TestPointLineHasTheRunsFigures(t *testing.T) {
	rec := recorded()
	rec.TakeInterval()
	cfg := RunConfig{URL: &url.URL{Scheme: "https", Host: "h"}, Rate: 600, Connections: 3}
	line, _ := json.Marshal(rec.point(cfg, time.Unix(1_700_000_000, 500_000_000), 2*time.Second, 7))
	var p map[string]any
	if err := json.Unmarshal(line, &p); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"kbhttp": "point", "t": 1_700_000_000.5, "offered_rate": 600.0, "achieved_rate": 500.5,
		"elapsed_s": 2.0, "connections": 3.0, "sent": 1006.0, "completed": 1001.0, "dropped": 7.0, "cancelled": 1.0,
		"errors_total": 5.0, "min_ms": 1.0, "max_ms": 1000.0, "queued": 100.0, "handshakes": 2.0, "handshakes_resumed": 1.0}
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
		want := float64(rec.total.response.hist.ValueAtPercentile(q)) / 1000
		if exact := float64(sorted[rank-1]) / 1000; p[name] != want || want < exact || want > exact*1.001 {
			t.Errorf("%s = %v, want %v: the top of the bucket holding the raw value of rank %d (%v)", name, p[name], want, rank, exact)
		}
	}
	if avg := p["avg_ms"].(float64); avg != (500500.0+2)/1001 {
		t.Errorf("avg_ms %v is not the exact mean", avg)
	}
	service, lateness := p["service"].(map[string]any), p["lateness"].(map[string]any)
	if service["max_ms"] != 500.0 || service["min_ms"] != 0.5 || service["p50_ms"].(float64) > 250.5 || service["hdr"] == "" {
		t.Errorf("the service time is the actual send's: %v", service)
	}
	if lateness["p99_ms"] != 0.01 || lateness["max_ms"] != 0.01 || lateness["hdr"] == "" {
		t.Errorf("the lateness counts every request sent without waiting for a connection: %v", lateness)
	}
	if tls := p["tls"].(map[string]any); tls["server_name"] != "h" || tls["verify"] != "system" || tls["resumption"] != true {
		t.Errorf("tls: %v", tls)
	}
	errs := p["errors"].(map[string]any)
	if errs["timeout"] != 2.0 || errs["connect"] != 1.0 || errs["status"] != 1.0 || errs["tls"] != 1.0 || errs["other"] != 0.0 {
		t.Errorf("errors by kind: %v", errs)
	}
	first := p["first_errors"].(map[string]any)
	if first["timeout"] != "context deadline exceeded" || first["connect"] != "connection refused" ||
		first["status"] != "GET http://h/: 503 Service Unavailable" || first["tls"] != "TLS handshake: x509: unknown authority" || len(first) != 4 {
		t.Errorf("first errors: %v", first)
	}
	if raw := rec.rawLatencies(); len(raw) != 1001 {
		t.Errorf("raw latencies: %d, want 1001", len(raw))
	}
}

func TestStoredHistogramDecodesToTheSamePercentiles(t *testing.T) {
	rec := recorded()
	w := rec.TakeInterval()
	line := w.interval(time.Unix(1_700_000_001, 0), 500*time.Millisecond)
	if line.Rate != 2002 || line.Errors != 5 || line.Completed != 1001 || line.Sent != 1006 || line.Queued != 100 || line.Full != 2 {
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
	if next := rec.TakeInterval(); next.Completed != 0 || next.response.hist.TotalCount() != 0 || rec.total.Completed != 1001 {
		t.Fatal("taking an interval starts a new one")
	}
	if empty := newWindow().interval(time.Now(), time.Second); empty.P50 != nil || empty.HDR == "" {
		t.Fatalf("an empty interval has no percentiles but still a histogram: %+v", empty)
	}
}
