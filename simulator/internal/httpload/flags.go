package httpload

import (
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net"
	"net/url"
	"strings"
	"time"
)

// Bounds of the command line: every value outside them is a usage error (exit 2).
const (
	MaxRate        = 1_000_000
	MaxConnections = 100_000
	MaxDuration    = 24 * time.Hour
	MaxTimeout     = 120 * time.Second
	MaxRawLatency  = 1_000_000 // --raw-latencies keeps at most this many values
)

// UsageError is a bad command line: the caller prints it and exits with 2.
type UsageError struct{ Msg string }

// Error returns the message.
func (e *UsageError) Error() string { return e.Msg }

func bad(format string, args ...any) error { return &UsageError{fmt.Sprintf(format, args...)} }

// RunConfig is `kbhttp run`'s checked command line.
type RunConfig struct {
	URL          *url.URL
	Method       string
	Rate         float64 // requests/s in all
	Duration     time.Duration
	Connections  int
	Timeout      time.Duration
	ReportEvery  time.Duration
	RawLatencies bool   // tests only: print every latency (µs) on one last line
	CPUProfile   string // benchmarks only: write a pprof CPU profile of the run to this file
	Host         string // the Host header when the URL names the address Kneeboard checked (empty: the URL's host)
	CAFile       string // https: a PEM bundle of the CAs to trust (empty: the system's)
	Insecure     bool   // https: skip certificate verification (shown on the point line)
	NoResume     bool   // https: a full handshake for every connection (no session resumption)
	Outcomes     string // write every request's outcome per 10 ms bucket (intended send time) to this file (empty: none)
	CountHeader  string // with Outcomes: the response header whose values are counted per bucket (empty: none)
	Cookies      bool   // a cookie jar per connection: cookies set by responses are sent back on that connection
	roots        *x509.CertPool
}

// ServeConfig is `kbhttp serve`'s checked command line.
type ServeConfig struct {
	Listen     string
	StallAfter time.Duration // the stall window starts this long after the server is ready
	StallFor   time.Duration // and lasts this long (0: no stall)
	Delay      time.Duration // every answer waits this long
	Duration   time.Duration // 0: until SIGINT/SIGTERM
}

