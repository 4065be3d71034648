// Command kblat reads dnsperf's -v output on stdin, records every answer's
// latency in an HDR histogram and writes everything else through to stdout,
// with one JSON line per dnsperf interval and one for the whole run.
//
//	dnsperf ... -S 1 -v | kblat
//
// It reads in batches (5 ms apart while dnsperf has nothing more), so the
// output lags dnsperf by at most a few ms. It ignores SIGINT and SIGTERM: when dnsperf is stopped, kblat still reads to
// the end of its output and prints the run's histogram.
package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"kneeboard/simulator/internal/dnslat"
)

func main() {
	signal.Ignore(syscall.SIGINT, syscall.SIGTERM)
	if len(os.Args) > 1 {
		fmt.Fprintln(os.Stderr, "kblat: takes no arguments; usage: dnsperf ... -v | kblat")
		os.Exit(2)
	}
	if err := dnslat.Filter(os.Stdin, os.Stdout, 5*time.Millisecond); err != nil {
		fmt.Fprintln(os.Stderr, "kblat:", err)
		os.Exit(1)
	}
}
