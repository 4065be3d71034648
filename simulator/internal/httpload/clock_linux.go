package httpload

import (
	"os"
	"syscall"
	"time"
	"unsafe"
)

const clockMonotonic = 1 // CLOCK_MONOTONIC, linux/time.h

// sleeper waits on a timerfd through the Go runtime's poller: a sender parks like any goroutine
// waiting for I/O (its processor runs the other senders meanwhile) and wakes when the kernel's
// high-resolution timer fires, not when the runtime's timers, rounded up to 1 ms when the
// process is idle, would have woken it.
type sleeper struct {
	fd   uintptr
	file *os.File
}

// newSleeper is a timerfd sleeper; nil (time.Sleep instead) when the kernel refuses one.
func newSleeper() *sleeper {
	fd, _, errno := syscall.Syscall(syscall.SYS_TIMERFD_CREATE, clockMonotonic, syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if errno != 0 {
		return nil
	}
	return &sleeper{fd: fd, file: os.NewFile(fd, "kbhttp-timerfd")} // non-blocking: read through the poller
}

// sleep waits d (at least 1 ns).
func (s *sleeper) sleep(d time.Duration) {
	if s == nil {
		time.Sleep(d)
		return
	}
	spec := [4]int64{0, 0, int64(d / time.Second), int64(d % time.Second)} // struct itimerspec: no interval, the value
	if _, _, errno := syscall.Syscall6(syscall.SYS_TIMERFD_SETTIME, s.fd, 0, uintptr(unsafe.Pointer(&spec)), 0, 0, 0); errno != 0 {
		time.Sleep(d)
		return
	}
	var expirations [8]byte
	_, _ = s.file.Read(expirations[:])
}

// close releases the timerfd.
func (s *sleeper) close() {
	if s != nil {
		s.file.Close()
	}
}
