package run

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"kneeboard/simulator/internal/output"
	"kneeboard/simulator/internal/stats"
)

const (
	drainTimeout       = 2 * time.Second        // waiting for the last acks
	signalDrainTimeout = 500 * time.Millisecond // the same after SIGTERM/SIGINT
	collectTimeout     = 5 * time.Second        // a shard that does not answer is skipped
)

// Run executes the run in this process (the devices of one --procs child, or
// all of them) and returns the exit code.
func Run(ctx context.Context, cfg *Config) int {
	start := time.Now()
	ctl := newControl(cfg.Shards)
	snaps := make(chan snapshot, 4*cfg.Shards)
	shards := make([]*shard, cfg.Shards)
	for i := range shards {
		var err error
		if shards[i], err = newShard(i, cfg, ctl, snaps, start, shardIDs(cfg, i)); err != nil {
			cfg.Logf("%v", err)
			return 1
		}
	}
	for _, s := range shards {
		go s.run()
	}
	c := &controller{cfg: cfg, ctl: ctl, snaps: snaps, start: start, live: len(shards), lastLine: start}
	c.loop(ctx)
	return c.finish()
}

// shardIDs lists the device IDs shard i owns: every Shards-th device.
func shardIDs(cfg *Config, i int) []uint64 {
	var ids []uint64
	for k := i; k < cfg.Devices; k += cfg.Shards {
		ids = append(ids, cfg.StartID+uint64(k))
	}
	return ids
}

// controller sets the phases, collects shard snapshots into interval lines
// and keeps the totals for the summary.
type controller struct {
	cfg      *Config
	ctl      *control
	snaps    chan snapshot
	start    time.Time
	live     int // shards still running
	rampDone int
	seq      int64
	lastLine time.Time

	reportStart, drainStart time.Time
	total                   counters
	hist                    stats.Histogram
	cur                     counters // since the last interval line
	curHist                 stats.Histogram
	connectedMax            int
	raw                     []uint64 // --raw-latencies: every shard's ack latencies
}

func (c *controller) since(t time.Time) float64 { return t.Sub(c.start).Seconds() }

// loop runs the ramp and reporting phases, then drains.
func (c *controller) loop(ctx context.Context) {
	ticker := time.NewTicker(c.cfg.ReportEvery)
	defer ticker.Stop()
	rampCap := time.NewTimer(c.cfg.rampCap())
	defer rampCap.Stop()
	var reportEnd <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			c.drain(signalDrainTimeout)
			return
		case s := <-c.snaps:
			c.absorb(s)
		case <-ticker.C:
			c.printInterval(c.collect(false))
		case <-rampCap.C:
			if c.ctl.phase.Load() == phaseRamp {
				c.cfg.Logf("ramp not finished after %v; starting the reporting phase anyway", c.cfg.rampCap())
				c.startReporting()
			}
		case <-reportEnd:
			c.drain(drainTimeout)
			return
		}
		if reportEnd == nil && c.ctl.phase.Load() == phaseReport {
			reportEnd = time.After(c.cfg.Duration)
		}
	}
}

func (c *controller) startReporting() {
	c.reportStart = time.Now()
	c.ctl.phase.Store(phaseReport)
}

// absorb takes one shard message into the totals and the current interval.
func (c *controller) absorb(s snapshot) {
	if s.rampDone && s.seq == -1 && !s.final {
		if c.rampDone++; c.rampDone == c.cfg.Shards && c.ctl.phase.Load() == phaseRamp {
			c.startReporting()
		}
		return
	}
	c.total.add(&s.ctr)
	c.hist.Merge(s.hist)
	c.cur.add(&s.ctr)
	c.curHist.Merge(s.hist)
	c.raw = append(c.raw, s.raw...)
	if s.final {
		c.live--
	}
}

// collect asks every shard for its counters (or, when final, waits for the
// shards' last counts after stop) and returns the sum of their gauges.
func (c *controller) collect(final bool) gauges {
	var g gauges
	want := c.live
	c.seq++
	if !final {
		c.ctl.snapSeq.Store(c.seq)
	}
	timeout := time.After(collectTimeout)
	for got := 0; got < want; {
		select {
		case s := <-c.snaps:
			if s.final || (!final && s.seq == c.seq) {
				got++
				g.add(&s.gauges)
			}
			c.absorb(s)
		case <-timeout:
			c.cfg.Logf("%d of %d shards did not report", want-got, want)
			return g
		}
	}
	return g
}

