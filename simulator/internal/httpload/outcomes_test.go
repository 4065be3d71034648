package httpload

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// outcomeFile is an outcome file as read back.
type outcomeFile struct {
	head    outcomesHead
	buckets map[int]bucketLine
	conns   map[int][]int32
	end     *outcomesEnd
}

// total is a class's count over every bucket.
func (f outcomeFile) total(class string) int {
	k := -1
	for i, name := range f.head.Classes {
		if name == class {
			k = i
		}
	}
	sum := 0
	for _, b := range f.buckets {
		sum += int(b.N[k])
	}
	return sum
}

// valueTotals is each header value's count over every bucket.
func (f outcomeFile) valueTotals() map[string]int {
	found := map[string]int{}
	for _, b := range f.buckets {
		for k, n := range b.H {
			found[f.head.Values[k]] += int(n)
		}
	}
	return found
}

func readOutcomes(t *testing.T, path string) outcomeFile {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f := outcomeFile{buckets: map[int]bucketLine{}, conns: map[int][]int32{}}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	if err := json.Unmarshal([]byte(lines[0]), &f.head); err != nil || f.head.Kind != "outcomes" {
		t.Fatalf("not an outcome file's head: %s", lines[0])
	}
	for _, line := range lines[1:] {
		var probe map[string]json.RawMessage
		if err := json.Unmarshal([]byte(line), &probe); err != nil {
			t.Fatalf("not JSON: %s", line)
		}
		switch {
		case probe["kbhttp"] != nil:
			f.end = &outcomesEnd{}
			_ = json.Unmarshal([]byte(line), f.end)
		case probe["conn"] != nil:
			var c connLine
			_ = json.Unmarshal([]byte(line), &c)
			f.conns[c.Conn] = c.H
		default:
			var b bucketLine
			_ = json.Unmarshal([]byte(line), &b)
			f.buckets[b.I] = b
		}
	}
	if f.end == nil || f.end.Lines != len(lines)-1 {
		t.Fatalf("want the end line counting %d lines, got %+v", len(lines)-1, f.end)
	}
	return f
}

// serveWith serves handler on a loopback port for the test; its address.
func serveWith(t *testing.T, handler http.Handler) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ServeOn(ctx, ln, handler, io.Discard) }()
	t.Cleanup(func() { cancel(); <-done })
	return ln.Addr().String()
}

// runLogged runs kbhttp against addr with an outcome file (and extra settings); the point line and the file.
func runLogged(t *testing.T, addr string, rate float64, d time.Duration, conns int, set func(*RunConfig)) (Point, outcomeFile) {
	t.Helper()
	cfg := RunConfig{URL: &url.URL{Scheme: "http", Host: addr, Path: "/"}, Method: "GET", Rate: rate, Duration: d,
		Connections: conns, Timeout: time.Second, ReportEvery: time.Second, Outcomes: filepath.Join(t.TempDir(), "outcomes.jsonl")}
	if set != nil {
		set(&cfg)
	}
	var out bytes.Buffer
	if err := Run(context.Background(), cfg, &out); err != nil {
		t.Fatal(err)
	}
	return lastPoint(t, out.String()), readOutcomes(t, cfg.Outcomes)
}

