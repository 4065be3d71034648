package procs

import (
	"context"
	"encoding/json"
	"io"
)

// Run is what a parent process does with its children: it starts one child
// per argument list (see Start), merges their NDJSON until they all end (see
// Merge), reaps them, and returns their summary lines and exit codes. The
// error is that of starting them; no child is left running then.
func Run(ctx context.Context, argLists [][]string, stderr io.Writer, onReady func(),
	onInterval func(n int64, lines [][]byte)) (summaries [][]byte, codes []int, err error) {
	fleet, err := Start(argLists, stderr)
	if err != nil {
		return nil, nil, err
	}
	summaries = fleet.Merge(ctx, onReady, onInterval)
	return summaries, fleet.Wait(), nil
}

// Decode unmarshals each line into a new T and leaves out the lines that do
// not decode.
func Decode[T any](lines [][]byte) []*T {
	out := make([]*T, 0, len(lines))
	for _, l := range lines {
		v := new(T)
		if json.Unmarshal(l, v) == nil {
			out = append(out, v)
		}
	}
	return out
}
