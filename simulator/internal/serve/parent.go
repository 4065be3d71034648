package serve

import (
	"context"
	"net"
	"strconv"
	"time"

	"kneeboard/simulator/internal/output"
	"kneeboard/simulator/internal/procs"
)

// ServeParent runs cfg.Procs child processes that share the listening
// address through SO_REUSEPORT, merges their NDJSON (counters summed per
// interval), serves --metrics, and returns the exit code.
func ServeParent(ctx context.Context, cfg *Config) int {
	start := time.Now()
	addr, err := fixPort(cfg.Listen)
	if err != nil {
		cfg.Logf("%v", err)
		return 1
	}
	m, err := startMetrics(cfg)
	if err != nil {
		cfg.Logf("%v", err)
		return 1
	}
	args := []string{"serve", procs.ChildFlag, "--listen", addr, "--report-every", cfg.ReportEvery.String(),
		"--shards", strconv.Itoa(cfg.Shards)}
	args = append(args, cfg.ProfileArgs...)
	if cfg.AckReports {
		args = append(args, "--ack-reports")
	}
	lists := make([][]string, cfg.Procs)
	for i := range lists {
		lists[i] = args
	}
	if cfg.Duration > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, cfg.Duration)
		defer cancel()
	}
	connsMax := 0
	raw, codes, err := procs.Run(ctx, lists, cfg.Stderr,
		func() { cfg.Logf("listening on %s (%d processes)", addr, cfg.Procs) },
		func(n int64, lines [][]byte) {
			var sum counters
			conns, secs := 0, 0.0
			for _, iv := range procs.Decode[Interval](lines) {
				sum.add(&iv.counters)
				conns += iv.Connections
				secs = max(secs, iv.IntervalS)
			}
			iv := newInterval(n, conns, sum, secs)
			connsMax = max(connsMax, conns)
			m.update(iv)
			cfg.Emit(iv)
		})
	if err != nil {
		cfg.Logf("%v", err)
		return 1
	}
	s := &Summary{Summary: true, ConnectionsMax: connsMax}
	for _, part := range procs.Decode[Summary](raw) {
		s.counters.add(&part.counters)
		s.Procs += part.Procs
		s.CPUS += part.CPUS
		s.RSSPeakKiB += part.RSSPeakKiB
	}
	s.CPUS, s.RSSPeakKiB = output.AddSelfUsage(s.CPUS, s.RSSPeakKiB)
	s.T, s.ElapsedS = output.UnixSeconds(time.Now()), output.Round3(time.Since(start).Seconds())
	cfg.Emit(s)
	for _, code := range codes {
		if code != 0 {
			cfg.Logf("a child process exited with %d", code)
			return 1
		}
	}
	return 0
}

// fixPort replaces port 0 by a free port, so all children listen on the same one.
func fixPort(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || port != "0" {
		return addr, err
	}
	ln, err := listen(addr)
	if err != nil {
		return "", err
	}
	defer ln.Close()
	_, port, _ = net.SplitHostPort(ln.Addr().String())
	return net.JoinHostPort(host, port), nil
}