func TestOutcomesAreBucketedByIntendedTimeWithClassesAndHeaderValues(t *testing.T) {
	var n atomic.Int64
	addr := serveWith(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := n.Add(1)
		time.Sleep(25 * time.Millisecond) // answered 2–3 buckets after it was sent: the bucket is still the intended time's
		switch {
		case i%10 == 0:
			w.WriteHeader(http.StatusServiceUnavailable)
		case i%10 == 5:
			w.WriteHeader(http.StatusNotFound)
		default:
			w.Header().Set("X-Backend", "b"+strconv.FormatInt(i%3, 10))
			_, _ = io.WriteString(w, "ok")
		}
	}))
	p, f := runLogged(t, addr, 200, time.Second, 20, func(c *RunConfig) { c.CountHeader = "x-backend" })
	if p.Sent != 200 || f.head.BucketMS != 10 || f.head.Buckets != 101 || f.head.Header != "x-backend" {
		t.Fatalf("want 200 sent in 101 buckets of 10 ms, got %d sent, head %+v", p.Sent, f.head)
	}
	if len(f.buckets) != 100 {
		t.Fatalf("want buckets 0..99 (2 requests intended in each), got %d buckets", len(f.buckets))
	}
	for i, b := range f.buckets {
		sum := int32(0)
		for _, c := range b.N {
			sum += c
		}
		if sum != 2 {
			t.Fatalf("bucket %d: want the 2 requests intended in it, got %v", i, b.N)
		}
	}
	if f.total("ok") != 160 || f.total("http_5xx") != 20 || f.total("http_4xx") != 20 || int64(f.total("http_5xx")+f.total("http_4xx")) != p.Errors.Status {
		t.Fatalf("want 160 ok, 20 5xx, 20 4xx; got ok %d 5xx %d 4xx %d (point: %+v)", f.total("ok"), f.total("http_5xx"), f.total("http_4xx"), p.Errors)
	}
	values := f.valueTotals()
	if len(values) != 3 || values["b0"]+values["b1"]+values["b2"] != 160 || values["b0"] < 50 || values["b2"] < 50 {
		t.Fatalf("want the 160 answers spread over b0, b1, b2, got %v (%v)", values, f.head.Values)
	}
	perConn := 0
	for _, counts := range f.conns {
		for _, c := range counts {
			perConn += int(c)
		}
	}
	if len(f.conns) == 0 || perConn != 160 {
		t.Fatalf("want each connection's answers per value summing to 160, got %d over %d connections", perConn, len(f.conns))
	}
}

func TestOutcomesClassRefusedAndReset(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	p, f := runLogged(t, closed, 100, 300*time.Millisecond, 2, nil)
	if f.total("connect") != int(p.Sent) || p.Errors.Connect != p.Sent || p.Sent+p.Dropped != 30 {
		t.Fatalf("want every request sent to a closed port a connect error, got %d (point %+v)", f.total("connect"), p)
	}
	// A server that reads the request and closes the connection without answering: reset (not "other"). A slow
	// machine may drop some of the 30 (each sender busy past the end): the file counts the requests sent.
	resets := serveWith(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			_ = raw.(*net.TCPConn).SetLinger(0) // RST
			raw.Close()
		}
	}))
	p, f = runLogged(t, resets, 100, 300*time.Millisecond, 2, nil)
	if f.total("reset") != int(p.Sent) || p.Sent < 10 || f.total("other") != 0 {
		t.Fatalf("want every request sent a reset, got reset %d other %d of %d sent", f.total("reset"), f.total("other"), p.Sent)
	}
}

func TestOutcomesCountAtMost64HeaderValues(t *testing.T) {
	var n atomic.Int64
	addr := serveWith(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Id", strconv.FormatInt(n.Add(1), 10)) // a new value every time
	}))
	_, f := runLogged(t, addr, 500, 400*time.Millisecond, 4, func(c *RunConfig) { c.CountHeader = "X-Id" })
	values := f.valueTotals()
	if len(f.head.Values) != MaxHeaderValues+1 || f.head.Values[MaxHeaderValues] != OtherValue || values[OtherValue] != 200-MaxHeaderValues {
		t.Fatalf("want 64 values and %d more as %q, got %d values, other %d", 200-MaxHeaderValues, OtherValue, len(f.head.Values), values[OtherValue])
	}
}

