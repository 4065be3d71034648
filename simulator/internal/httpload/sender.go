package httpload

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net/http"
	"time"
)

// sender is one connection's sender: its own transport (one keep-alive connection, no pool
// shared with the others), its own waker, and a shard of the recorder.
type sender struct {
	client  *http.Client
	request *http.Request // built once; every request is a shallow copy with the run's context
	wake    *waker
	shard   *shard
	keepRaw bool
}

// newSender is sender k of the run.
func newSender(cfg RunConfig, k int, rec *Recorder, tlsConf *tls.Config) *sender {
	s := &sender{wake: newWaker(), shard: rec.shardFor(k), keepRaw: rec.keepRaw}
	transport := &http.Transport{
		Proxy:               nil,
		MaxConnsPerHost:     1,
		MaxIdleConns:        1,
		MaxIdleConnsPerHost: 1,
		IdleConnTimeout:     90 * time.Second,
		DisableCompression:  true,
	}
	if tlsConf != nil {
		transport.DialTLSContext = tlsDialer(tlsConf, s.shard)
	}
	s.client = &http.Client{Transport: transport, Timeout: cfg.Timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	s.request, _ = http.NewRequest(cfg.Method, cfg.URL.String(), nil) // the URL was parsed and checked
	if cfg.Host != "" {
		s.request.Host = cfg.Host
	}
	return s
}

// loop claims the next request of the schedule, waits until it is due, sends it and records
// it, until the schedule ends or sending stops; onStop marks when it stopped early.
func (s *sender) loop(sending, inFlight context.Context, c *clock, next func() int64, onStop func()) {
	defer s.client.CloseIdleConnections()
	for {
		i := next()
		if i >= c.sched.Total {
			return
		}
		queued := i < c.due.Load() // already due: it waited for a connection to be free
		if !c.wait(sending, i, s.wake) || sending.Err() != nil {
			onStop()
			return
		}
		intended := c.sched.Intended(i)
		sent := time.Now()
		o, err := s.send(inFlight)
		done := time.Now()
		s.shard.record(request{o: o, err: err, queued: queued, lateUS: LatencyUS(intended, sent),
			responseUS: LatencyUS(intended, done), serviceUS: LatencyUS(sent, done)}, s.keepRaw)
	}
}

// send makes one request and reads its whole body.
func (s *sender) send(ctx context.Context) (outcome, error) {
	req := s.request.WithContext(ctx)
	resp, err := s.client.Do(req)
	if err != nil {
		return classify(ctx, err), err
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err != nil {
		return classify(ctx, err), err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 399 {
		return badStatus, fmt.Errorf("%s %s: %s", req.Method, req.URL, resp.Status)
	}
	return answered, nil
}
