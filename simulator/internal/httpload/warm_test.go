package httpload

import (
	"context"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
	"time"
)

// countingServer answers 200 on loopback. It counts the connections it accepted, and keeps when
// the first request came and when the last connection was accepted (ns since the epoch).
type countingServer struct {
	addr                       string
	accepted, first, lastNewNS atomic.Int64
}

func newCountingServer(t *testing.T) *countingServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c := &countingServer{addr: ln.Addr().String()}
	server := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			c.first.CompareAndSwap(0, time.Now().UnixNano())
			_, _ = w.Write([]byte("ok"))
		}),
		ConnState: func(_ net.Conn, state http.ConnState) {
			if state == http.StateNew {
				c.accepted.Add(1)
				c.lastNewNS.Store(time.Now().UnixNano())
			}
		}}
	go func() { _ = server.Serve(ln) }()
	t.Cleanup(func() { server.Close() })
	return c
}

func TestConnectionsAreDialedBeforeTheFirstRequestIsDue(t *testing.T) {
	c := newCountingServer(t)
	// 20 req/s over 16 connections: dialed at its first request, the 16th would open 0.75 s into the run.
	_, p := load(t, context.Background(), c.addr, 20, time.Second, 16)
	after := time.Duration(c.lastNewNS.Load() - c.first.Load())
	// the server may accept a connection the client has already opened a little after the first request
	if p.Completed != 20 || c.accepted.Load() != 16 || after > 200*time.Millisecond {
		t.Fatalf("want 20 answered over 16 connections, all open by the first request; got %d answered, %d connections, the last accepted %s after it",
			p.Completed, c.accepted.Load(), after)
	}
}

func TestNoMoreConnectionsAreDialedThanRequestsIntended(t *testing.T) {
	c := newCountingServer(t)
	_, p := load(t, context.Background(), c.addr, 3, time.Second, 50)
	if p.Completed != 3 || c.accepted.Load() > 3 {
		t.Fatalf("want 3 answered over at most 3 connections, got %d answered, %d connections", p.Completed, c.accepted.Load())
	}
}
