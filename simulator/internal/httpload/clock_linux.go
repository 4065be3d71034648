package httpload

import (
	"syscall"
	"time"
)

const prSetTimerSlack = 29 // PR_SET_TIMERSLACK, linux/prctl.h

// preciseTimers sets this OS thread's timer slack to 1 ns (the default 50 µs delays every wake-up).
func preciseTimers() {
	_, _, _ = syscall.RawSyscall(syscall.SYS_PRCTL, prSetTimerSlack, 1, 0)
}

// nanosleep blocks this OS thread for d (a signal may end it early: the caller checks the time).
func nanosleep(d time.Duration) {
	ts := syscall.NsecToTimespec(int64(d))
	_ = syscall.Nanosleep(&ts, nil)
}
