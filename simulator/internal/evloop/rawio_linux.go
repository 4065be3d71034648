package evloop

import (
	"syscall"
	"unsafe"
)

// Read and Write are read(2) and write(2) for the shards' non-blocking
// sockets, made with RawSyscall: such a call never blocks, so the Go
// runtime's syscall bookkeeping (entersyscall/exitsyscall, and sysmon
// handing the P to another thread when a loopback write runs past 20 µs
// doing the receiver's TCP work inline) is pure cost for an event loop that
// makes one or two of these calls per report.
func Read(fd int, p []byte) (int, error) { return rawIO(syscall.SYS_READ, fd, p) }

// Write writes p to fd; see Read.
func Write(fd int, p []byte) (int, error) { return rawIO(syscall.SYS_WRITE, fd, p) }

func rawIO(trap uintptr, fd int, p []byte) (int, error) {
	var ptr unsafe.Pointer
	if len(p) > 0 {
		ptr = unsafe.Pointer(&p[0])
	}
	n, _, e := syscall.RawSyscall(trap, uintptr(fd), uintptr(ptr), uintptr(len(p)))
	if e != 0 {
		return -1, e
	}
	return int(n), nil
}
