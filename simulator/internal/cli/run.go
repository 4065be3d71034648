package cli

import (
	"context"
	"fmt"
	"io"
	"net"
	"runtime"
	"syscall"
	"time"

	"kneeboard/simulator/internal/evloop"
	"kneeboard/simulator/internal/output"
	"kneeboard/simulator/internal/run"
)

const runHelp = `usage: devsim run --target HOST:PORT --devices N [flags]

  --target HOST:PORT     platform to connect to (required)
  --devices N            number of simulated devices (required)
  --start-id ID          first device ID (default 1); IDs are 12 decimal digits
  --ramp CONN_PER_S      new connections per second (default 0: as fast as possible)
  --interval D           report interval per device (default 1s)
  --rate R               total reports per second instead of --interval
  --duration D           length of the reporting phase after the ramp (default 60s)
  --profile NAME         built-in profile (default singlelight)
  --profile-file PATH    profile JSON file instead of a built-in one
  --source-ips IP,IP     local addresses to spread connections over
  --procs P              split devices over P processes (default 1)
  --report-every D       output interval (default 1s)
  --login-timeout D      connect and login timeout (default 5s)

Output: one JSON object per interval on stdout, then one with "summary": true.
Exit: 0 run completed, 1 nothing could log in or a process failed, 2 bad arguments.
`

// runFlags are the raw values of devsim run's flags.
type runFlags struct {
	target, sourceIPs                             string
	devices, procs, shards                        int
	startID                                       uint64
	ramp, rate                                    float64
	interval, duration, reportEvery, loginTimeout time.Duration
	child, rawLatencies                           bool
	profile                                       profileFlags
}

func (f *runFlags) register(c *command) {
	fs := c.fs
	fs.StringVar(&f.target, "target", "", "")
	fs.IntVar(&f.devices, "devices", 0, "")
	fs.Uint64Var(&f.startID, "start-id", 1, "")
	fs.Float64Var(&f.ramp, "ramp", 0, "")
	fs.DurationVar(&f.interval, "interval", time.Second, "")
	fs.Float64Var(&f.rate, "rate", 0, "")
	fs.DurationVar(&f.duration, "duration", 60*time.Second, "")
	fs.StringVar(&f.sourceIPs, "source-ips", "", "")
	fs.IntVar(&f.procs, "procs", 1, "")
	fs.DurationVar(&f.reportEvery, "report-every", time.Second, "")
	fs.DurationVar(&f.loginTimeout, "login-timeout", 5*time.Second, "")
	fs.BoolVar(&f.child, "child", false, "")                // hidden: a child of --procs
	fs.IntVar(&f.shards, "shards", 0, "")                   // hidden: event loops per process
	fs.BoolVar(&f.rawLatencies, "raw-latencies", false, "") // hidden, tests only: every ack latency on stderr
	f.profile.register(fs)
}

// parseRun turns devsim run's arguments into a validated run.Config; handled
// is true when only help was printed.
func parseRun(args []string, stdout, stderr io.Writer) (cfg *run.Config, handled bool, err error) {
	c := newCommand("run", runHelp)
	var f runFlags
	f.register(c)
	if handled, err := c.parse(args, stdout); handled || err != nil {
		return nil, handled, err
	}
	cfg, err = f.config(c.set)
	if err != nil {
		return nil, false, err
	}
	cfg.Printer = output.Printer{Stdout: stdout, Stderr: stderr, Prefix: "devsim run"}
	return cfg, false, nil
}

