// Package capserver is `kbhttp serve --workers N --service-time D`: an HTTP server whose
// capacity is known. N workers each spend D on a request; a request that finds all N busy is
// refused at once with 503 (nothing queues). The server records the service time it really
// spent (a slot's hold time, from taking it to freeing it), so its capacity under a loss
// criterion is N / that mean: GET /_capacity answers it as JSON, and the same line is
// printed when the server stops.
package capserver

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"kneeboard/simulator/internal/httpload"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// MaxWorkers bounds --workers; MaxServiceTime bounds --service-time.
const (
	MaxWorkers     = 100_000
	MaxServiceTime = 10 * time.Second
)

// Config is the checked command line.
type Config struct {
	Listen      string
	Workers     int
	ServiceTime time.Duration
	Duration    time.Duration // stop after this long (0: until signalled)
}

// UsageError is a bad command line (the caller exits with 2).
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// Wanted says whether a `serve` command line asks for the known-capacity server.
func Wanted(args []string) bool {
	for _, a := range args {
		name := strings.SplitN(strings.TrimLeft(a, "-"), "=", 2)[0]
		if strings.HasPrefix(a, "-") && (name == "workers" || name == "service-time") {
			return true
		}
	}
	return false
}

// Parse reads `serve --listen HOST:PORT --workers N --service-time D [--duration D]`.
func Parse(args []string) (Config, error) {
	var c Config
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&c.Listen, "listen", "127.0.0.1:0", "address to listen on")
	fs.IntVar(&c.Workers, "workers", 0, "parallel workers (each serves one request at a time)")
	fs.DurationVar(&c.ServiceTime, "service-time", 0, "time each request occupies a worker")
	fs.DurationVar(&c.Duration, "duration", 0, "stop after this long (0: until signalled)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return c, err
		}
		return c, &UsageError{Msg: err.Error()}
	}
	switch {
	case fs.NArg() > 0:
		return c, &UsageError{Msg: fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	case c.Workers < 1 || c.Workers > MaxWorkers:
		return c, &UsageError{Msg: fmt.Sprintf("--workers must be 1..%d", MaxWorkers)}
	case c.ServiceTime <= 0 || c.ServiceTime > MaxServiceTime:
		return c, &UsageError{Msg: fmt.Sprintf("--service-time must be above 0 and at most %s", MaxServiceTime)}
	case c.Duration < 0:
		return c, &UsageError{Msg: "--duration must not be negative"}
	}
	return c, nil
}

// Stats is what the server measured: its capacity is Workers / ServiceTimeS.
type Stats struct {
	Workers      int     `json:"workers"`
	NominalS     float64 `json:"service_time_nominal_s"`
	ServiceTimeS float64 `json:"service_time_s"` // the mean hold time really spent (nominal until a request is served)
	Capacity     float64 `json:"capacity"`       // requests/s: workers / service_time_s
	Served       int64   `json:"served"`
	Refused      int64   `json:"refused"`
}

// Server holds the workers and what they measured.
type Server struct {
	cfg   Config
	slots chan struct{}
	mu    sync.Mutex
	held  time.Duration
	stats Stats
}

// New makes a server for cfg.
func New(cfg Config) *Server {
	return &Server{cfg: cfg, slots: make(chan struct{}, cfg.Workers),
		stats: Stats{Workers: cfg.Workers, NominalS: cfg.ServiceTime.Seconds()}}
}

// Snapshot is the stats so far.
func (s *Server) Snapshot() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.stats
	out.ServiceTimeS = out.NominalS
	if out.Served > 0 {
		out.ServiceTimeS = s.held.Seconds() / float64(out.Served)
	}
	out.Capacity = float64(out.Workers) / out.ServiceTimeS
	return out
}

// ServeHTTP serves one request on a free worker, or refuses it with 503 when all are busy.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/_capacity" {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(s.Snapshot())
		return
	}
	select {
	case s.slots <- struct{}{}:
	default:
		s.mu.Lock()
		s.stats.Refused++
		s.mu.Unlock()
		http.Error(w, "all workers busy", http.StatusServiceUnavailable)
		return
	}
	start := time.Now()
	time.Sleep(s.cfg.ServiceTime)
	<-s.slots
	held := time.Since(start)
	s.mu.Lock()
	s.held += held
	s.stats.Served++
	s.mu.Unlock()
	w.Header().Set("Content-Type", "text/plain")
	w.Header().Set("Content-Length", "2")
	_, _ = io.WriteString(w, "ok")
}

// Run listens, prints the bound address, serves until ctx ends (or cfg.Duration passes) and
// prints the final stats as one JSON line {"capserver": "stats", ...}.
func Run(ctx context.Context, cfg Config, out io.Writer) error {
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return err
	}
	if cfg.Duration > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, cfg.Duration)
		defer cancel()
	}
	srv := New(cfg)
	err = httpload.ServeOn(ctx, ln, srv, out)
	line, _ := json.Marshal(struct {
		Kind string `json:"capserver"`
		Stats
	}{"stats", srv.Snapshot()})
	fmt.Fprintln(out, string(line))
	return err
}
