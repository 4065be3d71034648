package serve

import (
	"time"

	"kneeboard/simulator/internal/output"
)

// counters are one shard's counts for one interval.
type counters struct {
	Accepted  uint64 `json:"accepted"`
	Logins    uint64 `json:"logins"`
	Reports   uint64 `json:"reports"`
	Acks      uint64 `json:"acks"`
	BadFrames uint64 `json:"bad_frames"`
	Closed    uint64 `json:"closed"`
	Unknown   uint64 `json:"unknown"`
	BytesIn   uint64 `json:"bytes_received"`
	BytesOut  uint64 `json:"bytes_sent"`
}

func (c *counters) add(o *counters) {
	c.Accepted += o.Accepted
	c.Logins += o.Logins
	c.Reports += o.Reports
	c.Acks += o.Acks
	c.BadFrames += o.BadFrames
	c.Closed += o.Closed
	c.Unknown += o.Unknown
	c.BytesIn += o.BytesIn
	c.BytesOut += o.BytesOut
}

// Interval is one NDJSON line per --report-every: counts for the interval
// and the number of open connections at its end.
type Interval struct {
	T           float64 `json:"t"`
	N           int64   `json:"n"`
	Connections int     `json:"connections"`
	counters
	RateReports float64 `json:"rate_reports"`
	RateAcks    float64 `json:"rate_acks"`
	IntervalS   float64 `json:"interval_s"`
}

// Summary is the last NDJSON line: totals since start.
type Summary struct {
	Summary        bool    `json:"summary"`
	T              float64 `json:"t"`
	ElapsedS       float64 `json:"elapsed_s"`
	ConnectionsMax int     `json:"connections_max"`
	counters
	Procs      int     `json:"procs"`
	CPUS       float64 `json:"cpu_s"`
	RSSPeakKiB uint64  `json:"rss_peak_kib"`
}

// newInterval builds an interval line from counts over secs seconds.
func newInterval(n int64, conns int, c counters, secs float64) *Interval {
	return &Interval{
		T: output.UnixSeconds(time.Now()), N: n, Connections: conns, counters: c, IntervalS: output.Round3(secs),
		RateReports: output.Rate(c.Reports, secs), RateAcks: output.Rate(c.Acks, secs),
	}
}
