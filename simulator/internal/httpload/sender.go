package httpload

import (
	"context"
	"crypto/tls"
	"time"
)

// sender is one connection's sender: its own connection (driven by it alone), its own timer,
// and a shard of the recorder.
type sender struct {
	conn    *conn
	timer   *sleeper
	margin  time.Duration
	shard   *shard
	keepRaw bool
	log     *outcomeLog // --outcomes (nil: none)
	byValue []int32     // answers per counted header value on this connection (the log's columns)
}

// newSender is sender k of the run; tlsConf is nil for http://.
func newSender(cfg RunConfig, k int, rec *Recorder, tlsConf *tls.Config, log *outcomeLog) *sender {
	s := &sender{timer: newSleeper(), margin: spinMargin(cfg.Rate), shard: rec.shardFor(k), keepRaw: rec.keepRaw, log: log}
	dial := plainDialer()
	if tlsConf != nil {
		dial = tlsDialer(tlsConf, s.shard)
	}
	s.conn = newConn(cfg, dial)
	return s
}

// loop claims the next request of the schedule (an atomic counter: any free sender takes the
// next one), waits until it is due, sends it and records it, until the schedule ends or sending
// stops; onStop marks when it stopped early. A request already due when claimed waited for a
// connection to be free (queued); once the duration is over such a request is dropped. A request
// the sender waited for is sent at its time; only a stop (ctx) ends that wait.
func (s *sender) loop(ctx, sending, inFlight context.Context, sched Schedule, next func() int64, onStop func()) {
	defer s.conn.close()
	defer s.timer.close()
	for {
		i := next()
		if i >= sched.Total {
			return
		}
		intended := sched.Intended(i)
		queued := !time.Now().Before(intended)
		if (queued && sending.Err() != nil) || (!queued && !s.timer.until(ctx, intended, s.margin)) {
			onStop()
			return
		}
		sent := time.Now()
		o, err := s.conn.do(inFlight)
		done := time.Now()
		s.shard.record(request{o: o, err: err, queued: queued, lateUS: LatencyUS(intended, sent),
			responseUS: LatencyUS(intended, done), serviceUS: LatencyUS(sent, done)}, s.keepRaw)
		if s.log != nil {
			s.logOutcome(intended, o, err)
		}
	}
}

// noValue is the counted header's value in a response without that header.
const noValue = "(none)"

// logOutcome counts the request in the outcome file's bucket and, with a counted header, on this connection.
func (s *sender) logOutcome(intended time.Time, o outcome, err error) {
	value := s.conn.value
	if value == "" {
		value = noValue
	}
	col := s.log.record(intended, classOf(o, s.conn.status, err), o == answered, value)
	if col < 0 {
		return
	}
	if col >= len(s.byValue) {
		s.byValue = append(s.byValue, make([]int32, col+1-len(s.byValue))...)
	}
	s.byValue[col]++
}