func TestCookiesPersistPerConnection(t *testing.T) {
	var set, carried atomic.Int64
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if c, err := r.Cookie("SRV"); err == nil && c.Value == "s1" {
			carried.Add(1)
			return
		}
		set.Add(1)
		http.SetCookie(w, &http.Cookie{Name: "SRV", Value: "s1", Path: "/"})
	})
	addr := serveWith(t, handler)
	p, _ := runLogged(t, addr, 200, 500*time.Millisecond, 4, func(c *RunConfig) { c.Cookies = true })
	if p.Completed != 100 || set.Load() != 4 || carried.Load() != 96 {
		t.Fatalf("with --cookies: want the cookie set once per connection (4) and sent back 96 times, got %d set, %d carried", set.Load(), carried.Load())
	}
	set.Store(0)
	carried.Store(0)
	runLogged(t, addr, 200, 500*time.Millisecond, 4, nil)
	if set.Load() != 100 || carried.Load() != 0 {
		t.Fatalf("without --cookies: want no cookie sent back, got %d set, %d carried", set.Load(), carried.Load())
	}
}

func TestParseRunChecksTheOutcomeFlags(t *testing.T) {
	good := []string{"--url", "http://127.0.0.1:80/", "--rate", "10", "--outcomes", "o.jsonl"}
	c, err := ParseRun(append(good, "--count-header", "X-Backend", "--cookies"))
	if err != nil || c.Outcomes != "o.jsonl" || c.CountHeader != "X-Backend" || !c.Cookies {
		t.Fatalf("want the outcome flags read, got %+v, %v", c, err)
	}
	for _, args := range [][]string{
		append(good, "--count-header", "X Backend"),
		append(good, "--count-header", "X-Backend:"),
		append(good, "--count-header", "X-B\r\nEvil"),
		append(good, "--count-header", strings.Repeat("x", 65)),
		{"--url", "http://127.0.0.1:80/", "--rate", "10", "--count-header", "X-Backend"},
	} {
		if _, err := ParseRun(args); err == nil || !strings.Contains(err.Error(), "--count-header") {
			t.Errorf("%q: want a usage error naming --count-header, got %v", args, err)
		}
	}
}

func TestALongRunWidensItsBuckets(t *testing.T) {
	l := newOutcomeLog(24*time.Hour, "")
	if l.n > MaxBuckets+1 || l.width != 250*time.Millisecond {
		t.Fatalf("want at most %d buckets of 250 ms for 24 h, got %d of %v", MaxBuckets, l.n, l.width)
	}
	if l := newOutcomeLog(30*time.Second, ""); l.n != 3001 || l.width != BucketWidth {
		t.Fatalf("want 3001 buckets of 10 ms for 30 s, got %d of %v", l.n, l.width)
	}
}

func TestRecordingAnOutcomeDoesNotAllocate(t *testing.T) {
	l := newOutcomeLog(time.Second, "X-Backend")
	l.start = time.Now()
	l.record(l.start, classOK, true, "b1")
	at := l.start.Add(500 * time.Millisecond)
	if allocs := testing.AllocsPerRun(1000, func() { l.record(at, classOK, true, "b1") }); allocs != 0 {
		t.Fatalf("want no allocation per request once a value is known, got %v", allocs)
	}
}

func BenchmarkRecordOutcome(b *testing.B) {
	l := newOutcomeLog(30*time.Second, "X-Backend")
	l.start = time.Now()
	values := []string{"b1", "b2", "b3"}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			i++
			l.record(l.start.Add(time.Duration(i%3000)*BucketWidth), classOK, true, values[i%3])
		}
	})
}

func TestAnOutcomeFileThatCannotBeWrittenFailsBeforeTheRun(t *testing.T) {
	cfg := RunConfig{URL: &url.URL{Scheme: "http", Host: "127.0.0.1:9", Path: "/"}, Method: "GET", Rate: 10, Duration: time.Hour,
		Connections: 1, Timeout: time.Second, ReportEvery: time.Second, Outcomes: filepath.Join(t.TempDir(), "no", "such", "dir")}
	began := time.Now()
	var out bytes.Buffer
	if err := Run(context.Background(), cfg, &out); err == nil || !strings.Contains(err.Error(), "--outcomes") || time.Since(began) > time.Second || out.Len() > 0 {
		t.Fatalf("want --outcomes refused at once with nothing sent, got %v after %v (%q)", err, time.Since(began), out.String())
	}
}
