package stats

import (
	"math"
	"testing"
)

func TestBucketsAreMonotonicAndPrecise(t *testing.T) {
	prev := -1
	for us := uint64(0); us < 1<<22; us += 1 + us/64 {
		b := bucketOf(us)
		if b < prev {
			t.Fatalf("bucket of %d went back: %d < %d", us, b, prev)
		}
		prev = b
		if mid := bucketMid(b); us > 32 && math.Abs(mid-float64(us))/float64(us) > 0.04 {
			t.Fatalf("%d µs in bucket %d (mid %.0f): error too large", us, b, mid)
		}
	}
}

func TestQuantilesAndMerge(t *testing.T) {
	var a, b Histogram
	for i := uint64(1); i <= 1000; i++ {
		a.Record(i * 1000) // 1..1000 ms
	}
	b.MergeSparse(a.Sparse())
	for _, h := range []*Histogram{&a, &b} {
		if p50 := h.QuantileMS(0.5); math.Abs(p50-500) > 20 {
			t.Errorf("p50 %.1f", p50)
		}
		if p99 := h.QuantileMS(0.99); math.Abs(p99-990) > 40 {
			t.Errorf("p99 %.1f", p99)
		}
		if h.MeanMS() != 500.5 || h.MaxMS() != 1000 {
			t.Errorf("mean %.2f max %.2f", h.MeanMS(), h.MaxMS())
		}
	}
	var empty Histogram
	if empty.QuantileMS(0.99) != 0 || empty.MeanMS() != 0 {
		t.Error("empty histogram")
	}
}
