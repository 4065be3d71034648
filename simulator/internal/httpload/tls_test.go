package httpload

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// tlsServer is an https server on loopback (its certificate names example.com and 127.0.0.1)
// that closes every connection after one answer when `closeEach`; it records the SNI names it saw.
func tlsServer(t *testing.T, closeEach bool) (*httptest.Server, string, func() []string) {
	t.Helper()
	var mu sync.Mutex
	var names []string
	server := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if closeEach {
			w.Header().Set("Connection", "close")
		}
		_, _ = w.Write([]byte("ok"))
	}))
	server.TLS = &tls.Config{GetConfigForClient: func(hello *tls.ClientHelloInfo) (*tls.Config, error) {
		mu.Lock()
		names = append(names, hello.ServerName)
		mu.Unlock()
		return nil, nil
	}}
	server.StartTLS()
	t.Cleanup(server.Close)
	ca := filepath.Join(t.TempDir(), "ca.pem")
	block := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: server.Certificate().Raw})
	if err := os.WriteFile(ca, block, 0o600); err != nil {
		t.Fatal(err)
	}
	return server, ca, func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), names...) }
}

// loadTLS runs an https point against server with extra flags and returns its point line.
func loadTLS(t *testing.T, server *httptest.Server, rate float64, conns int, flags ...string) Point {
	t.Helper()
	u, _ := url.Parse(server.URL)
	cfg, err := ParseRun(append([]string{"--url", u.String() + "/", "--rate", formatRate(rate),
		"--duration", "500ms", "--connections", itoa(conns), "--report-every", "250ms"}, flags...))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := Run(context.Background(), cfg, &out); err != nil {
		t.Fatal(err)
	}
	return lastPoint(t, out.String())
}

func TestHTTPSVerifiesAgainstTheCABundleAndSendsTheTargetsNameAsSNI(t *testing.T) {
	server, ca, names := tlsServer(t, false)
	p := loadTLS(t, server, 100, 2, "--ca", ca, "--host", "example.com:443")
	if p.Completed != 50 || p.ErrorsTotal != 0 || p.Full < 1 || p.Full > 2 {
		t.Fatalf("want 50 answers over at most 2 handshakes, got %+v", p)
	}
	if p.TLS == nil || p.TLS.Verify != "ca-bundle" || p.TLS.ServerName != "example.com" || !p.TLS.Resumption {
		t.Fatalf("the point says how TLS was spoken: %+v", p.TLS)
	}
	for _, name := range names() {
		if name != "example.com" {
			t.Fatalf("SNI %q, want the target's name", name)
		}
	}
}

func TestSessionsAreResumedUnlessAskedNotTo(t *testing.T) {
	server, ca, _ := tlsServer(t, true) // a new connection, so a new handshake, for every request
	p := loadTLS(t, server, 60, 1, "--ca", ca)
	if p.Completed != 30 || p.Full != 30 || p.Resumed < 25 {
		t.Fatalf("want 30 handshakes, nearly all resumed; got %d answers, %d handshakes, %d resumed", p.Completed, p.Full, p.Resumed)
	}
	p = loadTLS(t, server, 60, 1, "--ca", ca, "--no-resume")
	if p.Full != 30 || p.Resumed != 0 || p.TLS.Resumption {
		t.Fatalf("--no-resume: want 30 full handshakes, got %d (%d resumed)", p.Full, p.Resumed)
	}
}

func TestACertificateThatDoesNotVerifyIsATLSErrorWithItsReason(t *testing.T) {
	server, _, _ := tlsServer(t, false)
	p := loadTLS(t, server, 40, 2) // the system's roots do not know httptest's certificate
	if p.Completed != 0 || p.Errors.TLS != 20 || p.ErrorsTotal != 20 || p.Full != 0 {
		t.Fatalf("want 20 TLS errors and no answer, got %+v", p)
	}
	if reason := p.FirstErrors["tls"]; !strings.Contains(reason, "TLS handshake") || !strings.Contains(reason, "certificate") {
		t.Fatalf("want the verification failure as the reason, got %q", reason)
	}
	p = loadTLS(t, server, 40, 2, "--insecure")
	if p.Completed != 20 || p.TLS.Verify != "skipped" {
		t.Fatalf("--insecure: want 20 answers and verification shown as skipped, got %+v", p)
	}
}
