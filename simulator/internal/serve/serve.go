package serve

import (
	"context"
	"errors"
	"net"
	"time"

	"kneeboard/simulator/internal/output"
	"kneeboard/simulator/internal/procs"
)

const collectTimeout = 5 * time.Second

// Serve runs the platform in this process (alone or as one --procs child)
// until ctx is cancelled or --duration passes, and returns the exit code.
func Serve(ctx context.Context, cfg *Config) int {
	ln, err := listen(cfg.Listen)
	if err != nil {
		cfg.Logf("%v", err)
		return 1
	}
	start := time.Now()
	ctl := &control{}
	snaps := make(chan snapshot, 4*cfg.Shards)
	shards := make([]*shard, cfg.Shards)
	for i := range shards {
		if shards[i], err = newShard(cfg, ctl, snaps); err != nil {
			cfg.Logf("%v", err)
			return 1
		}
		go shards[i].run(start)
	}
	done := make(chan struct{})
	go accept(ln, shards, done, cfg)
	var m *metrics
	if !cfg.Child {
		if m, err = startMetrics(cfg); err != nil {
			cfg.Logf("%v", err)
			return 1
		}
		cfg.Logf("listening on %s", ln.Addr())
	} else {
		cfg.Emit(procs.Ready{Ready: true, Addr: ln.Addr().String()})
	}
	c := &controller{cfg: cfg, ctl: ctl, snaps: snaps, live: len(shards), last: start, metrics: m}
	c.loop(ctx)
	ln.Close()
	close(done)
	c.stop()
	s := &Summary{Summary: true, T: output.UnixSeconds(time.Now()), ElapsedS: output.Round3(time.Since(start).Seconds()),
		ConnectionsMax: c.connsMax, counters: c.total, Procs: 1}
	s.CPUS, s.RSSPeakKiB = output.SelfUsage()
	cfg.Emit(s)
	return 0
}

// startMetrics starts --metrics when given; the parent of --procs runs it.
func startMetrics(cfg *Config) (*metrics, error) {
	m := &metrics{}
	if cfg.Metrics != "" {
		if _, err := m.serveMetrics(cfg.Metrics); err != nil {
			return nil, err
		}
		cfg.Logf("metrics on http://%s/metrics", cfg.Metrics)
	}
	return m, nil
}

// accept hands accepted sockets to the shards round-robin.
func accept(ln net.Listener, shards []*shard, done <-chan struct{}, cfg *Config) {
	warned := false
	for i := 0; ; i++ {
		conn, err := ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			if !warned {
				cfg.Logf("accept: %v", err)
				warned = true
			}
			time.Sleep(5 * time.Millisecond)
			continue
		}
		fd, err := takeFD(conn)
		if err != nil {
			continue
		}
		select {
		case shards[i%len(shards)].incoming <- fd:
		case <-done:
			return
		}
	}
}

// controller prints the shards' counters per interval and keeps totals.
type controller struct {
	cfg      *Config
	ctl      *control
	snaps    chan snapshot
	live     int
	seq      int64
	last     time.Time
	total    counters
	connsMax int
	metrics  *metrics
}

func (c *controller) loop(ctx context.Context) {
	ticker := time.NewTicker(c.cfg.ReportEvery)
	defer ticker.Stop()
	var end <-chan time.Time
	if c.cfg.Duration > 0 {
		end = time.After(c.cfg.Duration)
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-end:
			return
		case <-ticker.C:
			c.seq++
			c.ctl.snapSeq.Store(c.seq)
			c.print(c.collect(func(s snapshot) bool { return s.seq == c.seq || s.final }))
		}
	}
}

// stop ends the shards and prints their last counts.
func (c *controller) stop() {
	c.seq++
	c.ctl.stop.Store(true)
	c.print(c.collect(func(s snapshot) bool { return s.final }))
}

// collect waits for one matching snapshot per live shard and sums them.
func (c *controller) collect(match func(snapshot) bool) snapshot {
	var sum snapshot
	timeout := time.After(collectTimeout)
	for got, want := 0, c.live; got < want; {
		select {
		case s := <-c.snaps:
			sum.ctr.add(&s.ctr)
			if s.final {
				c.live--
			}
			if match(s) {
				got++
				sum.open += s.open
			}
		case <-timeout:
			c.cfg.Logf("%d of %d shards did not report", want-got, want)
			return sum
		}
	}
	return sum
}

func (c *controller) print(s snapshot) {
	now := time.Now()
	iv := newInterval(c.seq, s.open, s.ctr, now.Sub(c.last).Seconds())
	c.last = now
	c.total.add(&s.ctr)
	c.connsMax = max(c.connsMax, s.open)
	if c.metrics != nil {
		c.metrics.update(iv)
	}
	c.cfg.Emit(iv)
}
