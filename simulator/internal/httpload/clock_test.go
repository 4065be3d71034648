package httpload

import (
	"context"
	"sync"
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

// The pacer releases each request on time: the old sender, a Go timer per request, woke up to
// 1 ms late whenever the process was idle (the runtime's poller sleeps in whole milliseconds).
func TestThePacerReleasesRequestsOnTime(t *testing.T) {
	sched := NewSchedule(time.Now().Add(10*time.Millisecond), 2000, 500*time.Millisecond)
	c := newClock(sched, 4)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	go c.run(ctx)
	late := make([]time.Duration, sched.Total)
	var next int64
	var mu sync.Mutex
	var senders sync.WaitGroup
	for range 4 {
		senders.Add(1)
		go func() {
			defer senders.Done()
			w := newWaker()
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= sched.Total || !c.wait(ctx, i, w) {
					return
				}
				late[i] = time.Since(sched.Intended(i))
			}
		}()
	}
	senders.Wait()
	if ctx.Err() != nil {
		t.Fatal("the schedule did not finish")
	}
	within := 0
	for _, d := range late {
		if d >= 0 && d < 200*time.Microsecond {
			within++
		}
	}
	if within < len(late)*3/4 {
		t.Fatalf("want most of %d requests released within 200 µs of their time, got %d", len(late), within)
	}
}

func TestTheWaitEndsWhenSendingStops(t *testing.T) {
	c := newClock(NewSchedule(time.Now().Add(time.Hour), 1, time.Hour), 1)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan bool)
	go func() { done <- c.wait(ctx, 0, newWaker()) }()
	time.Sleep(10 * time.Millisecond)
	cancel()
	if <-done {
		t.Fatal("want false: sending stopped before the request was due")
	}
}
