// Package evloop is the small epoll toolkit the simulator's shards run on:
// one poller per shard, non-blocking sockets driven directly by syscalls, so a
// connection costs a file descriptor and a few hundred bytes, not a goroutine.
package evloop

import (
	"errors"
	"syscall"
)

// Event masks used by the shards. Both are edge-triggered: the kernel does
// not re-poll a socket after reporting it, so a reader must drain what is
// there (a read that fills the whole buffer is followed by another read).
const (
	In  = syscall.EPOLLIN | syscall.EPOLLRDHUP | edgeTriggered
	Out = syscall.EPOLLOUT | edgeTriggered
)

const edgeTriggered = 1 << 31 // EPOLLET; syscall.EPOLLET is negative

// Poller wraps one epoll instance.
type Poller struct {
	fd     int
	events []syscall.EpollEvent
}

// NewPoller creates an epoll instance that returns up to batch events a call.
func NewPoller(batch int) (*Poller, error) {
	fd, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		return nil, err
	}
	return &Poller{fd: fd, events: make([]syscall.EpollEvent, batch)}, nil
}

// Add starts watching fd for the given events.
func (p *Poller) Add(fd int, events uint32) error {
	ev := syscall.EpollEvent{Events: events, Fd: int32(fd)}
	return syscall.EpollCtl(p.fd, syscall.EPOLL_CTL_ADD, fd, &ev)
}

// Modify changes the events watched on fd.
func (p *Poller) Modify(fd int, events uint32) error {
	ev := syscall.EpollEvent{Events: events, Fd: int32(fd)}
	return syscall.EpollCtl(p.fd, syscall.EPOLL_CTL_MOD, fd, &ev)
}

// Wait blocks up to timeoutMS milliseconds and returns the ready events; the
// slice is reused by the next call.
func (p *Poller) Wait(timeoutMS int) ([]syscall.EpollEvent, error) {
	n, err := syscall.EpollWait(p.fd, p.events, timeoutMS)
	if errors.Is(err, syscall.EINTR) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return p.events[:n], nil
}

// Close releases the epoll instance.
func (p *Poller) Close() error { return syscall.Close(p.fd) }