func (f *runFlags) config(set map[string]bool) (*run.Config, error) {
	ip, port, err := hostPort("target", f.target, false)
	if err != nil {
		return nil, err
	}
	if ip.IsUnspecified() {
		return nil, badArgs("--target %q: give the platform's address", f.target)
	}
	target, _ := evloop.Sockaddr(ip, port)
	if f.devices < 1 {
		return nil, badArgs("--devices %d: must be at least 1", f.devices)
	}
	prof, profArgs, err := f.profile.load(set)
	if err != nil {
		return nil, err
	}
	if last := f.startID + uint64(f.devices) - 1; last > prof.Login.DeviceID.MaxID() || last < f.startID {
		return nil, badArgs("--start-id %d with --devices %d: device ID %d does not fit the profile's device ID (max %d)",
			f.startID, f.devices, last, prof.Login.DeviceID.MaxID())
	}
	if f.ramp < 0 {
		return nil, badArgs("--ramp %v: must not be negative", f.ramp)
	}
	interval := f.interval
	switch {
	case set["rate"] && set["interval"]:
		return nil, badArgs("give --interval or --rate, not both")
	case set["rate"]:
		if f.rate <= 0 {
			return nil, badArgs("--rate %v: must be positive", f.rate)
		}
		interval = time.Duration(float64(f.devices) / f.rate * float64(time.Second))
	}
	if err := atLeast("interval", interval, time.Microsecond); err != nil {
		return nil, err
	}
	if err := atLeast("duration", f.duration, time.Millisecond); err != nil {
		return nil, err
	}
	if err := atLeast("report-every", f.reportEvery, 10*time.Millisecond); err != nil {
		return nil, err
	}
	loginTimeout := f.loginTimeout
	if !set["login-timeout"] && prof.LoginTimeout > 0 {
		loginTimeout = prof.LoginTimeout
	}
	if err := atLeast("login-timeout", loginTimeout, time.Millisecond); err != nil {
		return nil, err
	}
	if err := procsInRange(f.procs); err != nil {
		return nil, err
	}
	if f.procs > f.devices {
		return nil, badArgs("--procs %d: more processes than devices (%d)", f.procs, f.devices)
	}
	sources, err := f.sources(ip)
	if err != nil {
		return nil, err
	}
	shards := f.shards
	if shards <= 0 {
		shards = max(1, runtime.NumCPU()/f.procs)
	}
	shards = min(shards, max(1, f.devices/f.procs))
	return &run.Config{
		Target: target, TargetText: f.target, Devices: f.devices, StartID: f.startID, Ramp: f.ramp,
		Interval: interval, Duration: f.duration, Profile: prof, ProfileArgs: profArgs,
		SourceIPs: sources, SourceText: f.sourceIPs, Procs: f.procs, Shards: shards,
		ReportEvery: f.reportEvery, LoginTimeout: loginTimeout, Child: f.child, RawLatencies: f.rawLatencies,
	}, nil
}

func (f *runFlags) sources(target net.IP) ([]syscall.Sockaddr, error) {
	ips, err := ipList("source-ips", f.sourceIPs)
	if err != nil {
		return nil, err
	}
	var out []syscall.Sockaddr
	for _, ip := range ips {
		if (ip.To4() != nil) != (target.To4() != nil) {
			return nil, badArgs("--source-ips: %v is not the same address family as the target", ip)
		}
		sa, _ := evloop.Sockaddr(ip, 0)
		out = append(out, sa)
	}
	return out, nil
}

func runCommand(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	cfg, handled, err := parseRun(args, stdout, stderr)
	if handled || err != nil {
		return ExitOK, err
	}
	perProc := (cfg.Devices + cfg.Procs - 1) / cfg.Procs
	if limit, err := evloop.RaiseFileLimit(); (err != nil || limit < uint64(perProc+64)) && !cfg.Child {
		room := max(int(limit)-64, 1)
		fmt.Fprintf(stderr, "devsim run: open-file limit %d is below the ~%d that %d devices per process need; use --procs %d or more (failures will show as emfile)\n",
			limit, perProc+64, perProc, (cfg.Devices+room-1)/room)
	}
	if cfg.Procs > 1 && !cfg.Child {
		return run.RunParent(ctx, cfg), nil
	}
	return run.Run(ctx, cfg), nil
}
