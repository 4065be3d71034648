// Package run is `devsim run`: it connects many simulated devices to a
// platform, logs them in and has them report at a set rate, printing NDJSON
// counters per interval and a summary.
package run

import (
	"syscall"
	"time"

	"kneeboard/simulator/internal/evloop"
	"kneeboard/simulator/internal/output"
	"kneeboard/simulator/internal/profile"
)

// Config is a validated `devsim run` invocation.
type Config struct {
	Target       syscall.Sockaddr
	TargetText   string
	Devices      int
	StartID      uint64
	Ramp         float64       // connections per second for the whole run; 0 = as fast as possible
	Interval     time.Duration // per-device report interval
	Duration     time.Duration // length of the reporting phase
	Profile      *profile.Profile
	ProfileArgs  []string // how children load the same profile
	SourceIPs    []syscall.Sockaddr
	SourceText   string
	Procs        int
	Shards       int // event loops in this process
	ReportEvery  time.Duration
	LoginTimeout time.Duration
	Child        bool // a child of a --procs parent: report histograms
	RawLatencies bool // tests only: print every ack latency (µs) on stderr at the end
	output.Printer
}

// perDeviceRate is the reports per second each device sends.
func (c *Config) perDeviceRate() float64 { return 1 / c.Interval.Seconds() }

// OfferedRate is the total report rate the run aims for.
func (c *Config) OfferedRate() float64 { return float64(c.Devices) * c.perDeviceRate() }

// addresses are one event loop's own copies of the target and source addresses.
type addresses struct {
	target  syscall.Sockaddr
	sources []syscall.Sockaddr
}

func (c *Config) addresses() addresses {
	a := addresses{target: evloop.CloneSockaddr(c.Target)}
	for _, sa := range c.SourceIPs {
		a.sources = append(a.sources, evloop.CloneSockaddr(sa))
	}
	return a
}

// source returns the local address device id connects from, nil for any.
func (a *addresses) source(id uint64) syscall.Sockaddr {
	if len(a.sources) == 0 {
		return nil
	}
	return a.sources[id%uint64(len(a.sources))]
}

// rampCap bounds the connecting phase: the nominal ramp time plus time for
// the last attempts to time out. Reporting starts then even if some devices
// are still connecting.
func (c *Config) rampCap() time.Duration {
	d := 2*c.LoginTimeout + 5*time.Second
	if c.Ramp > 0 {
		d += time.Duration(float64(c.Devices) / c.Ramp * float64(time.Second))
	} else {
		d += time.Duration(c.Devices) * 100 * time.Microsecond
	}
	return d
}
