package capserver

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

func TestParseChecksRanges(t *testing.T) {
	c, err := Parse([]string{"--workers", "4", "--service-time", "2ms"})
	if err != nil || c.Workers != 4 || c.ServiceTime != 2*time.Millisecond {
		t.Fatalf("got %+v, %v", c, err)
	}
	for _, bad := range [][]string{{"--workers", "0", "--service-time", "1ms"}, {"--workers", "2"}, {"--workers", "2", "--service-time", "1h"}} {
		var usage *UsageError
		if _, err := Parse(bad); !errors.As(err, &usage) {
			t.Errorf("%v: want a usage error, got %v", bad, err)
		}
	}
	if !Wanted([]string{"--listen", "x", "--workers=3"}) || Wanted([]string{"--listen", "x", "--delay", "1ms"}) {
		t.Error("Wanted misreads the command line")
	}
}

// All workers busy: the next request is refused at once; the answers' lateness is recorded.
func TestRefusesWhenAllWorkersAreBusyAndMeasuresServiceTime(t *testing.T) {
	srv := New(Config{Workers: 2, ServiceTime: 50 * time.Millisecond})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	var wg sync.WaitGroup
	codes := make(chan int, 3)
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := http.Get(ts.URL)
			if err == nil {
				codes <- resp.StatusCode
				resp.Body.Close()
			}
		}()
	}
	time.Sleep(20 * time.Millisecond)
	resp, err := http.Get(ts.URL)
	if err != nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("third request while both workers are busy: %v %v", resp, err)
	}
	resp.Body.Close()
	wg.Wait()
	close(codes)
	for code := range codes {
		if code != http.StatusOK {
			t.Errorf("a served request answered %d", code)
		}
	}
	s := srv.Snapshot()
	if s.Served != 2 || s.Refused != 1 || s.ServiceTimeS != 0.05 || s.AnswerLateS < 0 || s.AnswerLateS > 0.01 {
		t.Fatalf("stats %+v", s)
	}
	if want := 2 / s.ServiceTimeS; s.Capacity != want {
		t.Fatalf("capacity %v, want %v", s.Capacity, want)
	}
}

// A worker is free exactly D after it took a request, whether or not its goroutine has run since:
// after a host stall the first request read must not be refused by a worker whose time is up.
func TestAWorkerIsFreeByTheClockNotWhenItsGoroutineWakes(t *testing.T) {
	const d = 20 * time.Millisecond
	srv := New(Config{Workers: 2, ServiceTime: d})
	for i, step := range []struct {
		at   time.Duration
		want bool
	}{{0, true}, {5 * time.Millisecond, true}, {19 * time.Millisecond, false}, {d, true}, {d + 4*time.Millisecond, false}, {d + 5*time.Millisecond, true}, {time.Second, true}, {time.Second, true}, {time.Second, false}} {
		if _, ok := srv.admit(step.at); ok != step.want {
			t.Fatalf("request %d at %v: admitted %v, want %v", i, step.at, ok, step.want)
		}
	}
	if s := srv.Snapshot(); s.Refused != 3 || s.Capacity != 2/d.Seconds() {
		t.Fatalf("stats %+v", s)
	}
}
