package httpload

import (
	"context"
	"testing"
	"time"
)

func TestTheSpinBeforeEachDeadlineIsShortAndAtMostASixteenthOfTheGapAndNoneAtHighRates(t *testing.T) {
	for _, c := range []struct {
		rate float64
		want time.Duration
	}{{10, maxSpin}, {2000, maxSpin}, {5000, 12500 * time.Nanosecond}, {10_000, 0}, {100_000, 0}} {
		if got := spinMargin(c.rate); got != c.want {
			t.Errorf("spinMargin(%g) = %v, want %v", c.rate, got, c.want)
		}
	}
}

// The timer is on time: the sender of kbhttp 0.1, a Go timer per request, woke up to 1 ms late
// whenever the process was idle (the runtime's poller sleeps in whole milliseconds).
func TestTheTimerWakesOnTime(t *testing.T) {
	timer := newSleeper()
	defer timer.close()
	within := 0
	const n = 200
	for range n {
		deadline := time.Now().Add(700 * time.Microsecond)
		if !timer.until(context.Background(), deadline, spinMargin(2000)) {
			t.Fatal("no stop was asked for")
		}
		if late := time.Since(deadline); late >= 0 && late < 200*time.Microsecond {
			within++
		}
	}
	if within < n*3/4 {
		t.Fatalf("want most of %d waits of 0.7 ms to end within 200 µs of their deadline, got %d", n, within)
	}
}

func TestTheWaitEndsWhenSendingStops(t *testing.T) {
	timer := newSleeper()
	defer timer.close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan bool)
	go func() { done <- timer.until(ctx, time.Now().Add(time.Hour), 0) }()
	time.Sleep(10 * time.Millisecond)
	cancel()
	select {
	case ok := <-done:
		if ok {
			t.Fatal("want false: sending stopped before the request was due")
		}
	case <-time.After(time.Second):
		t.Fatal("the wait did not see the stop")
	}
}
