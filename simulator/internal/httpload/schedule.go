package httpload

import (
	"math"
	"time"
)

// The histograms' range and precision, as Kneeboard stores them: 1 µs to 100 s, 3 significant digits.
const (
	LowestUS  = 1
	HighestUS = 100_000_000
	Digits    = 3
)

// Schedule is the open loop's timetable: request i is intended at Start + i/Rate,
// whether or not a connection is free then.
type Schedule struct {
	Start time.Time
	Rate  float64
	Total int64 // requests intended before Start + duration
}

// NewSchedule is the timetable of `rate` requests/s for `d` from `start`.
func NewSchedule(start time.Time, rate float64, d time.Duration) Schedule {
	// i/rate < d for i = 0..Total-1; the epsilon keeps 0.1 s × 30/s at 3, not 4.
	total := int64(math.Ceil(d.Seconds()*rate - 1e-9))
	return Schedule{Start: start, Rate: rate, Total: max(total, 1)}
}

// Intended is when request i should be sent.
func (s Schedule) Intended(i int64) time.Time {
	return s.Start.Add(time.Duration(float64(i) * float64(time.Second) / s.Rate))
}

// DueBy is how many requests are intended at or before t (at most Total).
func (s Schedule) DueBy(t time.Time) int64 {
	elapsed := t.Sub(s.Start).Seconds()
	if elapsed < 0 {
		return 0
	}
	return min(int64(math.Floor(elapsed*s.Rate))+1, s.Total)
}

// LatencyUS is a request's latency from its intended send time, in whole µs within
// the histogram's range: time spent queued behind busy connections counts.
func LatencyUS(intended, done time.Time) int64 {
	return min(max(done.Sub(intended).Microseconds(), LowestUS), HighestUS)
}
