package httpload

import (
	"sync"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// outcome is how one request ended.
type outcome int

const (
	answered  outcome = iota // a response with a 2xx or 3xx status
	badStatus                // a response with any other status
	timedOut                 // the request's timeout, or a connect timeout
	refused                  // the connection could not be made
	failed                   // any other transport error
	cancelled                // cut off when the run was stopped (not an error of the server)
)

// counts are one window's request counters.
type counts struct {
	Sent      int64 `json:"sent"`
	Completed int64 `json:"completed"` // responses, whatever their status
	Status    int64 `json:"-"`
	Timeout   int64 `json:"-"`
	Connect   int64 `json:"-"`
	Other     int64 `json:"-"`
	Cancelled int64 `json:"-"`
}

// errors is every error a window counted.
func (c counts) errors() int64 { return c.Status + c.Timeout + c.Connect + c.Other }

// window is one histogram of response latencies (µs) and its counters.
type window struct {
	hist *hdr.Histogram
	counts
	sumUS, minUS, maxUS int64 // exact, beside the histogram's bucketed values
}

func newWindow() *window { return &window{hist: hdr.New(LowestUS, HighestUS, Digits)} }

func (w *window) done(o outcome, us int64) {
	switch o {
	case answered, badStatus:
		w.Completed++
		if o == badStatus {
			w.Status++
		}
		_ = w.hist.RecordValue(us) // us is within range: LatencyUS clamps it
		if w.hist.TotalCount() == 1 || us < w.minUS {
			w.minUS = us
		}
		w.maxUS = max(w.maxUS, us)
		w.sumUS += us
	case timedOut:
		w.Timeout++
	case refused:
		w.Connect++
	case failed:
		w.Other++
	case cancelled:
		w.Cancelled++
	}
}

// Recorder collects every request's outcome for the current interval and the whole run; safe for many goroutines.
type Recorder struct {
	mu          sync.Mutex
	interval    *window
	total       *window
	firstErrors map[string]string // one message per error kind, to say why
	raw         []int64           // every latency, when asked for (tests)
	keepRaw     bool
}

// NewRecorder is an empty recorder; keepRaw also keeps each latency (at most MaxRawLatency).
func NewRecorder(keepRaw bool) *Recorder {
	return &Recorder{interval: newWindow(), total: newWindow(), firstErrors: map[string]string{}, keepRaw: keepRaw}
}

// Sent counts a request handed to a connection.
func (r *Recorder) Sent() {
	r.mu.Lock()
	r.interval.Sent++
	r.total.Sent++
	r.mu.Unlock()
}

// Done records how a request ended; us is its latency from the intended send time.
func (r *Recorder) Done(o outcome, us int64, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.interval.done(o, us)
	r.total.done(o, us)
	if err != nil && o != cancelled {
		kind := errorKinds[o]
		if _, seen := r.firstErrors[kind]; !seen {
			r.firstErrors[kind] = err.Error()
		}
	}
	if r.keepRaw && (o == answered || o == badStatus) && len(r.raw) < MaxRawLatency {
		r.raw = append(r.raw, us)
	}
}

// TakeInterval returns the interval so far and starts a new one.
func (r *Recorder) TakeInterval() *window {
	r.mu.Lock()
	defer r.mu.Unlock()
	taken := r.interval
	r.interval = newWindow()
	return taken
}

var errorKinds = map[outcome]string{badStatus: "status", timedOut: "timeout", refused: "connect", failed: "other"}
