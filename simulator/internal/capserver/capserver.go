// Package capserver is `kbhttp serve --workers N --service-time D`: an HTTP server whose
// capacity is known. N workers each spend D on a request; a request that finds all N busy is
// refused at once with 503 (nothing queues). A worker is free again exactly D after it took a
// request, by the clock, not when its goroutine next runs: after a stall of the host the
// requests read first would otherwise find workers whose time is up still "busy" and be
// refused, so the capacity would depend on the host's scheduling. Its capacity under a loss
// criterion is therefore exactly N / D: GET /_capacity answers it as JSON (with how late the
// answers went out after their worker's time was up), and the same line is printed when the
// server stops.
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
	ServiceTimeS float64 `json:"service_time_s"` // how long a request holds its worker: the nominal D
	Capacity     float64 `json:"capacity"`       // requests/s: workers / service_time_s
	Served       int64   `json:"served"`
	Refused      int64   `json:"refused"`
	AnswerLateS  float64 `json:"answer_late_s"` // mean time an answer went out after its worker was free (timer overshoot)
}

// Server holds the workers' free times and what they measured.
type Server struct {
	cfg    Config
	epoch  time.Time
	mu     sync.Mutex
	freeAt []time.Duration // since epoch, of the busy workers, in the order they were taken
	head   int
	busy   int
	late   time.Duration
	stats  Stats
}

// New makes a server for cfg.
func New(cfg Config) *Server {
	return &Server{cfg: cfg, epoch: time.Now(), freeAt: make([]time.Duration, cfg.Workers),
		stats: Stats{Workers: cfg.Workers, NominalS: cfg.ServiceTime.Seconds()}}
}

// Snapshot is the stats so far.
func (s *Server) Snapshot() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.stats
	out.ServiceTimeS = out.NominalS
	out.Capacity = float64(out.Workers) / out.ServiceTimeS
	if out.Served > 0 {
		out.AnswerLateS = s.late.Seconds() / float64(out.Served)
	}
	return out
}

// admit takes a worker at now (since epoch) and says when it is free again, or refuses when all
// N are busy at now. Every hold is D and now only grows under the lock, so the workers free in
// the order they were taken: a ring of free times, oldest first.
func (s *Server) admit(now time.Duration) (time.Duration, bool) {
	for s.busy > 0 && s.freeAt[s.head] <= now {
		s.head = (s.head + 1) % len(s.freeAt)
		s.busy--
	}
	if s.busy == len(s.freeAt) {
		s.stats.Refused++
		return 0, false
	}
	until := now + s.cfg.ServiceTime
	s.freeAt[(s.head+s.busy)%len(s.freeAt)] = until
	s.busy++
	return until, true
}

// ServeHTTP serves one request on a free worker, or refuses it with 503 when all are busy.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/_capacity" {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(s.Snapshot())
		return
	}
	s.mu.Lock()
	until, ok := s.admit(time.Since(s.epoch))
	s.mu.Unlock()
	if !ok {
		http.Error(w, "all workers busy", http.StatusServiceUnavailable)
		return
	}
	time.Sleep(until - time.Since(s.epoch))
	late := time.Since(s.epoch) - until
	s.mu.Lock()
	s.late += late
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