// ParseRun reads `kbhttp run` flags; flag.ErrHelp when --help was asked for.
func ParseRun(args []string) (RunConfig, error) {
	var c RunConfig
	var target string
	fs := newFlagSet("run")
	fs.StringVar(&target, "url", "", "http[s]://HOST:PORT/PATH")
	fs.StringVar(&c.Method, "method", "GET", "GET or HEAD")
	fs.Float64Var(&c.Rate, "rate", 0, "requests/s in all")
	fs.DurationVar(&c.Duration, "duration", 10*time.Second, "how long requests are sent")
	fs.IntVar(&c.Connections, "connections", 10, "keep-alive connections (requests in flight at most)")
	fs.DurationVar(&c.Timeout, "timeout", 2*time.Second, "one request's timeout")
	fs.DurationVar(&c.ReportEvery, "report-every", time.Second, "interval between interval lines")
	fs.BoolVar(&c.RawLatencies, "raw-latencies", false, "")
	fs.StringVar(&c.CPUProfile, "cpuprofile", "", "")
	fs.StringVar(&c.Host, "host", "", "Host header (the name; the URL holds the checked address); with https, also SNI")
	fs.StringVar(&c.CAFile, "ca", "", "https: PEM file of the CAs to trust (default: the system's)")
	fs.BoolVar(&c.Insecure, "insecure", false, "https: do not verify the server's certificate")
	fs.BoolVar(&c.NoResume, "no-resume", false, "https: no TLS session resumption (a full handshake per connection)")
	fs.StringVar(&c.Outcomes, "outcomes", "", "write each request's outcome per 10 ms bucket of its intended send time to this file")
	fs.StringVar(&c.CountHeader, "count-header", "", "with --outcomes: count this response header's values per bucket")
	fs.BoolVar(&c.Cookies, "cookies", false, "a cookie jar per connection (cookie persistence)")
	if err := parse(fs, args); err != nil {
		return c, err
	}
	u, err := url.Parse(target)
	switch {
	case target == "":
		return c, bad("--url is required")
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" || u.User != nil || u.Fragment != "":
		return c, bad("--url: want http[s]://HOST[:PORT]/PATH, got %q", target)
	case c.Method != "GET" && c.Method != "HEAD":
		return c, bad("--method: GET or HEAD, got %q", c.Method)
	case math.IsNaN(c.Rate) || c.Rate <= 0 || c.Rate > MaxRate:
		return c, bad("--rate: want requests/s in (0, %d], got %g", MaxRate, c.Rate)
	case c.Duration <= 0 || c.Duration > MaxDuration:
		return c, bad("--duration: want (0, %v], got %v", MaxDuration, c.Duration)
	case c.Connections < 1 || c.Connections > MaxConnections:
		return c, bad("--connections: want 1..%d, got %d", MaxConnections, c.Connections)
	case c.Timeout <= 0 || c.Timeout > MaxTimeout:
		return c, bad("--timeout: want (0, %v], got %v", MaxTimeout, c.Timeout)
	case c.ReportEvery < 100*time.Millisecond || c.ReportEvery > time.Hour:
		return c, bad("--report-every: want 100ms..1h, got %v", c.ReportEvery)
	case len(c.Host) > 255 || strings.ContainsAny(c.Host, " /\r\n\t@"):
		return c, bad("--host: want a host name, got %q", c.Host)
	case u.Scheme == "http" && (c.CAFile != "" || c.Insecure || c.NoResume):
		return c, bad("--ca, --insecure and --no-resume are for https:// URLs")
	case c.CAFile != "" && c.Insecure:
		return c, bad("--ca and --insecure: one or the other")
	case c.CountHeader != "" && !isToken(c.CountHeader):
		return c, bad("--count-header: want a header name (1..%d token characters), got %q", maxHeaderName, c.CountHeader)
	case c.CountHeader != "" && c.Outcomes == "":
		return c, bad("--count-header needs --outcomes (the values are counted in the outcome file)")
	}
	if c.CAFile != "" {
		if c.roots, err = loadCA(c.CAFile); err != nil {
			return c, bad("--ca: %v", err)
		}
	}
	c.URL = u
	return c, nil
}

// maxHeaderName bounds --count-header's length.
const maxHeaderName = 64

// isToken says s is an HTTP field name: 1..maxHeaderName of RFC 9110's token characters.
func isToken(s string) bool {
	if len(s) == 0 || len(s) > maxHeaderName {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("!#$%&'*+-.^_`|~", r)) {
			return false
		}
	}
	return true
}

// ParseServe reads `kbhttp serve` flags; flag.ErrHelp when --help was asked for.
func ParseServe(args []string) (ServeConfig, error) {
	var c ServeConfig
	fs := newFlagSet("serve")
	fs.StringVar(&c.Listen, "listen", "", "HOST:PORT (port 0: any free port)")
	fs.DurationVar(&c.StallAfter, "stall-after", 0, "start of the stall, after the server is ready")
	fs.DurationVar(&c.StallFor, "stall-for", 0, "length of the stall (0: none)")
	fs.DurationVar(&c.Delay, "delay", 0, "every answer waits this long")
	fs.DurationVar(&c.Duration, "duration", 0, "stop after this long (0: at SIGINT/SIGTERM)")
	if err := parse(fs, args); err != nil {
		return c, err
	}
	if _, _, err := net.SplitHostPort(c.Listen); err != nil {
		return c, bad("--listen: want HOST:PORT, got %q", c.Listen)
	}
	for name, d := range map[string]time.Duration{"stall-after": c.StallAfter, "stall-for": c.StallFor, "delay": c.Delay, "duration": c.Duration} {
		if d < 0 || d > MaxDuration {
			return c, bad("--%s: want 0..%v, got %v", name, MaxDuration, d)
		}
	}
	return c, nil
}

func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return bad("%v", err)
	}
	if fs.NArg() > 0 {
		return bad("unexpected argument %q", fs.Arg(0))
	}
	return nil
}
