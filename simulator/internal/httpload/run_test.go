package httpload

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

// serve starts Serve in this process and returns its address; it stops with the test.
func serve(t *testing.T, cfg ServeConfig) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	reader, writer := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, cfg, writer) }()
	addr, err := bufio.NewReader(reader).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); <-done })
	return strings.TrimSpace(addr)
}

// load runs Run and returns its interval lines and its point line.
func load(t *testing.T, ctx context.Context, addr string, rate float64, d time.Duration, conns int) ([]Interval, Point) {
	t.Helper()
	cfg := RunConfig{URL: &url.URL{Scheme: "http", Host: addr, Path: "/"}, Method: "GET", Rate: rate, Duration: d,
		Connections: conns, Timeout: 2 * time.Second, ReportEvery: 250 * time.Millisecond}
	var out bytes.Buffer
	if err := Run(ctx, cfg, &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	var intervals []Interval
	for _, line := range lines[:len(lines)-1] {
		var i Interval
		if err := json.Unmarshal([]byte(line), &i); err != nil || i.Kind != "interval" {
			t.Fatalf("not an interval line: %s", line)
		}
		intervals = append(intervals, i)
	}
	return intervals, lastPoint(t, out.String())
}

// lastPoint is the point line, the last of a run's output.
func lastPoint(t *testing.T, out string) Point {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var p Point
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &p); err != nil || p.Kind != "point" {
		t.Fatalf("the last line is not the point line: %s", lines[len(lines)-1])
	}
	return p
}

func formatRate(rate float64) string { return strconv.FormatFloat(rate, 'g', -1, 64) }

func itoa(n int) string { return strconv.Itoa(n) }

func TestAServerStallShowsInTheTail(t *testing.T) {
	addr := serve(t, ServeConfig{Listen: "127.0.0.1:0", StallAfter: 300 * time.Millisecond, StallFor: 500 * time.Millisecond})
	intervals, p := load(t, context.Background(), addr, 200, 1500*time.Millisecond, 10)
	if p.Sent != 300 || p.Completed != 300 || p.Dropped != 0 || p.ErrorsTotal != 0 {
		t.Fatalf("want 300 sent and answered, got %+v", p)
	}
	// Only 10 requests were in flight when the stall began; the ~90 more intended during it
	// waited for a connection, and their wait counts: the tail shows the whole stall.
	if *p.P99 < 400 || *p.Max < 450 || *p.Max > 1000 || *p.P50 > 100 {
		t.Fatalf("want p99 ≥ 400 ms, max ≈ 500 ms and a short median; got p50 %v p99 %v max %v", *p.P50, *p.P99, *p.Max)
	}
	if len(intervals) < 5 || intervals[0].Rate < 100 {
		t.Fatalf("want an interval line every 250 ms at ~200 req/s, got %+v", intervals)
	}
}

func TestABusyConnectionQueuesAndWhatWasNeverSentIsDropped(t *testing.T) {
	addr := serve(t, ServeConfig{Listen: "127.0.0.1:0", Delay: 200 * time.Millisecond})
	start := time.Now()
	_, p := load(t, context.Background(), addr, 100, 500*time.Millisecond, 1)
	if took := time.Since(start); took > 1200*time.Millisecond {
		t.Fatalf("the run took %v: sending must stop at the duration", took)
	}
	// One connection answers every 200 ms: requests at 0, 200 and 400 ms are sent; 47 of the 50 intended are not.
	if p.Sent < 2 || p.Sent > 4 || p.Sent+p.Dropped != 50 || p.Completed != p.Sent {
		t.Fatalf("want ~3 sent, the rest of 50 dropped; got sent %d dropped %d completed %d", p.Sent, p.Dropped, p.Completed)
	}
	if *p.Max < 390 {
		t.Fatalf("the third request was intended at 20 ms and answered at ~600 ms; max %v ms", *p.Max)
	}
}

func TestRefusedConnectionsAreCountedWithTheReason(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	_, p := load(t, context.Background(), addr, 50, 300*time.Millisecond, 2)
	if p.Completed != 0 || p.Errors.Connect != 15 || p.ErrorsTotal != 15 || p.P50 != nil || p.Min != nil {
		t.Fatalf("want 15 connect errors and no latency, got %+v", p)
	}
	if !strings.Contains(p.FirstErrors["connect"], "connection refused") {
		t.Fatalf("want the reason, got %q", p.FirstErrors)
	}
}

func TestStoppingEndsTheRunWithItsPoint(t *testing.T) {
	addr := serve(t, ServeConfig{Listen: "127.0.0.1:0", StallAfter: 200 * time.Millisecond, StallFor: time.Hour})
	ctx, stop := context.WithTimeout(context.Background(), 400*time.Millisecond)
	defer stop()
	start := time.Now()
	_, p := load(t, ctx, addr, 100, 10*time.Second, 5)
	if took := time.Since(start); took > 400*time.Millisecond+StopGrace+300*time.Millisecond {
		t.Fatalf("the run took %v after the stop", took)
	}
	// ~20 answered before the stall; 5 held when stopped (cut off, not errors); the rest intended by then dropped.
	if p.Cancelled != 5 || p.ErrorsTotal != 0 || p.Completed < 15 || p.Completed+p.Cancelled != p.Sent || p.Dropped < 10 || p.Dropped > 25 {
		t.Fatalf("unexpected point after a stop: %+v", p)
	}
}
