package httpload

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// The outcome file (--outcomes): every request's outcome counted in fixed buckets by its INTENDED send time
// (10 ms, wider only for runs longer than MaxBuckets × 10 ms), and, with --count-header, the values one
// response header took per bucket. It is written once, when the run ends, as JSON lines:
//
//	{"kbhttp":"outcomes","version":…,"start_ms":…,"bucket_ms":10,"buckets":N,"classes":[…],"header":"X-Backend","values":["b1",…]}
//	{"i":12,"n":[20,0,0,0,0,0,0,0,0],"h":[7,7,6]}         one line per bucket that saw a request: counts per class, per value
//	{"conn":3,"h":[100,0,0]}                              with --count-header: each connection's answers per value
//	{"kbhttp":"outcomes-end","lines":N}                   last (N: the lines before it): a file without it was cut short
const (
	BucketWidth     = 10 * time.Millisecond
	MaxBuckets      = 360_000 // 1 h of 10 ms buckets; a longer run widens its buckets to stay within
	MaxHeaderValues = 64      // distinct values counted; the rest are counted as OtherValue
	OtherValue      = "other"
)

// class is a request's outcome as the outcome file counts it.
type class int

const (
	classOK        class = iota // a 2xx or 3xx response
	classConnect                // the connection could not be made (refused, unreachable)
	classReset                  // the connection was reset or closed before the response
	classTimeout                // no response within the timeout
	class5xx                    // a 5xx response
	class4xx                    // a 4xx response
	classTLS                    // the TLS handshake failed
	classOther                  // any other failure (another status, a malformed response)
	classCancelled              // cut off when the run was stopped
	nClasses
)

// ClassNames are the outcome file's classes, in the order of its counts.
var ClassNames = [nClasses]string{"ok", "connect", "reset", "timeout", "http_5xx", "http_4xx", "tls", "other", "cancelled"}

// classOf is the outcome file's class of a request that ended with o (status: the response's, 0 without one).
func classOf(o outcome, status int, err error) class {
	switch o {
	case answered:
		return classOK
	case badStatus:
		switch {
		case status >= 500 && status <= 599:
			return class5xx
		case status >= 400 && status <= 499:
			return class4xx
		}
		return classOther
	case timedOut:
		return classTimeout
	case refused:
		return classConnect
	case tlsFailed:
		return classTLS
	case cancelled:
		return classCancelled
	}
	if errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return classReset
	}
	return classOther
}

// outcomeLog counts outcomes per bucket with atomic adds on preallocated counters (no lock, no allocation per
// request); a header value's column is allocated when the value is first seen.
type outcomeLog struct {
	start  time.Time // bucket 0 begins here (the schedule's start)
	width  time.Duration
	n      int            // buckets
	counts []atomic.Int32 // n × nClasses
	header string         // the header counted ("" when none)

	values  atomic.Pointer[[]valueColumn] // copy on write: readers scan it without a lock
	adding  sync.Mutex
	other   atomic.Pointer[valueColumn] // the values beyond MaxHeaderValues (nil until one is seen)
	written int                         // lines written (the end line's count)
}

// valueColumn is one header value's counts per bucket.
type valueColumn struct {
	value  string
	index  int // in the file's "values"
	counts []atomic.Int32
}

// newOutcomeLog is an empty log of a run of duration d; header is the response header whose values are counted.
func newOutcomeLog(d time.Duration, header string) *outcomeLog {
	width := BucketWidth
	if buckets := int64(d/BucketWidth) + 1; buckets > MaxBuckets {
		width = BucketWidth * time.Duration((buckets+MaxBuckets-1)/MaxBuckets)
	}
	n := int(d/width) + 1
	l := &outcomeLog{width: width, n: n, counts: make([]atomic.Int32, n*int(nClasses)), header: header}
	l.values.Store(&[]valueColumn{})
	return l
}

// bucket is the bucket of a request intended at `intended`, within range.
func (l *outcomeLog) bucket(intended time.Time) int {
	return min(max(int(intended.Sub(l.start)/l.width), 0), l.n-1)
}

// record counts one request; value is the counted header's value (when the request was answered); it returns the
// value's column (-1: none) for the sender's own per-connection counts.
func (l *outcomeLog) record(intended time.Time, c class, answeredWith bool, value string) int {
	b := l.bucket(intended)
	l.counts[b*int(nClasses)+int(c)].Add(1)
	if l.header == "" || !answeredWith {
		return -1
	}
	col := l.column(value)
	col.counts[b].Add(1)
	return col.index
}

