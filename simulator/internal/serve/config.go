// Package serve is `devsim serve`, the reference platform: it accepts device
// connections, reassembles and checks frames, answers logins, acks reports
// when asked and reports its counters as NDJSON and Prometheus text.
package serve

import (
	"time"

	"kneeboard/simulator/internal/output"
	"kneeboard/simulator/internal/profile"
)

// Config is a validated `devsim serve` invocation.
type Config struct {
	Listen      string // HOST:PORT (port 0 = any free port)
	Profile     *profile.Profile
	ProfileArgs []string // how children load the same profile
	AckReports  bool
	Procs       int
	Shards      int // event loops in this process
	Metrics     string
	ReportEvery time.Duration
	Duration    time.Duration // 0 = until signalled
	Child       bool          // a child of a --procs parent
	output.Printer
}
