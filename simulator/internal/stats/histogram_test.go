package stats

import (
	"math/rand"
	"slices"
	"testing"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// known is a latency set with a long tail: 1..1000 ms in 1 ms steps, plus a
// few thousand random values between 20 µs and 5 ms.
func known() []uint64 {
	var values []uint64
	for i := uint64(1); i <= 1000; i++ {
		values = append(values, i*1000)
	}
	r := rand.New(rand.NewSource(7))
	for range 4000 {
		values = append(values, 20+uint64(r.Int63n(5000)))
	}
	return values
}

// rankValue is the raw value of HDR's rank for percentile p: max(1, int(p/100·n + 0.5)).
func rankValue(sorted []uint64, p float64) uint64 {
	rank := max(1, int(p/100*float64(len(sorted))+0.5))
	return sorted[rank-1]
}

// bucketTop is the highest value HDR counts in the same bucket as v.
func bucketTop(v int64) int64 {
	one := hdr.New(LowestUS, HighestUS, Digits)
	_ = one.RecordValue(v)
	return one.Max()
}

func TestEncodedPercentilesAreThoseOfTheRawValues(t *testing.T) {
	values := known()
	var h Histogram
	for _, v := range values {
		h.Record(v)
	}
	encoded, err := h.Encode()
	if err != nil {
		t.Fatal(err)
	}
	decoded, err := hdr.Decode([]byte(encoded))
	if err != nil {
		t.Fatal(err)
	}
	if decoded.TotalCount() != int64(len(values)) || h.Total() != uint64(len(values)) {
		t.Fatalf("count %d / %d, want %d", decoded.TotalCount(), h.Total(), len(values))
	}
	sorted := slices.Sorted(slices.Values(values))
	for _, p := range []float64{50, 90, 99, 99.9} {
		raw := rankValue(sorted, p)
		want := float64(bucketTop(int64(raw))) / 1000
		if got := float64(decoded.ValueAtPercentile(p)) / 1000; got != want || h.PercentileMS(p) != want {
			t.Errorf("p%v: decoded %v, recorded %v, raw %d µs → want %v", p, got, h.PercentileMS(p), raw, want)
		}
		if diff := want*1000 - float64(raw); diff < 0 || diff > float64(raw)/1000 {
			t.Errorf("p%v: %v ms is not within 3 significant digits of %d µs", p, want, raw)
		}
	}
	var sum uint64
	for _, v := range values {
		sum += v
	}
	if h.MaxMS() != 1000 || h.MeanMS() != float64(sum)/float64(len(values))/1000 {
		t.Errorf("max %v mean %v", h.MaxMS(), h.MeanMS())
	}
}

func TestWireMergeIsExact(t *testing.T) {
	values := known()
	var whole, a, b Histogram
	for i, v := range values {
		whole.Record(v)
		if i%3 == 0 {
			a.Record(v)
		} else {
			b.Record(v)
		}
	}
	var merged Histogram
	for _, part := range []*Histogram{&a, &b} {
		w, err := part.Wire()
		if err != nil {
			t.Fatal(err)
		}
		if err := merged.MergeWire(w); err != nil {
			t.Fatal(err)
		}
	}
	if merged.Total() != a.Total()+b.Total() || merged.Total() != whole.Total() {
		t.Fatalf("merged %d, parts %d + %d", merged.Total(), a.Total(), b.Total())
	}
	got, _ := merged.Encode()
	want, _ := whole.Encode()
	if got != want || merged.SumUS != whole.SumUS || merged.MaxUS != whole.MaxUS {
		t.Fatal("merging the parts is not the histogram of the whole")
	}
	if err := merged.MergeWire(&Wire{HDR: "not base64"}); err == nil {
		t.Fatal("a broken histogram was merged")
	}
}

func TestEmptyAndClamped(t *testing.T) {
	var empty Histogram
	if empty.PercentileMS(99) != 0 || empty.MeanMS() != 0 || empty.Total() != 0 {
		t.Error("empty histogram")
	}
	empty.Merge(&Histogram{})
	if _, err := empty.Encode(); err != nil {
		t.Fatal(err)
	}
	var h Histogram
	h.Record(0)
	h.Record(1 << 40)
	if h.Total() != 2 || h.PercentileMS(50) != 0.001 || h.MaxUS != 1<<40 {
		t.Errorf("clamping: total %d p50 %v max %d", h.Total(), h.PercentileMS(50), h.MaxUS)
	}
	h.Reset()
	if h.Total() != 0 || h.SumUS != 0 {
		t.Error("reset")
	}
}
