// Command kbhttp is Kneeboard's open-loop HTTP load tool: it sends a fixed rate of
// requests and measures each one's latency from the moment it was meant to be sent,
// so a stalled server shows in the tail (no coordinated omission). It prints one JSON
// line per interval and one for the whole run, each with an HDR histogram.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"kneeboard/simulator/internal/capserver"
	"kneeboard/simulator/internal/httpload"
)

const usage = `kbhttp: open-loop HTTP load at a fixed rate, latency from each request's intended send time

usage:
  kbhttp run   --url http[s]://HOST:PORT/PATH --rate REQ_PER_S --duration 10s --connections N
               [--timeout 2s] [--method GET|HEAD] [--report-every 1s] [--host NAME[:PORT]]
               [--ca FILE.pem | --insecure] [--no-resume]
               [--outcomes FILE [--count-header NAME]] [--cookies]
  kbhttp serve --listen HOST:PORT [--delay 0] [--stall-after D --stall-for D] [--duration 0]
  kbhttp serve --listen HOST:PORT --workers N --service-time D [--duration 0]
  kbhttp version

run prints {"kbhttp":"interval",...} every --report-every and {"kbhttp":"point",...} last;
SIGINT/SIGTERM stop sending, in-flight requests get 0.5 s, the point line is printed.
--outcomes writes, after the point line, every request's outcome (ok, connect, reset, timeout, http_5xx,
http_4xx, tls, other, cancelled) counted per 10 ms bucket of its intended send time as JSON lines, and with
--count-header the values that response header took per bucket (at most 64, the rest "other") and per
connection. --cookies gives each connection a cookie jar of its own (cookie persistence).
serve answers 200 "ok" and prints its bound address when ready. With --workers, N workers each
spend D on a request (free again by the clock) and a request finding all busy gets 503: its
capacity is N / D (GET /_capacity; printed as {"capserver":"stats",...} when it stops).
Exit codes: 0 done, 1 failure, 2 bad arguments.
`

func main() {
	collectLessOften()
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// collectLessOften runs the garbage collector at 8× the live heap instead of 2× (capped at 1 GiB), unless
// GOGC or GOMEMLIMIT say otherwise. Each collection takes CPU from sending on time and answering on time: on
// 2 cores at 5,000 req/s, GOGC=800 cut a known-capacity server's refusals at 97 % load from 1.4 % to 0.3–0.95 %
// (service-time p99 from 430 to 420 ms); most of the memory is goroutine stacks, which the setting leaves alone.
func collectLessOften() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(800)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(1 << 30)
	}
}

// run dispatches a command line and returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	var err error
	switch args[0] {
	case "run":
		var cfg httpload.RunConfig
		if cfg, err = httpload.ParseRun(args[1:]); err == nil {
			err = httpload.Run(ctx, cfg, stdout)
		}
	case "serve":
		if capserver.Wanted(args[1:]) { // the known-capacity server (issue 25)
			return capacityServe(ctx, args[1:], stdout, stderr)
		}
		var cfg httpload.ServeConfig
		if cfg, err = httpload.ParseServe(args[1:]); err == nil {
			err = httpload.Serve(ctx, cfg, stdout)
		}
	case "version", "--version":
		fmt.Fprintf(stdout, "kbhttp %s\n", httpload.Version)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
	default:
		err = &httpload.UsageError{Msg: fmt.Sprintf("unknown command %q (want run, serve or version)", args[0])}
	}
	var usageErr *httpload.UsageError
	switch {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(stdout, usage)
	case errors.As(err, &usageErr):
		fmt.Fprintf(stderr, "kbhttp %s: %v\nrun 'kbhttp --help' for usage\n", args[0], err)
		return 2
	case err != nil:
		fmt.Fprintf(stderr, "kbhttp %s: %v\n", args[0], err)
		return 1
	}
	return 0
}

// capacityServe runs `kbhttp serve --workers N --service-time D` (simulator/internal/capserver).
func capacityServe(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, err := capserver.Parse(args)
	var usageErr *capserver.UsageError
	switch {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(stdout, usage)
		return 0
	case errors.As(err, &usageErr):
		fmt.Fprintf(stderr, "kbhttp serve: %v\nrun 'kbhttp --help' for usage\n", err)
		return 2
	}
	if err := capserver.Run(ctx, cfg, stdout); err != nil {
		fmt.Fprintf(stderr, "kbhttp serve: %v\n", err)
		return 1
	}
	return 0
}
