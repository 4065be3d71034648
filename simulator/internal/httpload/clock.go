package httpload

import (
	"context"
	"sync/atomic"
	"time"
)

// The pacer's timer: it sleeps until shortly before a deadline (on a kernel timer, see sleeper;
// the Go runtime's own timers wake up to 1 ms late when the process is idle) and then spins
// the rest of the way.
const (
	maxSpin   = 30 * time.Microsecond // the spin before a deadline, at most
	sleepStep = 20 * time.Millisecond // a long wait is slept in steps, to see a stop
	spinUpTo  = 5000                  // requests/s: the highest rate at which the pacer spins
)

// spinMargin is how long before each deadline the pacer stops sleeping and spins: at most
// maxSpin, and at most a sixteenth of the gap between requests. Above spinUpTo requests/s it
// does not spin: the timer's own wake-up (tens of µs) is then the lateness, well under a
// millisecond, and spinning would cost CPU on every request of a high rate.
func spinMargin(rate float64) time.Duration {
	if rate > spinUpTo {
		return 0
	}
	return min(maxSpin, time.Duration(float64(time.Second)/rate/16))
}

// clock releases the schedule's requests at their intended times: due is how many have been
// released. A sender waits for its request through its own waker, found in a ring slot, so
// the pacer and the senders share no lock.
type clock struct {
	sched  Schedule
	margin time.Duration
	due    atomic.Int64
	ring   []atomic.Pointer[waker]
}

// waker is one sender's wake-up channel (one token at most).
type waker struct{ ch chan struct{} }

func newWaker() *waker { return &waker{ch: make(chan struct{}, 1)} }

// newClock is the pacer for sched with room for `senders` waiting senders.
func newClock(sched Schedule, senders int) *clock {
	return &clock{sched: sched, margin: spinMargin(sched.Rate), ring: make([]atomic.Pointer[waker], senders)}
}

// wait blocks until request i is due; false when ctx ends first. Fewer than len(ring) requests
// are ever claimed and not yet due, so no two waiting senders share a slot.
func (c *clock) wait(ctx context.Context, i int64, w *waker) bool {
	if i < c.due.Load() {
		return true
	}
	slot := &c.ring[i%int64(len(c.ring))]
	slot.Store(w)
	if i < c.due.Load() { // released while registering
		if !slot.CompareAndSwap(w, nil) {
			<-w.ch // the pacer took the waker: its token is on its way
		}
		return true
	}
	select {
	case <-w.ch:
		return true
	case <-ctx.Done():
		if !slot.CompareAndSwap(w, nil) {
			<-w.ch
		}
		return false
	}
}

// release makes request i due and wakes its sender if one waits for it.
func (c *clock) release(i int64) {
	c.due.Store(i + 1)
	if w := c.ring[i%int64(len(c.ring))].Swap(nil); w != nil {
		w.ch <- struct{}{}
	}
}

// run releases every request at its intended time until all are due or ctx ends.
func (c *clock) run(ctx context.Context) {
	timer := newSleeper()
	defer timer.close()
	for i := int64(0); i < c.sched.Total; {
		if !c.until(ctx, timer, c.sched.Intended(i)) {
			return
		}
		for n := c.sched.DueBy(time.Now()); i < n; i++ {
			c.release(i)
		}
	}
}

// until sleeps to shortly before t, then spins to t; false when ctx ends first.
func (c *clock) until(ctx context.Context, timer *sleeper, t time.Time) bool {
	for {
		if ctx.Err() != nil {
			return false
		}
		left := time.Until(t)
		if left <= 0 {
			return true
		}
		if left > c.margin {
			timer.sleep(min(left-c.margin, sleepStep))
			continue
		}
		for time.Now().Before(t) {
		}
		return true
	}
}
