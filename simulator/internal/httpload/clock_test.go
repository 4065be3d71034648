package httpload

import (
	"context"
	"sync"
	"syscall"
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

// Senders waiting far ahead cost next to nothing: 2,000 of them, each waiting 400 ms (as 2,000
// connections at 5,000 req/s claim their requests), woke every 20 ms before to look for a
// stop: 40,000 kernel timers and reads, about as much CPU as the wait was long on this machine.
func TestFarWaitsCostNextToNoCPU(t *testing.T) {
	cpu := func() time.Duration {
		var u syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
			t.Fatal(err)
		}
		return time.Duration(u.Utime.Nano() + u.Stime.Nano())
	}
	const senders, ahead = 2000, 400 * time.Millisecond
	before, start := cpu(), time.Now()
	var wg sync.WaitGroup
	for range senders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			timer := newSleeper()
			defer timer.close()
			timer.until(context.Background(), start.Add(ahead), spinMargin(5000))
		}()
	}
	wg.Wait()
	used := cpu() - before
	t.Logf("%d senders waiting %v: %v of CPU", senders, ahead, used)
	if used > ahead/4 {
		t.Fatalf("want under %v of CPU for %d waits of %v, used %v", ahead/4, senders, ahead, used)
	}
}
