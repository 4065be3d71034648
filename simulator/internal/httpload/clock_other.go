//go:build !linux

package httpload

import "time"

func preciseTimers() {}

func nanosleep(d time.Duration) { time.Sleep(d) }
