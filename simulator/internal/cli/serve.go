package cli

import (
	"context"
	"io"
	"net"
	"runtime"
	"strconv"
	"time"

	"kneeboard/simulator/internal/evloop"
	"kneeboard/simulator/internal/output"
	"kneeboard/simulator/internal/serve"
)

const serveHelp = `usage: devsim serve --listen HOST:PORT [flags]

  --listen HOST:PORT     address to accept devices on (required; port 0 = any free port)
  --profile NAME         built-in profile (default singlelight)
  --profile-file PATH    profile JSON file instead of a built-in one
  --ack-reports          answer every report with an ack
  --procs P              share the listener over P processes (SO_REUSEPORT; default 1)
  --metrics HOST:PORT    serve Prometheus text on http://HOST:PORT/metrics
  --report-every D       output interval (default 1s)
  --duration D           stop after D (default 0: run until SIGINT/SIGTERM)

Output: one JSON object per interval on stdout, then one with "summary": true.
The listening address is printed on stderr ("devsim serve: listening on ...").
`

// parseServe turns devsim serve's arguments into a validated serve.Config.
func parseServe(args []string, stdout, stderr io.Writer) (cfg *serve.Config, handled bool, err error) {
	c := newCommand("serve", serveHelp)
	var (
		listen, metrics      string
		ack, child           bool
		nprocs, shards       int
		reportEvery, runTime time.Duration
		prof                 profileFlags
	)
	fs := c.fs
	fs.StringVar(&listen, "listen", "", "")
	fs.BoolVar(&ack, "ack-reports", false, "")
	fs.IntVar(&nprocs, "procs", 1, "")
	fs.StringVar(&metrics, "metrics", "", "")
	fs.DurationVar(&reportEvery, "report-every", time.Second, "")
	fs.DurationVar(&runTime, "duration", 0, "")
	fs.BoolVar(&child, "child", false, "") // hidden: a child of --procs
	fs.IntVar(&shards, "shards", 0, "")    // hidden: event loops per process
	prof.register(fs)
	if handled, err := c.parse(args, stdout); handled || err != nil {
		return nil, handled, err
	}
	ip, port, err := hostPort("listen", listen, true)
	if err != nil {
		return nil, false, err
	}
	if c.set["metrics"] {
		if _, _, err := hostPort("metrics", metrics, true); err != nil {
			return nil, false, err
		}
	}
	p, profArgs, err := prof.load(c.set)
	if err != nil {
		return nil, false, err
	}
	if ack && !p.Acks {
		return nil, false, badArgs("--ack-reports: profile %s has no ack rule (acks.enabled is false)", p.Name)
	}
	if err := procsInRange(nprocs); err != nil {
		return nil, false, err
	}
	if err := atLeast("report-every", reportEvery, 10*time.Millisecond); err != nil {
		return nil, false, err
	}
	if runTime < 0 {
		return nil, false, badArgs("--duration %v: must not be negative", runTime)
	}
	if shards <= 0 {
		shards = max(1, runtime.NumCPU()/nprocs)
	}
	return &serve.Config{
		Listen: net.JoinHostPort(ip.String(), strconv.Itoa(port)), Profile: p, ProfileArgs: profArgs,
		AckReports: ack, Procs: nprocs, Shards: shards, Metrics: metrics, ReportEvery: reportEvery,
		Duration: runTime, Child: child,
		Printer: output.Printer{Stdout: stdout, Stderr: stderr, Prefix: "devsim serve"},
	}, false, nil
}

func serveCommand(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	cfg, handled, err := parseServe(args, stdout, stderr)
	if handled || err != nil {
		return ExitOK, err
	}
	_, _ = evloop.RaiseFileLimit()
	if cfg.Procs > 1 && !cfg.Child {
		return serve.ServeParent(ctx, cfg), nil
	}
	return serve.Serve(ctx, cfg), nil
}
