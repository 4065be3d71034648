package httpload

import (
	"context"
	"time"
)

// Each sender's timer: it sleeps until shortly before its request's intended time (on a kernel
// timer, see sleeper: the Go runtime's own timers wake up to 1 ms late when the process is
// idle) and then spins the rest of the way.
const (
	maxSpin   = 30 * time.Microsecond // the spin before a deadline, at most
	sleepStep = 20 * time.Millisecond // a long wait is slept in steps, to see a stop
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

// until waits for t: it sleeps to `margin` before t, then spins; false when ctx ends first.
func (s *sleeper) until(ctx context.Context, t time.Time, margin time.Duration) bool {
	for {
		if ctx.Err() != nil {
			return false
		}
		left := time.Until(t)
		if left <= 0 {
			return true
		}
		if left > margin {
			s.sleep(min(left-margin, sleepStep))
			continue
		}
		for time.Now().Before(t) {
		}
		return true
	}
}
