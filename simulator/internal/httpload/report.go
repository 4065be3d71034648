package httpload

import (
	"encoding/json"
	"io"
	"sync"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// Latencies are a distribution's figures in ms (nil when it is empty) and its histogram.
type Latencies struct {
	P50  *float64 `json:"p50_ms"`
	P90  *float64 `json:"p90_ms"`
	P99  *float64 `json:"p99_ms"`
	P999 *float64 `json:"p999_ms"`
	HDR  string   `json:"hdr"` // HdrHistogram V2 compressed, base64, values in µs
}

// Summary is a distribution's percentiles with its exact min, mean and max (ms).
type Summary struct {
	Min *float64 `json:"min_ms"`
	Avg *float64 `json:"avg_ms"`
	Max *float64 `json:"max_ms"`
	Latencies
}

// Interval is one interval line. Its percentiles are the response time (from the intended send time).
type Interval struct {
	Kind string  `json:"kbhttp"` // "interval"
	T    float64 `json:"t"`      // the interval's end, seconds since the epoch
	counts
	Errors int64   `json:"errors"`
	Rate   float64 `json:"rate"` // responses/s over the interval
	Latencies
	ServiceP50  *float64 `json:"service_p50_ms"` // from the actual send
	ServiceP99  *float64 `json:"service_p99_ms"`
	LatenessP99 *float64 `json:"lateness_p99_ms"` // the generator's: actual send minus intended
}

// ErrorCounts are a run's errors by kind.
type ErrorCounts struct {
	Status  int64 `json:"status"` // responses other than 2xx/3xx
	Timeout int64 `json:"timeout"`
	Connect int64 `json:"connect"`
	TLS     int64 `json:"tls"` // handshakes that failed, a certificate that did not verify among them
	Other   int64 `json:"other"`
}

// TLSInfo is how the run spoke TLS (absent for http://).
type TLSInfo struct {
	ServerName string `json:"server_name"` // the SNI sent and the name verified
	Verify     string `json:"verify"`      // "ca-bundle", "system" or "skipped"
	Resumption bool   `json:"resumption"`
}

// Point is the whole run's line, printed last. Its top-level latency figures are the response
// time, from each request's intended send time; Service is from the actual send; Lateness is
// how late the generator itself sent.
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
	Summary
	Service  Summary  `json:"service"`
	Lateness Summary  `json:"lateness"`
	TLS      *TLSInfo `json:"tls,omitempty"`
}

// Raw is the test-only line of every response time in µs.
type Raw struct {
	Kind string  `json:"kbhttp"` // "raw"
	US   []int64 `json:"us"`
}

func (d *dist) latencies() Latencies {
	encoded, err := d.hist.Encode(hdr.V2CompressedEncodingCookieBase)
	if err != nil {
		panic(err) // encoding an in-memory histogram into memory does not fail
	}
	l := Latencies{HDR: string(encoded)}
	if d.hist.TotalCount() > 0 {
		l.P50, l.P90, l.P99, l.P999 = d.ms(50), d.ms(90), d.ms(99), d.ms(99.9)
	}
	return l
}

func (d *dist) summary() Summary {
	s := Summary{Latencies: d.latencies()}
	if n := d.hist.TotalCount(); n > 0 {
		s.Min, s.Max, s.Avg = msOf(float64(d.minUS)), msOf(float64(d.maxUS)), msOf(float64(d.sumUS)/float64(n))
	}
	return s
}

func (d *dist) ms(percentile float64) *float64 {
	if d.hist.TotalCount() == 0 {
		return nil
	}
	return msOf(float64(d.hist.ValueAtPercentile(percentile)))
}

func msOf(us float64) *float64 {
	ms := us / 1000
	return &ms
}

func epoch(t time.Time) float64 { return float64(t.UnixMicro()) / 1e6 }

// interval is the window's interval line, ending at end after `length`.
func (w *window) interval(end time.Time, length time.Duration) Interval {
	return Interval{Kind: "interval", T: epoch(end), counts: w.counts, Errors: w.errors(),
		Rate: float64(w.Completed) / length.Seconds(), Latencies: w.response.latencies(),
		ServiceP50: w.service.ms(50), ServiceP99: w.service.ms(99), LatenessP99: w.lateness.ms(99)}
}

// point is the whole run's line (after the last TakeInterval).
func (r *Recorder) point(cfg RunConfig, end time.Time, elapsed time.Duration, dropped int64) Point {
	w := r.total
	p := Point{Kind: "point", Version: Version, T: epoch(end), OfferedRate: cfg.Rate, ElapsedS: elapsed.Seconds(), Connections: cfg.Connections,
		counts: w.counts, Dropped: dropped, Cancelled: w.Cancelled, ErrorsTotal: w.errors(), FirstErrors: r.firstErrors(),
		Errors:  ErrorCounts{Status: w.Status, Timeout: w.Timeout, Connect: w.Connect, TLS: w.TLS, Other: w.Other},
		Summary: w.response.summary(), Service: w.service.summary(), Lateness: w.lateness.summary(), TLS: cfg.tlsInfo()}
	if elapsed > 0 {
		p.AchievedRate = float64(w.Completed) / elapsed.Seconds()
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