// column is value's column, added when first seen (the other column once MaxHeaderValues are known).
func (l *outcomeLog) column(value string) *valueColumn {
	cols := *l.values.Load()
	for i := range cols {
		if cols[i].value == value {
			return &cols[i]
		}
	}
	if other := l.other.Load(); other != nil {
		return other // set only once MaxHeaderValues are known
	}
	l.adding.Lock()
	defer l.adding.Unlock()
	cols = *l.values.Load()
	for i := range cols {
		if cols[i].value == value {
			return &cols[i]
		}
	}
	if len(cols) >= MaxHeaderValues {
		if l.other.Load() == nil {
			l.other.Store(&valueColumn{value: OtherValue, index: MaxHeaderValues, counts: make([]atomic.Int32, l.n)})
		}
		return l.other.Load()
	}
	// The columns already handed out keep their counters: the new slice holds the same ones (atomic.Int32 is
	// not copied: each column's counts slice header is, pointing at the same array).
	grown := make([]valueColumn, len(cols), len(cols)+1)
	for i := range cols {
		grown[i] = valueColumn{value: cols[i].value, index: cols[i].index, counts: cols[i].counts}
	}
	grown = append(grown, valueColumn{value: value, index: len(cols), counts: make([]atomic.Int32, l.n)})
	l.values.Store(&grown)
	return &grown[len(grown)-1]
}

// columns is every value column in file order (other last, when used).
func (l *outcomeLog) columns() []*valueColumn {
	cols := *l.values.Load()
	all := make([]*valueColumn, 0, len(cols)+1)
	for i := range cols {
		all = append(all, &cols[i])
	}
	if other := l.other.Load(); other != nil {
		all = append(all, other)
	}
	return all
}

type outcomesHead struct {
	Kind     string   `json:"kbhttp"` // "outcomes"
	Version  string   `json:"version"`
	StartMS  float64  `json:"start_ms"` // bucket 0's start, ms since the epoch
	BucketMS float64  `json:"bucket_ms"`
	Buckets  int      `json:"buckets"`
	Classes  []string `json:"classes"`
	Header   string   `json:"header,omitempty"`
	Values   []string `json:"values,omitempty"`
}

type bucketLine struct {
	I int     `json:"i"`
	N []int32 `json:"n"`
	H []int32 `json:"h,omitempty"`
}

type connLine struct {
	Conn int     `json:"conn"`
	H    []int32 `json:"h"`
}

type outcomesEnd struct {
	Kind  string `json:"kbhttp"` // "outcomes-end"
	Lines int    `json:"lines"`
}

// write writes the whole log to f (after the run) and closes it: the head, the buckets that saw a request, each
// connection's counts per value (perConn[k][column]), the end line.
func (l *outcomeLog) write(f *os.File, perConn [][]int32) error {
	var err error
	w := bufio.NewWriterSize(f, 64<<10)
	enc := json.NewEncoder(w)
	cols := l.columns()
	head := outcomesHead{Kind: "outcomes", Version: Version, StartMS: float64(l.start.UnixMicro()) / 1e3,
		BucketMS: float64(l.width) / float64(time.Millisecond), Buckets: l.n, Classes: ClassNames[:], Header: l.header}
	for _, c := range cols {
		head.Values = append(head.Values, c.value)
	}
	put := func(v any) {
		if err == nil {
			err = enc.Encode(v)
			l.written++
		}
	}
	put(head)
	line := bucketLine{N: make([]int32, nClasses)}
	if len(cols) > 0 {
		line.H = make([]int32, len(cols))
	}
	for b := range l.n {
		sum := int32(0)
		for c := range int(nClasses) {
			line.N[c] = l.counts[b*int(nClasses)+c].Load()
			sum += line.N[c]
		}
		if sum == 0 {
			continue
		}
		for k, c := range cols {
			line.H[k] = c.counts[b].Load()
		}
		line.I = b
		put(line)
	}
	for k, counts := range perConn {
		if len(counts) > 0 {
			put(connLine{Conn: k, H: append(counts, make([]int32, len(cols)-len(counts))...)})
		}
	}
	put(outcomesEnd{Kind: "outcomes-end", Lines: l.written}) // the lines before it
	if err == nil {
		err = w.Flush()
	}
	if closeErr := f.Close(); err == nil {
		err = closeErr
	}
	return err
}
