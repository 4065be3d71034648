package httpload

import (
	"testing"
	"time"
)

func TestScheduleSpacesRequestsEvenly(t *testing.T) {
	start := time.Unix(1_700_000_000, 0)
	s := NewSchedule(start, 500, 5*time.Second)
	if s.Total != 2500 {
		t.Fatalf("5 s at 500/s: want 2500 requests, got %d", s.Total)
	}
	if got := s.Intended(0); !got.Equal(start) {
		t.Fatalf("request 0 at %v, want the start", got)
	}
	if got := s.Intended(1000).Sub(start); got != 2*time.Second {
		t.Fatalf("request 1000 at +%v, want +2s", got)
	}
	if got := s.Intended(s.Total - 1).Sub(start); got >= 5*time.Second {
		t.Fatalf("the last request is due at +%v, past the duration", got)
	}
	if n := NewSchedule(start, 30, 100*time.Millisecond).Total; n != 3 {
		t.Fatalf("0.1 s at 30/s: want 3 requests (0, 33, 67 ms), got %d", n)
	}
	if n := NewSchedule(start, 0.5, time.Second).Total; n != 1 {
		t.Fatalf("1 s at 0.5/s: want 1 request, got %d", n)
	}
}

func TestDueByCountsRequestsIntendedSoFar(t *testing.T) {
	start := time.Unix(1_700_000_000, 0)
	s := NewSchedule(start, 100, 10*time.Second)
	for _, c := range []struct {
		at   time.Duration
		want int64
	}{{-time.Second, 0}, {0, 1}, {9 * time.Millisecond, 1}, {10 * time.Millisecond, 2}, {time.Second, 101}, {time.Hour, 1000}} {
		if got := s.DueBy(start.Add(c.at)); got != c.want {
			t.Errorf("DueBy(+%v) = %d, want %d", c.at, got, c.want)
		}
	}
}

func TestLatencyCountsFromTheIntendedTime(t *testing.T) {
	intended := time.Unix(1_700_000_000, 0)
	// Sent 990 ms late because every connection was held by a stalled server, answered 10 ms later:
	// the latency is 1 s, not 10 ms.
	if got := LatencyUS(intended, intended.Add(time.Second)); got != 1_000_000 {
		t.Fatalf("want 1000000 µs, got %d", got)
	}
	if got := LatencyUS(intended, intended.Add(-time.Millisecond)); got != LowestUS {
		t.Fatalf("a clock step back clamps to %d µs, got %d", LowestUS, got)
	}
	if got := LatencyUS(intended, intended.Add(time.Hour)); got != HighestUS {
		t.Fatalf("beyond the range clamps to %d µs, got %d", HighestUS, got)
	}
}
