package run

import (
	"kneeboard/simulator/internal/evloop"
	"kneeboard/simulator/internal/stats"
)

// Failure reasons, as they appear under "failed" in the output.
var reasonNames = [...]string{
	"refused", "timeout", "login_timeout", "reset", "closed", "eaddrnotavail",
	"emfile", "bad_frame", "unreachable", "nobufs", "other",
}

// reason indexes reasonNames.
type reason uint8

const (
	reasonRefused reason = iota
	reasonTimeout
	reasonLoginTimeout
	reasonReset
	reasonClosed
	reasonEaddrnotavail
	reasonEmfile
	reasonBadFrame
	reasonUnreachable
	reasonNobufs
	reasonOther
	reasonCount
)

// reasonOf classifies a socket error.
func reasonOf(err error) reason {
	name := evloop.Reason(err)
	for i, n := range reasonNames {
		if n == name {
			return reason(i)
		}
	}
	return reasonOther
}

// counters are one shard's event counts for one interval; only the shard
// goroutine touches them, and it hands a copy to the controller.
type counters struct {
	Logins        uint64
	Sent          uint64
	Acked         uint64
	AckedInPhase  uint64 // acks received during the reporting phase
	BytesSent     uint64
	BytesReceived uint64
	Skipped       uint64 // reports not sent because the socket was backed up
	Unmatched     uint64 // acks or frames that matched nothing outstanding
	Failed        [reasonCount]uint64
}

func (c *counters) add(o *counters) {
	c.Logins += o.Logins
	c.Sent += o.Sent
	c.Acked += o.Acked
	c.AckedInPhase += o.AckedInPhase
	c.BytesSent += o.BytesSent
	c.BytesReceived += o.BytesReceived
	c.Skipped += o.Skipped
	c.Unmatched += o.Unmatched
	for i := range c.Failed {
		c.Failed[i] += o.Failed[i]
	}
}

// failedMap returns the non-zero failure counts by reason name.
func (c *counters) failedMap() map[string]uint64 {
	m := map[string]uint64{}
	for i, n := range c.Failed {
		if n != 0 {
			m[reasonNames[i]] = n
		}
	}
	return m
}

// gauges are a shard's current connection states.
type gauges struct {
	Connecting  int // TCP connect in progress
	Connected   int // TCP established (logging in or logged in)
	LoggedIn    int // logged in and reporting
	Outstanding int // reports sent and not acked yet
}

func (g *gauges) add(o *gauges) {
	g.Connecting += o.Connecting
	g.Connected += o.Connected
	g.LoggedIn += o.LoggedIn
	g.Outstanding += o.Outstanding
}

// snapshot is what a shard hands the controller: its interval counters and
// histogram (then reset) and its gauges.
type snapshot struct {
	shard    int
	seq      int64 // the request it answers
	final    bool  // the shard has stopped
	rampDone bool  // every device of the shard has connected or failed
	ctr      counters
	gauges   gauges
	hist     *stats.Histogram
	raw      []uint64 // every ack latency (µs) of the shard, in its final snapshot under --raw-latencies
}
