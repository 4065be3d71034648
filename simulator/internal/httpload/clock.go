package httpload

import (
	"context"
	"time"
)

// Each sender's timer: a long wait is on the Go runtime's timer (which a stop interrupts), the
// last few milliseconds on a kernel timer (see sleeper: the runtime's own timers wake up to 1 ms
// late when the process is idle), and the rest of the way it spins.
const (
	maxSpin   = 30 * time.Microsecond // the spin before a deadline, at most
	nearSleep = 2 * time.Millisecond  // the kernel timer's stretch before the spin, at most
	spinUpTo  = 5000                  // requests/s: the highest rate at which senders spin
)

// spinMargin is how long before its deadline a sender stops sleeping and spins: at most
// maxSpin, and at most a sixteenth of the gap between requests. Above spinUpTo requests/s it
// does not spin: the timer's own wake-up (tens of µs) is then the lateness, well under a
// millisecond, and spinning would cost CPU on every request of a high rate.
func spinMargin(rate float64) time.Duration {
	if rate > spinUpTo {
		return 0
	}
	return min(maxSpin, time.Duration(float64(time.Second)/rate/16))
}

// until waits for t: on the runtime's timer to `nearSleep` + `margin` before t, on the kernel's
// timer to `margin` before t, then it spins; false when ctx ends first. One wake-up of each per
// request, however far ahead: a sender claims its request up to connections / rate ahead (0.9 s
// for 4,200 connections at 4,800 req/s), and waking every 20 ms to look for a stop, as kbhttp
// did, cost 210,000 wake-ups a second there and more CPU than the requests themselves.
func (s *sleeper) until(ctx context.Context, t time.Time, margin time.Duration) bool {
	for {
		if ctx.Err() != nil {
			return false
		}
		left := time.Until(t)
		if left <= 0 {
			return true
		}
		if left > margin+nearSleep {
			if !pause(ctx, left-margin-nearSleep) {
				return false
			}
			continue
		}
		if left > margin {
			s.sleep(left - margin)
			continue
		}
		for time.Now().Before(t) {
		}
		return true
	}
}
