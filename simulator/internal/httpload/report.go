package httpload

import (
	"encoding/json"
	"io"
	"sync"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// Latencies are a window's figures in ms (nil when nothing completed) and its histogram.
type Latencies struct {
	P50  *float64 `json:"p50_ms"`
	P90  *float64 `json:"p90_ms"`
	P99  *float64 `json:"p99_ms"`
	P999 *float64 `json:"p999_ms"`
	HDR  string   `json:"hdr"` // HdrHistogram V2 compressed, base64, values in µs
}

// Interval is one interval line.
type Interval struct {
	Kind string  `json:"kbhttp"` // "interval"
	T    float64 `json:"t"`      // the interval's end, seconds since the epoch
	counts
	Errors int64   `json:"errors"`
	Rate   float64 `json:"rate"` // responses/s over the interval
	Latencies
}

// ErrorCounts are a run's errors by kind.
type ErrorCounts struct {
	Status  int64 `json:"status"` // responses other than 2xx/3xx
	Timeout int64 `json:"timeout"`
	Connect int64 `json:"connect"`
	Other   int64 `json:"other"`
}

// Point is the whole run's line, printed last.
type Point struct {
	Kind         string  `json:"kbhttp"` // "point"
	Version      string  `json:"version"`
	T            float64 `json:"t"`
	OfferedRate  float64 `json:"offered_rate"`
	AchievedRate float64 `json:"achieved_rate"` // responses/s over the elapsed time
	ElapsedS     float64 `json:"elapsed_s"`     // from the first intended send to the last response
	Connections  int     `json:"connections"`
	counts
	Dropped     int64             `json:"dropped"`   // intended before sending stopped, never sent (every connection busy)
	Cancelled   int64             `json:"cancelled"` // in flight when a signal stopped the run
	Errors      ErrorCounts       `json:"errors"`
	ErrorsTotal int64             `json:"errors_total"`
	FirstErrors map[string]string `json:"first_errors"`
	Min         *float64          `json:"min_ms"`
	Avg         *float64          `json:"avg_ms"`
	Max         *float64          `json:"max_ms"`
	Latencies
}

// Raw is the test-only line of every latency in µs.
type Raw struct {
	Kind string  `json:"kbhttp"` // "raw"
	US   []int64 `json:"us"`
}

func (w *window) latencies() Latencies {
	encoded, err := w.hist.Encode(hdr.V2CompressedEncodingCookieBase)
	if err != nil {
		panic(err) // encoding an in-memory histogram into memory does not fail
	}
	l := Latencies{HDR: string(encoded)}
	if w.Completed > 0 {
		l.P50, l.P90, l.P99, l.P999 = w.ms(50), w.ms(90), w.ms(99), w.ms(99.9)
	}
	return l
}

func (w *window) ms(percentile float64) *float64 {
	return msOf(float64(w.hist.ValueAtPercentile(percentile)))
}

func msOf(us float64) *float64 {
	ms := us / 1000
	return &ms
}

func epoch(t time.Time) float64 { return float64(t.UnixMicro()) / 1e6 }

// interval is the window's interval line, ending at end after `length`.
func (w *window) interval(end time.Time, length time.Duration) Interval {
	return Interval{Kind: "interval", T: epoch(end), counts: w.counts, Errors: w.errors(),
		Rate: float64(w.Completed) / length.Seconds(), Latencies: w.latencies()}
}

// point is the whole run's line.
func (r *Recorder) point(cfg RunConfig, end time.Time, elapsed time.Duration, dropped int64) Point {
	r.mu.Lock()
	defer r.mu.Unlock()
	w := r.total
	p := Point{Kind: "point", Version: Version, T: epoch(end), OfferedRate: cfg.Rate, ElapsedS: elapsed.Seconds(), Connections: cfg.Connections,
		counts: w.counts, Dropped: dropped, Cancelled: w.Cancelled, ErrorsTotal: w.errors(), FirstErrors: r.firstErrors,
		Errors: ErrorCounts{Status: w.Status, Timeout: w.Timeout, Connect: w.Connect, Other: w.Other}, Latencies: w.latencies()}
	if elapsed > 0 {
		p.AchievedRate = float64(w.Completed) / elapsed.Seconds()
	}
	if w.Completed > 0 {
		p.Min, p.Max = msOf(float64(w.minUS)), msOf(float64(w.maxUS))
		p.Avg = msOf(float64(w.sumUS) / float64(w.Completed))
	}
	return p
}

// lineWriter writes one JSON value per line, each in one write (stdout is unbuffered: each line leaves at once).
type lineWriter struct {
	mu  sync.Mutex
	out io.Writer
}

func (l *lineWriter) write(v any) error {
	encoded, err := json.Marshal(v)
	if err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	_, err = l.out.Write(append(encoded, '\n'))
	return err
}
