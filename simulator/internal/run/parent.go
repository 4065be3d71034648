package run

import (
	"context"
	"strconv"
	"time"

	"kneeboard/simulator/internal/output"
	"kneeboard/simulator/internal/procs"
)

// RunParent splits the devices over cfg.Procs child processes, merges their
// NDJSON into one stream (counters summed per interval, latency histograms
// decoded, merged exactly and encoded again) and returns the exit code.
func RunParent(ctx context.Context, cfg *Config) int {
	start := time.Now()
	connectedMax := 0
	raw, _, err := procs.Run(ctx, childArgLists(cfg), cfg.Stderr, nil, func(_ int64, lines [][]byte) {
		iv, err := mergeIntervals(procs.Decode[Interval](lines))
		if err != nil {
			cfg.Logf("%v", err)
		}
		iv.T = output.UnixSeconds(time.Now())
		connectedMax = max(connectedMax, iv.Connected)
		cfg.Emit(iv)
	})
	if err != nil {
		cfg.Logf("%v", err)
		return 1
	}
	parts := procs.Decode[Summary](raw)
	s, err := mergeSummaries(parts)
	if err != nil {
		cfg.Logf("%v", err)
	}
	s.T, s.ElapsedS = output.UnixSeconds(time.Now()), output.Round3(time.Since(start).Seconds())
	s.OfferedRate = output.Round3(cfg.OfferedRate())
	if connectedMax > 0 {
		s.ConnectedMax = connectedMax
	}
	s.CPUS, s.RSSPeakKiB = output.AddSelfUsage(s.CPUS, s.RSSPeakKiB)
	cfg.Emit(s)
	code := exitCode(cfg, s)
	if len(parts) < cfg.Procs {
		cfg.Logf("%d of %d child processes ended without a summary", cfg.Procs-len(parts), cfg.Procs)
		code = 1
	}
	return code
}

// childArgLists gives each child a contiguous block of device IDs and its
// share of the ramp; everything else is passed through.
func childArgLists(cfg *Config) [][]string {
	lists := make([][]string, cfg.Procs)
	id := cfg.StartID
	for i := range lists {
		n := cfg.Devices / cfg.Procs
		if i < cfg.Devices%cfg.Procs {
			n++
		}
		args := []string{"run", procs.ChildFlag,
			"--target", cfg.TargetText,
			"--devices", strconv.Itoa(n),
			"--start-id", strconv.FormatUint(id, 10),
			"--ramp", strconv.FormatFloat(cfg.Ramp/float64(cfg.Procs), 'g', -1, 64),
			"--interval", cfg.Interval.String(),
			"--duration", cfg.Duration.String(),
			"--report-every", cfg.ReportEvery.String(),
			"--login-timeout", cfg.LoginTimeout.String(),
			"--shards", strconv.Itoa(cfg.Shards),
		}
		args = append(args, cfg.ProfileArgs...)
		if cfg.SourceText != "" {
			args = append(args, "--source-ips", cfg.SourceText)
		}
		if cfg.RawLatencies {
			args = append(args, "--raw-latencies")
		}
		lists[i] = args
		id += uint64(n)
	}
	return lists
}
