package httpload

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"os"
)

// TLSError is a failed handshake: the request is counted as a "tls" error with its reason.
type TLSError struct{ Err error }

// Error says the handshake failed and why.
func (e *TLSError) Error() string { return "TLS handshake: " + e.Err.Error() }

// Unwrap is the handshake's own error.
func (e *TLSError) Unwrap() error { return e.Err }

// serverName is the name sent as SNI and verified: --host's name, else the URL's host.
func (c RunConfig) serverName() string {
	if c.Host != "" {
		if host, _, err := net.SplitHostPort(c.Host); err == nil {
			return host
		}
		return c.Host
	}
	return c.URL.Hostname()
}

// tlsInfo is the report's account of TLS, nil for http://.
func (c RunConfig) tlsInfo() *TLSInfo {
	if c.URL == nil || c.URL.Scheme != "https" {
		return nil
	}
	verify := "system"
	switch {
	case c.Insecure:
		verify = "skipped"
	case c.CAFile != "":
		verify = "ca-bundle"
	}
	return &TLSInfo{ServerName: c.serverName(), Verify: verify, Resumption: !c.NoResume}
}

// loadCA reads a PEM bundle of CA certificates.
func loadCA(path string) (*x509.CertPool, error) {
	pem, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("no PEM certificate in %s", path)
	}
	return pool, nil
}

// tlsConfig is the client side of every connection: SNI and verification against the target's
// name, the CA bundle or the system's roots (or none when asked), one session cache shared by
// every connection unless resumption is off, HTTP/1.1 only.
func (c RunConfig) tlsConfig() *tls.Config {
	conf := &tls.Config{ServerName: c.serverName(), RootCAs: c.roots, InsecureSkipVerify: c.Insecure, //nolint:gosec // asked for, and shown on the report
		NextProtos: []string{"http/1.1"}}
	if !c.NoResume {
		conf.ClientSessionCache = tls.NewLRUClientSessionCache(max(c.Connections, 64))
	}
	return conf
}

// tlsDialer dials TCP, then shakes hands, counting each handshake in the sender's shard.
func tlsDialer(conf *tls.Config, s *shard) func(ctx context.Context, network, addr string) (net.Conn, error) {
	var dialer net.Dialer
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		raw, err := dialer.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		conn := tls.Client(raw, conf)
		if err := conn.HandshakeContext(ctx); err != nil {
			raw.Close()
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, &TLSError{err}
		}
		s.handshake(conn.ConnectionState().DidResume)
		return conn, nil
	}
}
