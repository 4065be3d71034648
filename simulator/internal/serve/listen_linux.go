package serve

import (
	"context"
	"net"
	"syscall"
)

// soReusePort is SO_REUSEPORT on Linux (the syscall package lacks the name).
const soReusePort = 0xf

// listen opens a TCP listener with SO_REUSEPORT, so several processes can
// share one address and the kernel spreads connections over them.
func listen(addr string) (net.Listener, error) {
	lc := net.ListenConfig{Control: func(_, _ string, c syscall.RawConn) error {
		var serr error
		err := c.Control(func(fd uintptr) {
			serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, soReusePort, 1)
		})
		if err != nil {
			return err
		}
		return serr
	}}
	return lc.Listen(context.Background(), "tcp", addr)
}

// takeFD detaches the socket of an accepted connection from Go's poller: it
// returns a duplicate descriptor (non-blocking, close-on-exec) for a shard and
// closes the original.
func takeFD(conn net.Conn) (int, error) {
	defer conn.Close()
	raw, err := conn.(*net.TCPConn).SyscallConn()
	if err != nil {
		return -1, err
	}
	fd := -1
	var derr error
	if err := raw.Control(func(s uintptr) { fd, derr = syscall.Dup(int(s)) }); err != nil {
		return -1, err
	}
	if derr != nil {
		return -1, derr
	}
	syscall.CloseOnExec(fd)
	return fd, syscall.SetNonblock(fd, true)
}
