package evloop

import (
	"errors"
	"fmt"
	"net"
	"syscall"
)

// ipBindAddressNoPort (IP_BIND_ADDRESS_NO_PORT, Linux 4.2+) defers the choice
// of the local port to connect time, so one source address can reach ~28k
// ports per destination rather than sharing one ephemeral pool across binds.
const ipBindAddressNoPort = 24

// Sockaddr converts a TCP address to its syscall form.
func Sockaddr(ip net.IP, port int) (syscall.Sockaddr, error) {
	if v4 := ip.To4(); v4 != nil {
		sa := &syscall.SockaddrInet4{Port: port}
		copy(sa.Addr[:], v4)
		return sa, nil
	}
	if v6 := ip.To16(); v6 != nil {
		sa := &syscall.SockaddrInet6{Port: port}
		copy(sa.Addr[:], v6)
		return sa, nil
	}
	return nil, fmt.Errorf("not an IP address: %v", ip)
}

// CloneSockaddr copies an address. The syscall package scribbles on a
// Sockaddr when it is used, so each event loop needs its own copies.
func CloneSockaddr(sa syscall.Sockaddr) syscall.Sockaddr {
	switch a := sa.(type) {
	case *syscall.SockaddrInet4:
		return &syscall.SockaddrInet4{Port: a.Port, Addr: a.Addr}
	case *syscall.SockaddrInet6:
		return &syscall.SockaddrInet6{Port: a.Port, ZoneId: a.ZoneId, Addr: a.Addr}
	}
	return sa
}

// Dial starts a non-blocking TCP connect to target, from source when it is not
// nil. A nil error means the connection is in progress: wait for Out and then
// ask ConnectResult.
func Dial(target, source syscall.Sockaddr) (int, error) {
	family := syscall.AF_INET
	if _, ok := target.(*syscall.SockaddrInet6); ok {
		family = syscall.AF_INET6
	}
	fd, err := syscall.Socket(family, syscall.SOCK_STREAM|syscall.SOCK_NONBLOCK|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	if err = prepare(fd, family, source); err == nil {
		err = syscall.Connect(fd, target)
		if errors.Is(err, syscall.EINPROGRESS) || errors.Is(err, syscall.EINTR) {
			err = nil
		}
	}
	if err != nil {
		syscall.Close(fd)
		return -1, err
	}
	return fd, nil
}

func prepare(fd, family int, source syscall.Sockaddr) error {
	if err := syscall.SetsockoptInt(fd, syscall.IPPROTO_TCP, syscall.TCP_NODELAY, 1); err != nil {
		return err
	}
	if source == nil {
		return nil
	}
	if family == syscall.AF_INET {
		// Best effort: old kernels lack it and fall back to bind-time ports.
		_ = syscall.SetsockoptInt(fd, syscall.IPPROTO_IP, ipBindAddressNoPort, 1)
	}
	return syscall.Bind(fd, source)
}

// ConnectResult returns the outcome of a non-blocking connect once fd is writable.
func ConnectResult(fd int) error {
	v, err := syscall.GetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_ERROR)
	if err != nil {
		return err
	}
	if v != 0 {
		return syscall.Errno(v)
	}
	return nil
}

// Reason names a socket error the way run reports failures.
func Reason(err error) string {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return "other"
	}
	switch errno {
	case syscall.ECONNREFUSED:
		return "refused"
	case syscall.ETIMEDOUT:
		return "timeout"
	case syscall.ECONNRESET, syscall.EPIPE, syscall.ECONNABORTED:
		return "reset"
	case syscall.EADDRNOTAVAIL, syscall.EADDRINUSE:
		return "eaddrnotavail"
	case syscall.EMFILE, syscall.ENFILE:
		return "emfile"
	case syscall.ENETUNREACH, syscall.EHOSTUNREACH:
		return "unreachable"
	case syscall.ENOBUFS, syscall.ENOMEM:
		return "nobufs"
	}
	return "other"
}

// Temporary reports whether a read or write error only means "try later".
func Temporary(err error) bool {
	return errors.Is(err, syscall.EAGAIN) || errors.Is(err, syscall.EINTR)
}
