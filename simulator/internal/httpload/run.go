// Package httpload is kbhttp: an open-loop HTTP load generator whose latency is measured
// from each request's intended send time (so time queued behind a stalled server counts),
// and a small HTTP server to test it with.
package httpload

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Version is kbhttp's version: `kbhttp version` prints it, and so does every point line.
const Version = "0.1.0"

// StopGrace is how long in-flight requests may still finish after SIGINT/SIGTERM.
const StopGrace = 500 * time.Millisecond

// Run sends cfg.Rate requests/s for cfg.Duration through at most cfg.Connections
// connections, printing an interval line every cfg.ReportEvery and the point line
// last. Cancelling ctx (a signal) stops sending; in-flight requests get StopGrace.
// It takes at most Duration + Timeout.
func Run(ctx context.Context, cfg RunConfig, out io.Writer) error {
	lines := &lineWriter{out: out}
	rec := NewRecorder(cfg.RawLatencies)
	client := newClient(cfg)
	defer client.CloseIdleConnections()

	sched := NewSchedule(time.Now(), cfg.Rate, cfg.Duration)
	sendEnd := sched.Start.Add(cfg.Duration)
	sending, stopSending := context.WithDeadline(ctx, sendEnd)
	defer stopSending()
	inFlight, abandon := context.WithCancel(context.Background())
	defer abandon()
	var stoppedAt atomic.Int64 // when sending stopped (first seen), ns since the epoch; 0 while it has not
	markStop := func() {
		now := time.Now()
		if now.After(sendEnd) {
			now = sendEnd
		}
		stoppedAt.CompareAndSwap(0, now.UnixNano())
	}
	go func() {
		<-sending.Done()
		markStop()
		if ctx.Err() != nil { // a signal, not the end of the duration
			time.Sleep(StopGrace)
			abandon()
		}
	}()

	var next atomic.Int64
	var workers sync.WaitGroup
	for range cfg.Connections {
		workers.Add(1)
		go func() {
			defer workers.Done()
			for {
				i := next.Add(1) - 1
				if i >= sched.Total {
					return
				}
				if !sleepUntil(sending, sched.Intended(i)) {
					markStop()
					return
				}
				rec.Sent()
				o, err := send(inFlight, client, cfg)
				rec.Done(o, LatencyUS(sched.Intended(i), time.Now()), err)
			}
		}()
	}
	finished := make(chan struct{})
	go func() { workers.Wait(); close(finished) }()
	if err := report(rec, lines, sched.Start, cfg.ReportEvery, finished); err != nil {
		return err
	}

	end := time.Now()
	dropped := int64(0) // every intended request was sent unless sending stopped first
	if stopped := stoppedAt.Load(); stopped != 0 {
		dropped = max(sched.DueBy(time.Unix(0, stopped))-rec.total.Sent, 0)
	}
	if err := lines.write(rec.point(cfg, end, end.Sub(sched.Start), dropped)); err != nil {
		return err
	}
	if cfg.RawLatencies {
		return lines.write(Raw{Kind: "raw", US: rec.raw})
	}
	return nil
}

// report prints an interval line every `every` from start until finished closes, then the last partial interval.
func report(rec *Recorder, lines *lineWriter, start time.Time, every time.Duration, finished <-chan struct{}) error {
	ticker := time.NewTicker(every)
	defer ticker.Stop()
	last := start
	for {
		select {
		case now := <-ticker.C:
			if err := lines.write(rec.TakeInterval().interval(now, now.Sub(last))); err != nil {
				return err
			}
			last = now
		case <-finished:
			now := time.Now()
			if w := rec.TakeInterval(); w.Sent+w.Completed+w.errors() > 0 && now.After(last) {
				return lines.write(w.interval(now, now.Sub(last)))
			}
			return nil
		}
	}
}

// sleepUntil waits for t; false when ctx ends first (or had ended).
func sleepUntil(ctx context.Context, t time.Time) bool {
	wait := time.Until(t)
	if wait > 0 {
		timer := time.NewTimer(wait)
		defer timer.Stop()
		select {
		case <-timer.C:
		case <-ctx.Done():
			return false
		}
	}
	return ctx.Err() == nil
}

// newClient is a keep-alive client with at most cfg.Connections connections, no proxy, no redirects followed.
func newClient(cfg RunConfig) *http.Client {
	transport := &http.Transport{
		Proxy:               nil,
		MaxConnsPerHost:     cfg.Connections,
		MaxIdleConns:        cfg.Connections,
		MaxIdleConnsPerHost: cfg.Connections,
		IdleConnTimeout:     90 * time.Second,
		DisableCompression:  true,
	}
	return &http.Client{Transport: transport, Timeout: cfg.Timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// send makes one request and reads its whole body.
func send(ctx context.Context, client *http.Client, cfg RunConfig) (outcome, error) {
	req, err := http.NewRequestWithContext(ctx, cfg.Method, cfg.URL.String(), nil)
	if err != nil {
		return failed, err
	}
	if cfg.Host != "" {
		req.Host = cfg.Host
	}
	resp, err := client.Do(req)
	if err != nil {
		return classify(ctx, err), err
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err != nil {
		return classify(ctx, err), err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 399 {
		return badStatus, fmt.Errorf("%s %s: %s", cfg.Method, cfg.URL, resp.Status)
	}
	return answered, nil
}
