//go:build !linux

package httpload

import "time"

// sleeper is time.Sleep where there is no timerfd.
type sleeper struct{}

func newSleeper() *sleeper { return nil }

func (s *sleeper) sleep(d time.Duration) { time.Sleep(d) }

func (s *sleeper) close() {}
