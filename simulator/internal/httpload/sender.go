package httpload

import (
	"context"
	"crypto/tls"
	"time"
)

// sender is one connection's sender: its own connection (driven by it alone), its own waker,
// and a shard of the recorder.
type sender struct {
	conn    *conn
	wake    *waker
	shard   *shard
	keepRaw bool
}

// newSender is sender k of the run; tlsConf is nil for http://.
func newSender(cfg RunConfig, k int, rec *Recorder, tlsConf *tls.Config) *sender {
	s := &sender{wake: newWaker(), shard: rec.shardFor(k), keepRaw: rec.keepRaw}
	dial := plainDialer()
	if tlsConf != nil {
		dial = tlsDialer(tlsConf, s.shard)
	}
	s.conn = newConn(cfg, dial)
	return s
}

// loop claims the next request of the schedule, waits until it is due, sends it and records
// it, until the schedule ends or sending stops; onStop marks when it stopped early. A request
// that was already due when claimed (it waited for this connection) is not sent once the
// duration is over: it is dropped. One this sender waited for is sent when the pacer releases
// it, even if a loaded machine made that a little late; only a stop (ctx) ends that wait.
func (s *sender) loop(ctx, sending, inFlight context.Context, c *clock, next func() int64, onStop func()) {
	defer s.conn.close()
	for {
		i := next()
		if i >= c.sched.Total {
			return
		}
		queued := i < c.due.Load() // already due: it waited for a connection to be free
		if (queued && sending.Err() != nil) || !c.wait(ctx, i, s.wake) {
			onStop()
			return
		}
		intended := c.sched.Intended(i)
		sent := time.Now()
		o, err := s.conn.do(inFlight)
		done := time.Now()
		s.shard.record(request{o: o, err: err, queued: queued, lateUS: LatencyUS(intended, sent),
			responseUS: LatencyUS(intended, done), serviceUS: LatencyUS(sent, done)}, s.keepRaw)
	}
}
