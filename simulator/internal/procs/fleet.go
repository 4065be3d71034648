// Package procs runs a command over several child processes of this same
// executable and merges their NDJSON output into one stream.
package procs

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"syscall"
)

// ChildFlag is the hidden flag that marks a child process.
const ChildFlag = "--child"

// Fleet is a set of running child processes.
type Fleet struct {
	cmds  []*exec.Cmd
	lines chan line
}

// line is one NDJSON line of one child, or its end (data nil).
type line struct {
	child int
	data  []byte
	err   error
}

// Start launches one child per argument list: this executable re-run with
// the given arguments. Their stderr goes to stderr; their stdout is read as
// NDJSON.
func Start(argLists [][]string, stderr io.Writer) (*Fleet, error) {
	exe, err := os.Executable()
	if err != nil {
		exe = os.Args[0]
	}
	f := &Fleet{lines: make(chan line, 64)}
	for i, args := range argLists {
		cmd := exec.Command(exe, args...)
		cmd.Stderr = stderr
		cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
		out, err := cmd.StdoutPipe()
		if err == nil {
			err = cmd.Start()
		}
		if err != nil {
			f.Signal(syscall.SIGKILL)
			f.Wait()
			return nil, fmt.Errorf("starting child %d: %w", i, err)
		}
		f.cmds = append(f.cmds, cmd)
		go f.read(i, out)
	}
	return f, nil
}

func (f *Fleet) read(child int, r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		f.lines <- line{child: child, data: append([]byte(nil), sc.Bytes()...)}
	}
	f.lines <- line{child: child, err: sc.Err()}
}

// Size is the number of children.
func (f *Fleet) Size() int { return len(f.cmds) }

// Signal sends sig to every child still running.
func (f *Fleet) Signal(sig os.Signal) {
	for _, c := range f.cmds {
		if c.Process != nil && c.ProcessState == nil {
			_ = c.Process.Signal(sig)
		}
	}
}

// Wait reaps the children and returns their exit codes.
func (f *Fleet) Wait() []int {
	codes := make([]int, len(f.cmds))
	for i, c := range f.cmds {
		_ = c.Wait()
		codes[i] = c.ProcessState.ExitCode()
	}
	return codes
}

// head is the part of a child line the merger needs to order it.
type head struct {
	N       int64 `json:"n"`
	Summary bool  `json:"summary"`
	Ready   bool  `json:"ready"`
}

// Ready is the line a child prints once it is ready (e.g. listening).
type Ready struct {
	Ready bool   `json:"ready"`
	Addr  string `json:"addr,omitempty"`
}

// Merge reads the children's lines until they all end. Interval lines are
// grouped by their "n" and handed to onInterval in order once every child
// still running has sent that interval; summary lines are returned. When ctx
// is cancelled the children get SIGTERM (once) and are expected to print
// their summaries and exit. onReady, when not nil, is called once every
// child has printed a Ready line.
func (f *Fleet) Merge(ctx context.Context, onReady func(), onInterval func(n int64, lines [][]byte)) (summaries [][]byte) {
	ready := 0
	pending := map[int64][][]byte{}
	last := make([]int64, len(f.cmds)) // highest interval each child sent; MaxInt64 once it ended
	running := len(f.cmds)
	next := int64(1)
	complete := func(n int64) bool {
		for _, l := range last {
			if l < n {
				return false
			}
		}
		return true
	}
	flush := func() {
		for len(pending) > 0 && complete(next) {
			if group, ok := pending[next]; ok {
				delete(pending, next)
				onInterval(next, group)
			}
			next++
		}
	}
	done := ctx.Done()
	for running > 0 {
		select {
		case <-done:
			f.Signal(syscall.SIGTERM)
			done = nil
		case l := <-f.lines:
			if l.data == nil {
				running--
				last[l.child] = math.MaxInt64
				flush()
				continue
			}
			var h head
			if err := json.Unmarshal(l.data, &h); err != nil {
				continue
			}
			if h.Summary {
				summaries = append(summaries, l.data)
				continue
			}
			if h.Ready {
				if ready++; ready == len(f.cmds) && onReady != nil {
					onReady()
				}
				continue
			}
			last[l.child] = max(last[l.child], h.N)
			if h.N >= next {
				pending[h.N] = append(pending[h.N], l.data)
			}
			flush()
		}
	}
	return summaries
}
