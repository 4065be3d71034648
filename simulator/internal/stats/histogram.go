// Package stats holds latency histograms that shards fill without locks and
// that merge exactly across shards and processes.
package stats

import (
	"math"
	"math/bits"
)

// subBits sets the precision: 2^subBits buckets per power of two (~3 % error).
const subBits = 4

// Buckets is the number of histogram buckets (values up to 2^36 µs, ~19 h).
const Buckets = (36-subBits)<<subBits + 2<<subBits

// Histogram counts latencies in microseconds in log-linear buckets.
type Histogram struct {
	Counts [Buckets]uint64
	Total  uint64
	SumUS  uint64
	MaxUS  uint64
}

func bucketOf(us uint64) int {
	if us < 2<<subBits {
		return int(us)
	}
	e := bits.Len64(us) - subBits - 1
	i := e<<subBits + int(us>>uint(e))
	return min(i, Buckets-1)
}

// bucketMid returns a representative value (midpoint) of bucket i in µs.
func bucketMid(i int) float64 {
	if i < 2<<subBits {
		return float64(i)
	}
	e := i>>subBits - 1
	m := uint64(i&(1<<subBits-1) + 1<<subBits)
	lo := m << uint(e)
	return float64(lo) + float64(uint64(1)<<uint(e)-1)/2
}

// Record adds one latency in microseconds.
func (h *Histogram) Record(us uint64) {
	h.Counts[bucketOf(us)]++
	h.Total++
	h.SumUS += us
	h.MaxUS = max(h.MaxUS, us)
}

// Merge adds all of o's counts into h.
func (h *Histogram) Merge(o *Histogram) {
	for i, c := range o.Counts {
		h.Counts[i] += c
	}
	h.Total += o.Total
	h.SumUS += o.SumUS
	h.MaxUS = max(h.MaxUS, o.MaxUS)
}

// Reset clears the histogram.
func (h *Histogram) Reset() { *h = Histogram{} }

// QuantileMS returns the q-quantile (0..1) in milliseconds, 0 when empty.
func (h *Histogram) QuantileMS(q float64) float64 {
	if h.Total == 0 {
		return 0
	}
	rank := uint64(math.Ceil(q * float64(h.Total)))
	rank = max(rank, 1)
	var seen uint64
	for i, c := range h.Counts {
		seen += c
		if seen >= rank {
			return min(bucketMid(i), float64(h.MaxUS)) / 1000
		}
	}
	return float64(h.MaxUS) / 1000
}

// MeanMS returns the exact mean in milliseconds, 0 when empty.
func (h *Histogram) MeanMS() float64 {
	if h.Total == 0 {
		return 0
	}
	return float64(h.SumUS) / float64(h.Total) / 1000
}

// MaxMS returns the largest recorded latency in milliseconds.
func (h *Histogram) MaxMS() float64 { return float64(h.MaxUS) / 1000 }

// Sparse is the compact wire form of a histogram: [bucket, count] pairs plus
// the exact totals, used when child processes report to their parent.
type Sparse struct {
	Buckets [][2]uint64 `json:"b"`
	Total   uint64      `json:"n"`
	SumUS   uint64      `json:"sum"`
	MaxUS   uint64      `json:"max"`
}

// Sparse returns the compact form of h.
func (h *Histogram) Sparse() *Sparse {
	s := &Sparse{Total: h.Total, SumUS: h.SumUS, MaxUS: h.MaxUS}
	for i, c := range h.Counts {
		if c != 0 {
			s.Buckets = append(s.Buckets, [2]uint64{uint64(i), c})
		}
	}
	return s
}

// MergeSparse adds a compact histogram into h, ignoring out-of-range buckets.
func (h *Histogram) MergeSparse(s *Sparse) {
	if s == nil {
		return
	}
	for _, bc := range s.Buckets {
		if bc[0] < Buckets {
			h.Counts[bc[0]] += bc[1]
		}
	}
	h.Total += s.Total
	h.SumUS += s.SumUS
	h.MaxUS = max(h.MaxUS, s.MaxUS)
}
