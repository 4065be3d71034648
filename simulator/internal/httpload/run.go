package httpload

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"sync"
	"sync/atomic"
	"time"
)

// Version is kbhttp's version: `kbhttp version` prints it, and so does every point line.
const Version = "0.3.0"

// StopGrace is how long in-flight requests may still finish after SIGINT/SIGTERM.
const StopGrace = 500 * time.Millisecond

// Run sends cfg.Rate requests/s for cfg.Duration through at most cfg.Connections
// connections, printing an interval line every cfg.ReportEvery and the point line
// last. Each connection has its own sender, which takes the next request of the schedule
// as soon as it is free and sends it at its intended time (at once when it is late). Cancelling ctx (a signal) stops sending; in-flight requests get StopGrace.
// It takes at most Duration + Timeout.
func Run(ctx context.Context, cfg RunConfig, out io.Writer) error {
	if cfg.CPUProfile != "" {
		stop, err := profileCPU(cfg.CPUProfile)
		if err != nil {
			return err
		}
		defer stop()
	}
	lines := &lineWriter{out: out}
	rec := NewRecorder(cfg.RawLatencies)
	var tlsConf *tls.Config
	if cfg.URL.Scheme == "https" {
		tlsConf = cfg.tlsConfig()
	}
	sched := NewSchedule(time.Now(), cfg.Rate, cfg.Duration)
	var log *outcomeLog
	var logFile *os.File // created before the run: a path that cannot be written fails at once, not after it
	if cfg.Outcomes != "" {
		var err error
		if logFile, err = os.Create(cfg.Outcomes); err != nil {
			return fmt.Errorf("--outcomes: %w", err)
		}
		defer logFile.Close() // once written, closing again only returns an error, ignored
		log = newOutcomeLog(cfg.Duration, cfg.CountHeader)
	}
	senders := make([]*sender, min(int64(cfg.Connections), sched.Total)) // a sender beyond the requests would never send
	for k := range senders {
		senders[k] = newSender(cfg, k, rec, tlsConf, log)
	}
	inFlight, abandon := context.WithCancel(context.Background())
	defer abandon()
	warm(ctx, inFlight, senders, cfg.Timeout)
	var (
		next      atomic.Int64
		workers   sync.WaitGroup
		sendEnd   time.Time
		sending   context.Context // set, like sched.Start, before the gate opens
		stoppedAt atomic.Int64    // when sending stopped (first seen), ns since the epoch; 0 while it has not
		gate      = make(chan struct{})
	)
	claim := func() int64 { return next.Add(1) - 1 }
	markStop := func() {
		now := time.Now()
		if now.After(sendEnd) {
			now = sendEnd
		}
		stoppedAt.CompareAndSwap(0, now.UnixNano())
	}
	took := launch(senders, &workers, gate, func(s *sender) { s.loop(ctx, sending, inFlight, sched, claim, markStop) })
	// The schedule starts as far ahead as starting the senders took: the senders woken first claim
	// the first requests before they are due, instead of thousands of first steps making them late
	// (a late first burst holds a capacity-limited server's workers past when the next ones are due).
	sched.Start = time.Now().Add(min(took, maxStartLead))
	if log != nil {
		log.start = sched.Start // read by the senders only after the gate opens
	}
	sendEnd = sched.Start.Add(cfg.Duration)
	sending, stopSending := context.WithDeadline(ctx, sendEnd)
	defer stopSending()
	go func() {
		<-sending.Done()
		markStop()
		if ctx.Err() != nil { // a signal, not the end of the duration
			time.Sleep(StopGrace)
			abandon()
		}
	}()
	close(gate)
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
	if log != nil {
		perConn := make([][]int32, len(senders))
		for k, s := range senders {
			perConn[k] = s.byValue
		}
		if err := log.write(logFile, perConn); err != nil {
			return fmt.Errorf("--outcomes: %w", err)
		}
	}
	if cfg.RawLatencies {
		return lines.write(Raw{Kind: "raw", US: rec.rawLatencies()})
	}
	return nil
}

// maxStartLead bounds how far ahead of the senders' wake-up the schedule starts.
const maxStartLead = 100 * time.Millisecond

// launch starts a goroutine per sender (counted in workers) that waits for gate to close, then
// runs; it returns once every one is waiting, with how long starting them took.
func launch(senders []*sender, workers *sync.WaitGroup, gate <-chan struct{}, run func(*sender)) time.Duration {
	began := time.Now()
	var started sync.WaitGroup
	for _, s := range senders {
		workers.Add(1)
		started.Add(1)
		go func() {
			defer workers.Done()
			started.Done()
			<-gate
			run(s)
		}()
	}
	started.Wait()
	return time.Since(began)
}

// warmParallel and warmBudget bound warm: dials at once, and its whole time.
const (
	warmParallel = 128
	warmBudget   = time.Second
)

// warm dials every sender's connection before the schedule starts, at most warmParallel at a
// time and for at most warmBudget (or the request timeout, if shorter). A connection dialed at its
// request makes that request late, and at the start of a run every request is such a one: with
// hundreds of connections the first second's sends would be late, then arrive together. A
// connection not up by then is dialed at its first request, as before, where a failure is recorded.
func warm(ctx, inFlight context.Context, senders []*sender, timeout time.Duration) {
	deadline := time.Now().Add(min(timeout, warmBudget))
	gate := make(chan struct{}, warmParallel)
	var dialing sync.WaitGroup
	for _, s := range senders {
		if ctx.Err() != nil || !time.Now().Before(deadline) {
			break
		}
		gate <- struct{}{}
		dialing.Add(1)
		go func() {
			defer func() { <-gate; dialing.Done() }()
			s.conn.warmed = s.conn.connect(inFlight, deadline) == nil
		}()
	}
	dialing.Wait()
}

// profileCPU starts a pprof CPU profile into path; the function returned ends it.
func profileCPU(path string) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// report prints an interval line every `every` from start until finished closes, then the last
// partial interval; every interval is also added to the run's total.
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
			if w := rec.TakeInterval(); w.Sent+w.Completed+w.errors()+w.Full > 0 && now.After(last) {
				return lines.write(w.interval(now, now.Sub(last)))
			}
			return nil
		}
	}
}
