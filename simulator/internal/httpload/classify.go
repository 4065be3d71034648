package httpload

import (
	"context"
	"errors"
	"net"
	"syscall"
)

// classify names a transport error: cut off by a stop, a timeout, a connection that could not be made, or other.
func classify(ctx context.Context, err error) outcome {
	var netErr net.Error
	var opErr *net.OpError
	var tlsErr *TLSError
	switch {
	case ctx.Err() != nil && errors.Is(err, context.Canceled):
		return cancelled
	case errors.As(err, &tlsErr):
		return tlsFailed
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return timedOut
	case errors.Is(err, syscall.ECONNREFUSED), errors.As(err, &opErr) && opErr.Op == "dial":
		return refused
	default:
		return failed
	}
}
