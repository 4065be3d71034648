// Package cli parses devsim's command line and dispatches to run, serve and
// profile check. Bad arguments print a message on stderr and exit with 2.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/signal"
	"syscall"
)

// Exit codes.
const (
	ExitOK      = 0
	ExitFailure = 1
	ExitUsage   = 2
)

const usage = `devsim: device simulator and reference platform for Kneeboard

usage:
  devsim run   --target HOST:PORT --devices N [--start-id 1] [--ramp CONN_PER_S]
               [--interval 1s | --rate TOTAL_REPORTS_PER_S] [--duration 60s]
               [--profile singlelight | --profile-file PATH] [--source-ips IP,IP]
               [--procs P] [--report-every 1s] [--login-timeout 5s]
  devsim serve --listen HOST:PORT [--profile singlelight | --profile-file PATH]
               [--ack-reports] [--procs P] [--metrics HOST:PORT]
               [--report-every 1s] [--duration 0]
  devsim profile check (--profile-file PATH | --profile NAME)
  devsim profile show [--profile singlelight]

Run 'devsim COMMAND --help' for the flags of one command.
`

// usageError is a bad-arguments error: exit code 2.
type usageError struct{ msg string }

// Error returns the message.
func (e *usageError) Error() string { return e.msg }

func badArgs(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// Version is devsim's version, printed by `devsim version`.
const Version = "0.1.0"

// Main runs devsim with args (without the program name) and returns the exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return ExitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	var code int
	var err error
	switch args[0] {
	case "run":
		code, err = runCommand(ctx, args[1:], stdout, stderr)
	case "serve":
		code, err = serveCommand(ctx, args[1:], stdout, stderr)
	case "profile":
		code, err = profileCommand(args[1:], stdout)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return ExitOK
	case "version", "--version":
		fmt.Fprintf(stdout, "devsim %s\n", Version)
		return ExitOK
	default:
		err = badArgs("unknown command %q (want run, serve, profile or version)", args[0])
	}
	var ue *usageError
	switch {
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "devsim %s: %v\nrun 'devsim --help' for usage\n", args[0], err)
		return ExitUsage
	case err != nil:
		fmt.Fprintf(stderr, "devsim %s: %v\n", args[0], err)
		return ExitFailure
	}
	return code
}
