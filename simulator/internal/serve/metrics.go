package serve

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
)

// metrics holds the totals exposed as Prometheus text on --metrics.
type metrics struct {
	mu     sync.Mutex
	conns  int
	totals counters
}

// update adds one interval to the totals.
func (m *metrics) update(iv *Interval) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.conns = iv.Connections
	m.totals.add(&iv.counters)
}

// write renders the Prometheus text exposition format.
func (m *metrics) write(w io.Writer) {
	m.mu.Lock()
	conns, t := m.conns, m.totals
	m.mu.Unlock()
	fmt.Fprintf(w, "# HELP devsim_serve_connections Open device connections.\n# TYPE devsim_serve_connections gauge\ndevsim_serve_connections %d\n", conns)
	for _, c := range []struct {
		name, help string
		v          uint64
	}{
		{"accepted", "Connections accepted.", t.Accepted},
		{"logins", "Login frames answered.", t.Logins},
		{"reports", "Report frames received.", t.Reports},
		{"acks", "Report acks sent.", t.Acks},
		{"bad_frames", "Malformed frames or bad checksums (the connection is closed).", t.BadFrames},
		{"closed", "Connections closed by the device or on errors.", t.Closed},
		{"unknown_frames", "Valid frames of an unknown type.", t.Unknown},
		{"received_bytes", "Bytes received.", t.BytesIn},
		{"sent_bytes", "Bytes sent.", t.BytesOut},
	} {
		fmt.Fprintf(w, "# HELP devsim_serve_%s_total %s\n# TYPE devsim_serve_%s_total counter\ndevsim_serve_%s_total %d\n",
			c.name, c.help, c.name, c.name, c.v)
	}
}

// serveMetrics starts the /metrics endpoint on addr and returns its listener.
func (m *metrics) serveMetrics(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/metrics", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4")
		m.write(w)
	})
	go http.Serve(ln, mux)
	return ln, nil
}
