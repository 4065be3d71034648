package httpload

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"
)

// Serve answers every request with 200 "ok" until ctx ends (or cfg.Duration passes).
// It prints its bound address on out once it listens. Each answer waits cfg.Delay;
// from StallAfter after that moment, for StallFor, no answer leaves: every request
// arriving or in flight then is held until the stall ends.
func Serve(ctx context.Context, cfg ServeConfig, out io.Writer) error {
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return err
	}
	ready := time.Now()
	stall := stallWindow{from: ready.Add(cfg.StallAfter), until: ready.Add(cfg.StallAfter + cfg.StallFor)}
	if cfg.Duration > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, ready.Add(cfg.Duration))
		defer cancel()
	}
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !pause(r.Context(), cfg.Delay) || !pause(r.Context(), stall.hold(time.Now())) {
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Content-Length", "2")
		_, _ = io.WriteString(w, "ok")
	})
	return ServeOn(ctx, ln, handler, out)
}

// ServeOn prints the listener's address on out, then serves handler on it until ctx ends.
func ServeOn(ctx context.Context, ln net.Listener, handler http.Handler, out io.Writer) error {
	server := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second,
		BaseContext: func(net.Listener) context.Context { return ctx }}
	if _, err := fmt.Fprintln(out, ln.Addr().String()); err != nil {
		ln.Close()
		return err
	}
	failed := make(chan error, 1)
	go func() { failed <- server.Serve(ln) }()
	select {
	case <-ctx.Done():
		return server.Close()
	case err := <-failed:
		return err
	}
}

// stallWindow is the time no answer may leave.
type stallWindow struct{ from, until time.Time }

// hold is how long a request ready to be answered at now must still wait.
func (s stallWindow) hold(now time.Time) time.Duration {
	if now.Before(s.from) || !now.Before(s.until) {
		return 0
	}
	return s.until.Sub(now)
}

// pause waits d; false when ctx ends first.
func pause(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-ctx.Done():
		return false
	}
}
