package httpload

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"syscall"
	"time"
)

// conn is one sender's HTTP/1.1 keep-alive connection, driven by that sender alone: it writes
// the request and reads the whole response itself (no transport goroutines handing requests
// and responses over channels, no connection pool, no lock).
type conn struct {
	dial    func(ctx context.Context, network, addr string) (net.Conn, error)
	addr    string        // host:port dialed (the checked address)
	request []byte        // the request, built once
	probe   *http.Request // what http.ReadResponse needs to know of it (the method)
	timeout time.Duration
	raw     net.Conn
	br      *bufio.Reader
	unwatch func() bool // stops the watch that cuts the connection off when in-flight requests are abandoned
	reused  bool        // raw has answered a request already
	warmed  bool        // raw was dialed ahead of its first request (warm): the server may have closed it since

	status  int            // the last response's status (0: the last request got none)
	counted string         // the canonical name of the header whose value is kept ("": none)
	value   string         // the last response's value of that header
	jar     http.CookieJar // --cookies: this connection's own cookies (nil: none sent, none kept)
	jarURL  *url.URL       // the URL cookies are kept for (the Host header's name)
	base    []byte         // the request without its Cookie header (with a jar)
}

// newConn is a connection (not yet dialed) for cfg's requests through dial.
func newConn(cfg RunConfig, dial func(ctx context.Context, network, addr string) (net.Conn, error)) *conn {
	host := cfg.Host
	if host == "" {
		host = cfg.URL.Host
	}
	request := fmt.Sprintf("%s %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: kbhttp/%s\r\n\r\n", cfg.Method, cfg.URL.RequestURI(), host, Version)
	probe := &http.Request{Method: cfg.Method, URL: cfg.URL}
	c := &conn{dial: dial, addr: address(cfg), request: []byte(request), probe: probe, timeout: cfg.Timeout, br: bufio.NewReaderSize(nil, 16<<10),
		counted: http.CanonicalHeaderKey(cfg.CountHeader)}
	if cfg.Cookies {
		c.jar, _ = cookiejar.New(nil) // New never fails without options
		c.jarURL = &url.URL{Scheme: cfg.URL.Scheme, Host: host, Path: cfg.URL.Path}
		c.base = c.request
	}
	return c
}

// keepCookies stores a response's cookies in the connection's jar and rebuilds the request with a Cookie header
// (only when the response set one: most responses cost nothing).
func (c *conn) keepCookies(resp *http.Response) {
	if c.jar == nil || len(resp.Header["Set-Cookie"]) == 0 {
		return
	}
	c.jar.SetCookies(c.jarURL, resp.Cookies())
	request := c.base[: len(c.base)-2 : len(c.base)-2] // without the blank line; the cap makes append copy
	if cookies := c.jar.Cookies(c.jarURL); len(cookies) > 0 {
		request = append(request, "Cookie: "...)
		for i, cookie := range cookies {
			if i > 0 {
				request = append(request, "; "...)
			}
			request = append(request, cookie.Name+"="+cookie.Value...)
		}
		request = append(request, "\r\n"...)
	}
	c.request = append(request, "\r\n"...)
}

// address is the URL's host:port, the scheme's port when it names none.
func address(cfg RunConfig) string {
	if port := cfg.URL.Port(); port != "" {
		return net.JoinHostPort(cfg.URL.Hostname(), port)
	}
	if cfg.URL.Scheme == "https" {
		return net.JoinHostPort(cfg.URL.Hostname(), "443")
	}
	return net.JoinHostPort(cfg.URL.Hostname(), "80")
}

// do sends the request and reads its whole response, within the timeout; ctx ending (the run
// abandoned) cuts it off. A kept-alive connection the server had closed meanwhile is dialed
// again once, as HTTP clients do for idempotent requests.
func (c *conn) do(ctx context.Context) (outcome, error) {
	deadline := time.Now().Add(c.timeout)
	for attempt := 0; ; attempt++ {
		if c.raw == nil {
			if err := c.connect(ctx, deadline); err != nil {
				return c.failure(ctx, err)
			}
		}
		mayBeStale := c.reused || c.warmed
		o, err := c.exchange(deadline)
		if err == nil || o == badStatus {
			return o, err
		}
		c.close()
		if mayBeStale && attempt == 0 && ctx.Err() == nil && stale(err) {
			continue
		}
		return c.failure(ctx, err)
	}
}

// exchange writes the request and reads the response over the open connection.
func (c *conn) exchange(deadline time.Time) (outcome, error) {
	c.status, c.value = 0, ""
	if err := c.raw.SetDeadline(deadline); err != nil {
		return failed, err
	}
	if _, err := c.raw.Write(c.request); err != nil {
		return failed, err
	}
	resp, err := http.ReadResponse(c.br, c.probe)
	if err != nil {
		return failed, err
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err != nil {
		return failed, err
	}
	c.reused = true
	c.status = resp.StatusCode
	if c.counted != "" {
		if values := resp.Header[c.counted]; len(values) > 0 {
			c.value = values[0]
		}
	}
	c.keepCookies(resp)
	if resp.Close {
		c.close()
	}
	if resp.StatusCode < 200 || resp.StatusCode > 399 {
		return badStatus, fmt.Errorf("%s %s: %s", c.probe.Method, c.probe.URL, resp.Status)
	}
	return answered, nil
}

// connect dials (and, for https, shakes hands) by the deadline.
func (c *conn) connect(ctx context.Context, deadline time.Time) error {
	dialing, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	raw, err := c.dial(dialing, "tcp", c.addr)
	if err != nil {
		return err
	}
	c.raw, c.reused, c.warmed = raw, false, false
	c.br.Reset(raw)
	c.unwatch = context.AfterFunc(ctx, func() { _ = raw.SetDeadline(time.Unix(1, 0)) })
	return nil
}

// failure is how a request that got no usable response ended.
func (c *conn) failure(ctx context.Context, err error) (outcome, error) {
	if ctx.Err() != nil {
		return cancelled, err
	}
	return classify(ctx, err), err
}

// close drops the connection (the next request dials again).
func (c *conn) close() {
	if c.raw != nil {
		c.unwatch()
		c.raw.Close()
		c.raw = nil
	}
}

// stale says a kept-alive connection was closed by the server before this request reached it.
func stale(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}

// plainDialer dials TCP.
func plainDialer() func(ctx context.Context, network, addr string) (net.Conn, error) {
	var dialer net.Dialer
	return dialer.DialContext
}
