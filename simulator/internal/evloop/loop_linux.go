package evloop

import (
	"syscall"
	"time"
)

// Handler is what a shard implements to be driven by Loop.
type Handler interface {
	// Event handles readiness of one fd (events is an epoll mask) at time now
	// since start.
	Event(fd int, events uint32, now time.Duration)
	// Tick runs after each wake-up with the time since start; it
	// returns false to end the loop.
	Tick(now time.Duration) bool
}

// Loop waits for events and ticks at least every tick until Tick returns
// false. Times passed to h are measured from start.
func Loop(p *Poller, start time.Time, tick time.Duration, h Handler) error {
	timeout := max(int(tick/time.Millisecond), 1)
	for {
		events, err := p.Wait(timeout)
		if err != nil {
			return err
		}
		now := time.Since(start)
		for _, ev := range events {
			h.Event(int(ev.Fd), ev.Events, now)
		}
		if !h.Tick(time.Since(start)) {
			return nil
		}
		if n := len(events); n > 0 && n < coalesceBelow {
			// Few sockets were ready: let more become ready before the next
			// wait, so one wake-up (a context switch among a dozen busy
			// processes on two cores) serves many connections.
			_ = syscall.Nanosleep(&coalesceWait, nil)
		}
	}
}

// A wake-up that found fewer than coalesceBelow ready sockets is followed by
// a pause of coalesceWait. This bounds the latency a loop adds to about 1 ms
// and only applies when the loop is lightly loaded; a loaded loop finds
// many sockets ready and never pauses.
const coalesceBelow = 16

var coalesceWait = syscall.Timespec{Nsec: int64(time.Millisecond)}

// Errored reports whether an epoll mask signals an error or hang-up.
func Errored(events uint32) bool {
	return events&(syscall.EPOLLERR|syscall.EPOLLHUP) != 0
}