// drain stops reports, waits for outstanding acks, then stops the shards.
func (c *controller) drain(timeout time.Duration) {
	for i := range c.ctl.outstanding {
		c.ctl.outstanding[i].Store(-1)
	}
	c.drainStart = time.Now()
	c.ctl.phase.Store(phaseDrain)
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) && !c.drained() {
		select {
		case s := <-c.snaps:
			c.absorb(s)
		case <-time.After(10 * time.Millisecond):
		}
	}
	c.ctl.phase.Store(phaseStop)
	c.printInterval(c.collect(true))
}

func (c *controller) drained() bool {
	for i := range c.ctl.outstanding {
		if c.ctl.outstanding[i].Load() != 0 {
			return false
		}
	}
	return true
}

// printInterval writes one interval line: the counts since the last line
// and the gauges g.
func (c *controller) printInterval(g gauges) {
	now := time.Now()
	secs := now.Sub(c.lastLine).Seconds()
	c.lastLine = now
	c.connectedMax = max(c.connectedMax, g.Connected)
	ctr, h := &c.cur, &c.curHist
	iv := &Interval{
		T: output.UnixSeconds(now), N: c.seq, Phase: phaseNames[c.ctl.phase.Load()],
		Connected: g.Connected, Connecting: g.Connecting, LoggedIn: g.LoggedIn,
		Failed: ctr.failedMap(), Logins: ctr.Logins, Sent: ctr.Sent, Acked: ctr.Acked,
		BytesSent: ctr.BytesSent, BytesReceived: ctr.BytesReceived,
		RateSent: output.Rate(ctr.Sent, secs), RateAcked: output.Rate(ctr.Acked, secs),
		Skipped: ctr.Skipped, IntervalS: output.Round3(secs),
	}
	iv.fillLatency(h)
	var err error
	if iv.HDR, iv.Hist, err = attach(h, c.cfg.Child, iv.Phase == phaseNames[phaseReport]); err != nil {
		c.cfg.Logf("%v", err)
	}
	c.cfg.Emit(iv)
	c.cur = counters{}
	h.Reset()
}

// finish prints the summary and returns the exit code.
func (c *controller) finish() int {
	end := time.Now()
	s := &Summary{
		Summary: true, T: output.UnixSeconds(end), Devices: c.cfg.Devices, ConnectedMax: c.connectedMax,
		Logins: c.total.Logins, Sent: c.total.Sent, Acked: c.total.Acked, Failed: c.total.failedMap(),
		BytesSent: c.total.BytesSent, BytesReceived: c.total.BytesReceived,
		ElapsedS: output.Round3(c.since(end)), AckedInPhase: c.total.AckedInPhase,
		OfferedRate: output.Round3(c.cfg.OfferedRate()), Skipped: c.total.Skipped, Unmatched: c.total.Unmatched, Procs: 1,
	}
	if !c.reportStart.IsZero() {
		s.RampS = output.Round3(c.since(c.reportStart))
		s.DurationS = output.Round3(c.drainStart.Sub(c.reportStart).Seconds())
	} else {
		s.RampS = output.Round3(c.since(c.drainStart))
	}
	s.AchievedRate = output.Rate(s.AckedInPhase, s.DurationS)
	s.fillLatency(&c.hist)
	s.CPUS, s.RSSPeakKiB = output.SelfUsage()
	var err error
	if s.HDR, s.Hist, err = attach(&c.hist, c.cfg.Child, true); err != nil {
		c.cfg.Logf("%v", err)
	}
	c.cfg.Emit(s)
	if c.cfg.RawLatencies {
		raw, _ := json.Marshal(map[string][]uint64{"raw_ack_us": c.raw})
		fmt.Fprintf(c.cfg.Stderr, "%s\n", raw)
	}
	return exitCode(c.cfg, s)
}

// exitCode is 1 when no device could log in at all, else 0.
func exitCode(cfg *Config, s *Summary) int {
	if s.Logins == 0 {
		cfg.Logf("no device could log in to %s (failed: %v)", cfg.TargetText, s.Failed)
		return 1
	}
	return 0
}
