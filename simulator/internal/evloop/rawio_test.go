package evloop

import (
	"errors"
	"syscall"
	"testing"
)

func TestRawReadWrite(t *testing.T) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fds[1])
	buf := make([]byte, 16)
	if n, err := Read(fds[1], buf); n != -1 || !errors.Is(err, syscall.EAGAIN) || !Temporary(err) {
		t.Fatalf("Read on an empty socket = %d, %v; want -1, EAGAIN", n, err)
	}
	if n, err := Write(fds[0], []byte("report")); n != 6 || err != nil {
		t.Fatalf("Write = %d, %v", n, err)
	}
	if n, err := Write(fds[0], nil); n != 0 || err != nil {
		t.Fatalf("Write(nil) = %d, %v", n, err)
	}
	if n, err := Read(fds[1], buf); n != 6 || err != nil || string(buf[:n]) != "report" {
		t.Fatalf("Read = %d, %v, %q", n, err, buf[:max(n, 0)])
	}
	syscall.Close(fds[0])
	if n, err := Read(fds[1], buf); n != 0 || err != nil {
		t.Fatalf("Read after the peer closed = %d, %v; want 0, nil", n, err)
	}
	if _, err := Write(-1, buf); !errors.Is(err, syscall.EBADF) {
		t.Fatalf("Write(-1) error = %v, want EBADF", err)
	}
}
