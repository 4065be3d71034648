package httpload

import (
	"runtime"
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
	tlsFailed                // the TLS handshake failed (a certificate that does not verify, a protocol error)
	failed                   // any other transport error
	cancelled                // cut off when the run was stopped (not an error of the server)
)

var errorKinds = map[outcome]string{badStatus: "status", timedOut: "timeout", refused: "connect", tlsFailed: "tls", failed: "other"}

// counts are one window's request counters.
type counts struct {
	Sent      int64 `json:"sent"`
	Completed int64 `json:"completed"` // responses, whatever their status
	Queued    int64 `json:"queued"`    // sent after waiting for a free connection (due while every connection was busy)
	Status    int64 `json:"-"`
	Timeout   int64 `json:"-"`
	Connect   int64 `json:"-"`
	TLS       int64 `json:"-"`
	Other     int64 `json:"-"`
	Cancelled int64 `json:"-"`
	Handshakes
}

// Handshakes are the TLS handshakes a window made.
type Handshakes struct {
	Full    int64 `json:"handshakes"`         // every handshake completed, resumed ones included
	Resumed int64 `json:"handshakes_resumed"` // of which resumed a session (no certificate exchanged)
}

// errors is every error a window counted.
func (c counts) errors() int64 { return c.Status + c.Timeout + c.Connect + c.TLS + c.Other }

func (c *counts) add(o counts) {
	c.Sent += o.Sent
	c.Completed += o.Completed
	c.Queued += o.Queued
	c.Status += o.Status
	c.Timeout += o.Timeout
	c.Connect += o.Connect
	c.TLS += o.TLS
	c.Other += o.Other
	c.Cancelled += o.Cancelled
	c.Full += o.Full
	c.Resumed += o.Resumed
}

// dist is one latency distribution (µs): a histogram and its exact sum, min and max.
type dist struct {
	hist                *hdr.Histogram
	sumUS, minUS, maxUS int64
}

func newDist() dist { return dist{hist: hdr.New(LowestUS, HighestUS, Digits)} }

func (d *dist) record(us int64) {
	_ = d.hist.RecordValue(us) // us is within range: LatencyUS clamps it
	if d.hist.TotalCount() == 1 || us < d.minUS {
		d.minUS = us
	}
	d.maxUS = max(d.maxUS, us)
	d.sumUS += us
}

func (d *dist) merge(o *dist) {
	if o.hist.TotalCount() == 0 {
		return
	}
	if d.hist.TotalCount() == 0 || o.minUS < d.minUS {
		d.minUS = o.minUS
	}
	d.hist.Merge(o.hist)
	d.maxUS = max(d.maxUS, o.maxUS)
	d.sumUS += o.sumUS
}

func (d *dist) reset() {
	d.hist.Reset()
	d.sumUS, d.minUS, d.maxUS = 0, 0, 0
}

// window is one period's distributions and counters: the response time from the intended send
// time (stalls included), the service time from the actual send, and the generator's lateness
// (actual send minus intended) of the requests that found a connection free when due (the
// others, queued, waited for the connections, and are counted).
type window struct {
	response, service, lateness dist
	counts
}

func newWindow() *window {
	return &window{response: newDist(), service: newDist(), lateness: newDist()}
}

func (w *window) merge(o *window) {
	w.response.merge(&o.response)
	w.service.merge(&o.service)
	w.lateness.merge(&o.lateness)
	w.counts.add(o.counts)
}

func (w *window) reset() {
	w.response.reset()
	w.service.reset()
	w.lateness.reset()
	w.counts = counts{}
}

// shard is the part of the recorder a few senders write to, under its own lock: the lock is
// shared only with the reporter, once per interval, and with senders of the same shard.
type shard struct {
	mu          sync.Mutex
	w           *window
	firstErrors map[string]string
	raw         []int64
	_           [64]byte // keep shards on their own cache lines
}

// Recorder collects every request's outcome per shard; the reporter folds the shards into the
// interval and the whole run.
type Recorder struct {
	shards   []*shard
	total    *window
	interval *window // the reporter's scratch window
	keepRaw  bool
}

// NewRecorder is an empty recorder; keepRaw also keeps each response time (at most MaxRawLatency).
func NewRecorder(keepRaw bool) *Recorder {
	r := &Recorder{total: newWindow(), interval: newWindow(), keepRaw: keepRaw}
	for range 2 * runtime.GOMAXPROCS(0) {
		r.shards = append(r.shards, &shard{w: newWindow(), firstErrors: map[string]string{}})
	}
	return r
}

// shardFor is sender k's shard.
func (r *Recorder) shardFor(k int) *shard { return r.shards[k%len(r.shards)] }

// request is one request's record, written by its sender.
type request struct {
	o                             outcome
	responseUS, serviceUS, lateUS int64
	queued                        bool
	err                           error
}

// record adds one sent request.
func (s *shard) record(q request, keepRaw bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.w
	w.Sent++
	if q.queued {
		w.Queued++ // its wait is the connections', not its timer's: counted here, not as lateness
	} else {
		w.lateness.record(q.lateUS)
	}
	switch q.o {
	case answered, badStatus:
		w.Completed++
		if q.o == badStatus {
			w.Status++
		}
		w.response.record(q.responseUS)
		w.service.record(q.serviceUS)
		if keepRaw && len(s.raw) < MaxRawLatency {
			s.raw = append(s.raw, q.responseUS)
		}
	case timedOut:
		w.Timeout++
	case refused:
		w.Connect++
	case tlsFailed:
		w.TLS++
	case failed:
		w.Other++
	case cancelled:
		w.Cancelled++
	}
	if q.err != nil && q.o != cancelled && q.o != answered {
		if kind := errorKinds[q.o]; s.firstErrors[kind] == "" {
			s.firstErrors[kind] = q.err.Error()
		}
	}
}

// handshake counts one completed TLS handshake.
func (s *shard) handshake(resumed bool) {
	s.mu.Lock()
	s.w.Full++
	if resumed {
		s.w.Resumed++
	}
	s.mu.Unlock()
}

// TakeInterval folds every shard into the interval so far (also added to the run's total) and
// starts a new one; the window returned is valid until the next call.
func (r *Recorder) TakeInterval() *window {
	r.interval.reset()
	for _, s := range r.shards {
		s.mu.Lock()
		r.interval.merge(s.w)
		s.w.reset()
		s.mu.Unlock()
	}
	r.total.merge(r.interval)
	return r.interval
}

// firstErrors is one message per error kind, from whichever shard saw it first.
func (r *Recorder) firstErrors() map[string]string {
	found := map[string]string{}
	for _, s := range r.shards {
		s.mu.Lock()
		for kind, msg := range s.firstErrors {
			if found[kind] == "" {
				found[kind] = msg
			}
		}
		s.mu.Unlock()
	}
	return found
}

// rawLatencies is every kept response time (tests).
func (r *Recorder) rawLatencies() []int64 {
	var all []int64
	for _, s := range r.shards {
		all = append(all, s.raw...)
	}
	return all
}
