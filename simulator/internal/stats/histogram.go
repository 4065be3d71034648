// Package stats holds ack-latency histograms that shards fill without locks and
// that merge exactly across shards and processes: HdrHistogram (values in µs,
// 1 µs .. 100 s, 3 significant digits, as kblat's), plus the exact sum and
// maximum for the mean and the max.
package stats

import (
	"fmt"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// The range and precision of every histogram (Kneeboard's stored histograms).
const (
	LowestUS  = 1
	HighestUS = 100_000_000
	Digits    = 3
)

// Histogram counts latencies in microseconds. The zero value is empty and
// ready; its HDR counts (~150 KiB) are allocated at the first value.
type Histogram struct {
	h     *hdr.Histogram
	SumUS uint64
	MaxUS uint64
}

// Wire is a histogram as a child process hands it to its parent: the HDR
// encoding and the exact sum and maximum.
type Wire struct {
	HDR   string `json:"hdr"`
	SumUS uint64 `json:"sum"`
	MaxUS uint64 `json:"max"`
}

func (h *Histogram) counts() *hdr.Histogram {
	if h.h == nil {
		h.h = hdr.New(LowestUS, HighestUS, Digits)
	}
	return h.h
}

// Record adds one latency in microseconds (clamped into the range).
func (h *Histogram) Record(us uint64) {
	_ = h.counts().RecordValue(int64(min(max(us, LowestUS), HighestUS)))
	h.SumUS += us
	h.MaxUS = max(h.MaxUS, us)
}

// Merge adds all of o's values into h (exactly: same buckets, counts summed).
func (h *Histogram) Merge(o *Histogram) {
	if o == nil || o.h == nil {
		return
	}
	h.counts().Merge(o.h)
	h.SumUS += o.SumUS
	h.MaxUS = max(h.MaxUS, o.MaxUS)
}

// Reset empties the histogram, keeping its counts' memory.
func (h *Histogram) Reset() {
	if h.h != nil {
		h.h.Reset()
	}
	h.SumUS, h.MaxUS = 0, 0
}

// Total is the number of values recorded.
func (h *Histogram) Total() uint64 {
	if h.h == nil {
		return 0
	}
	return uint64(h.h.TotalCount())
}

// PercentileMS is the value at percentile p (0..100) in milliseconds, 0 when
// empty: the top of the HDR bucket holding the value of rank
// max(1, int(p/100·n + 0.5)), the rule Python's hdrh applies to a stored one.
func (h *Histogram) PercentileMS(p float64) float64 {
	if h.Total() == 0 {
		return 0
	}
	return float64(h.h.ValueAtPercentile(p)) / 1000
}

// MeanMS returns the exact mean in milliseconds, 0 when empty.
func (h *Histogram) MeanMS() float64 {
	if h.Total() == 0 {
		return 0
	}
	return float64(h.SumUS) / float64(h.Total()) / 1000
}

// MaxMS returns the largest recorded latency in milliseconds.
func (h *Histogram) MaxMS() float64 { return float64(h.MaxUS) / 1000 }

// Encode is the HDR histogram in Kneeboard's stored form: V2 compressed, base64.
func (h *Histogram) Encode() (string, error) {
	b, err := h.counts().Encode(hdr.V2CompressedEncodingCookieBase)
	return string(b), err
}

// Wire returns h as a child hands it to its parent.
func (h *Histogram) Wire() (*Wire, error) {
	encoded, err := h.Encode()
	if err != nil {
		return nil, err
	}
	return &Wire{HDR: encoded, SumUS: h.SumUS, MaxUS: h.MaxUS}, nil
}

// MergeWire decodes a child's histogram and adds it into h.
func (h *Histogram) MergeWire(w *Wire) error {
	if w == nil {
		return nil
	}
	decoded, err := hdr.Decode([]byte(w.HDR))
	if err != nil {
		return fmt.Errorf("a child's latency histogram: %w", err)
	}
	if dropped := h.counts().Merge(decoded); dropped != 0 {
		return fmt.Errorf("a child's latency histogram: %d values out of range", dropped)
	}
	h.SumUS += w.SumUS
	h.MaxUS = max(h.MaxUS, w.MaxUS)
	return nil
}
