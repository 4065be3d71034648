package httpload

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/url"
	"strings"
	"testing"
	"time"
)

// oneAnswerServer answers one request per connection, then closes it without saying so (as a
// server closing an idle keep-alive connection does); it returns its address and the requests it read.
func oneAnswerServer(t *testing.T) (string, <-chan string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	heads := make(chan string, 100)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				r := bufio.NewReader(c)
				var head strings.Builder
				for {
					line, err := r.ReadString('\n')
					if err != nil {
						return
					}
					head.WriteString(line)
					if line == "\r\n" {
						break
					}
				}
				heads <- head.String()
				_, _ = io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
			}()
		}
	}()
	return ln.Addr().String(), heads
}

func TestAConnectionTheServerClosedIsDialedAgainAndTheRequestCarriesTheName(t *testing.T) {
	addr, heads := oneAnswerServer(t)
	cfg := RunConfig{URL: &url.URL{Scheme: "http", Host: addr, Path: "/p", RawQuery: "q=1"}, Method: "GET", Host: "www.example.lab:80",
		Rate: 40, Duration: 250 * time.Millisecond, Connections: 1, Timeout: time.Second, ReportEvery: time.Second}
	c := newConn(cfg, plainDialer())
	defer c.close()
	for i := range 3 {
		if o, err := c.do(context.Background()); o != answered || err != nil {
			t.Fatalf("request %d: %v %v (the closed connection must be dialed again)", i, o, err)
		}
		time.Sleep(10 * time.Millisecond) // the server has closed it by now
	}
	head := <-heads
	if !strings.HasPrefix(head, "GET /p?q=1 HTTP/1.1\r\nHost: www.example.lab:80\r\n") {
		t.Fatalf("request head %q", head)
	}
}

func TestATimeoutIsCountedAsOne(t *testing.T) {
	addr := serve(t, ServeConfig{Listen: "127.0.0.1:0", Delay: 300 * time.Millisecond})
	cfg := RunConfig{URL: &url.URL{Scheme: "http", Host: addr, Path: "/"}, Method: "HEAD", Timeout: 100 * time.Millisecond}
	c := newConn(cfg, plainDialer())
	defer c.close()
	if o, err := c.do(context.Background()); o != timedOut || err == nil {
		t.Fatalf("want a timeout, got %v %v", o, err)
	}
}
