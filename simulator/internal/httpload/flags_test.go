package httpload

import (
	"errors"
	"flag"
	"strings"
	"testing"
	"time"
)

func TestParseRunReadsAGoodCommandLine(t *testing.T) {
	c, err := ParseRun([]string{"--url", "http://127.0.0.1:8080/index.html", "--rate", "250.5", "--duration", "3s",
		"--connections", "7", "--timeout", "500ms", "--method", "HEAD"})
	if err != nil {
		t.Fatal(err)
	}
	if c.URL.String() != "http://127.0.0.1:8080/index.html" || c.Rate != 250.5 || c.Duration != 3*time.Second ||
		c.Connections != 7 || c.Timeout != 500*time.Millisecond || c.Method != "HEAD" || c.ReportEvery != time.Second || c.RawLatencies {
		t.Fatalf("unexpected config %+v", c)
	}
}

func TestParseRunRefusesBadFlags(t *testing.T) {
	good := []string{"--url", "http://127.0.0.1:80/", "--rate", "10"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--rate", "10"}, "--url is required"},
		{append(good, "--insecure"), "are for https://"},
		{[]string{"--url", "https://127.0.0.1/", "--rate", "10", "--ca", "/nonexistent.pem"}, "--ca"},
		{[]string{"--url", "https://127.0.0.1/", "--rate", "10", "--ca", "flags.go"}, "no PEM certificate"},
		{[]string{"--url", "https://127.0.0.1/", "--rate", "10", "--ca", "x", "--insecure"}, "one or the other"},
		{[]string{"--url", "ftp://h/", "--rate", "10"}, "--url"},
		{[]string{"--url", "http:///x", "--rate", "10"}, "--url"},
		{[]string{"--url", "http://u:p@h/", "--rate", "10"}, "--url"},
		{[]string{"--url", "http://127.0.0.1/"}, "--rate"},
		{append(good, "--rate", "0"), "--rate"},
		{append(good, "--rate", "NaN"), "--rate"},
		{append(good, "--rate", "1e7"), "--rate"},
		{append(good, "--duration", "0s"), "--duration"},
		{append(good, "--duration", "25h"), "--duration"},
		{append(good, "--connections", "0"), "--connections"},
		{append(good, "--connections", "100001"), "--connections"},
		{append(good, "--timeout", "0s"), "--timeout"},
		{append(good, "--timeout", "3m"), "--timeout"},
		{append(good, "--method", "POST"), "--method"},
		{append(good, "--report-every", "10ms"), "--report-every"},
		{append(good, "--host", "a b"), "--host"},
		{append(good, "--host", "x\r\nEvil: 1"), "--host"},
		{append(good, "--bogus"), "flag provided but not defined"},
		{append(good, "extra"), "unexpected argument"},
		{append(good, "--duration", "5"), "invalid value"},
	} {
		_, err := ParseRun(c.args)
		var usage *UsageError
		if !errors.As(err, &usage) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: want a usage error naming %q, got %v", c.args, c.want, err)
		}
	}
	if _, err := ParseRun([]string{"--help"}); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("--help: want flag.ErrHelp, got %v", err)
	}
}

func TestParseServe(t *testing.T) {
	c, err := ParseServe([]string{"--listen", "127.0.0.1:0", "--stall-after", "2s", "--stall-for", "1s", "--delay", "5ms"})
	if err != nil || c.StallAfter != 2*time.Second || c.StallFor != time.Second || c.Delay != 5*time.Millisecond {
		t.Fatalf("got %+v, %v", c, err)
	}
	for _, args := range [][]string{{}, {"--listen", "nohost"}, {"--listen", "127.0.0.1:0", "--delay", "-1s"},
		{"--listen", "127.0.0.1:0", "--stall-for", "48h"}} {
		var usage *UsageError
		if _, err := ParseServe(args); !errors.As(err, &usage) {
			t.Errorf("%v: want a usage error, got %v", args, err)
		}
	}
}

func TestStallWindowHoldsUntilItEnds(t *testing.T) {
	from := time.Unix(1_700_000_000, 0)
	s := stallWindow{from: from, until: from.Add(time.Second)}
	for _, c := range []struct{ at, want time.Duration }{
		{-time.Millisecond, 0}, {0, time.Second}, {300 * time.Millisecond, 700 * time.Millisecond}, {time.Second, 0}} {
		if got := s.hold(from.Add(c.at)); got != c.want {
			t.Errorf("hold at +%v = %v, want %v", c.at, got, c.want)
		}
	}
}

func TestParseRunKeepsTheHostHeaderName(t *testing.T) {
	c, err := ParseRun([]string{"--url", "http://127.0.0.1:8080/", "--rate", "10", "--host", "www.example.lab"})
	if err != nil || c.Host != "www.example.lab" || c.URL.Hostname() != "127.0.0.1" {
		t.Fatalf("want the address in the URL and the name as Host, got %+v, %v", c, err)
	}
}
