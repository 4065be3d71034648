package httpload

import (
	"context"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
	"time"
)

// countingServer answers 200 on loopback; it counts the connections it accepted, and how many it
// had accepted when the first request came.
func countingServer(t *testing.T) (addr string, accepted, atFirst *atomic.Int64) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	accepted, atFirst = new(atomic.Int64), new(atomic.Int64)
	atFirst.Store(-1)
	server := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			atFirst.CompareAndSwap(-1, accepted.Load())
			_, _ = w.Write([]byte("ok"))
		}),
		ConnState: func(_ net.Conn, state http.ConnState) {
			if state == http.StateNew {
				accepted.Add(1)
			}
		}}
	go func() { _ = server.Serve(ln) }()
	t.Cleanup(func() { server.Close() })
	return ln.Addr().String(), accepted, atFirst
}

func TestConnectionsAreDialedBeforeTheFirstRequestIsDue(t *testing.T) {
	addr, accepted, atFirst := countingServer(t)
	// 20 req/s over 16 connections: dialed at its first request, the 16th would open 0.75 s into the run.
	_, p := load(t, context.Background(), addr, 20, time.Second, 16)
	if p.Completed != 20 || accepted.Load() != 16 || atFirst.Load() != 16 {
		t.Fatalf("want 20 answered over 16 connections, all open before the first request; got %d answered, %d connections, %d open at the first",
			p.Completed, accepted.Load(), atFirst.Load())
	}
}

func TestNoMoreConnectionsAreDialedThanRequestsIntended(t *testing.T) {
	addr, accepted, _ := countingServer(t)
	_, p := load(t, context.Background(), addr, 3, time.Second, 50)
	if p.Completed != 3 || accepted.Load() > 3 {
		t.Fatalf("want 3 answered over at most 3 connections, got %d answered, %d connections", p.Completed, accepted.Load())
	}
}
