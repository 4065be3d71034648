package evloop

// Outbox holds the bytes a non-blocking socket has not accepted yet. It is
// empty (nil) almost always, so an idle connection costs nothing here.
type Outbox struct{ pending []byte }

// Pending is the number of queued bytes.
func (o *Outbox) Pending() int { return len(o.pending) }

// Send writes buf to fd, or queues it behind bytes already waiting; what the
// kernel does not take is queued and the poller is asked for Out. It returns
// how many bytes went to the kernel now.
func (o *Outbox) Send(p *Poller, fd int, buf []byte) (int, error) {
	if len(o.pending) > 0 {
		o.pending = append(o.pending, buf...)
		return 0, nil
	}
	n, err := Write(fd, buf)
	if err != nil && !Temporary(err) {
		return 0, err
	}
	n = max(n, 0)
	if n < len(buf) {
		o.pending = append(o.pending, buf[n:]...)
		return n, p.Modify(fd, In|Out)
	}
	return n, nil
}

// Flush writes queued bytes once fd is writable and stops watching Out when
// the queue is empty. It returns how many bytes went to the kernel.
func (o *Outbox) Flush(p *Poller, fd int) (int, error) {
	if len(o.pending) == 0 {
		return 0, p.Modify(fd, In)
	}
	n, err := Write(fd, o.pending)
	if err != nil && !Temporary(err) {
		return 0, err
	}
	n = max(n, 0)
	o.pending = o.pending[n:]
	if len(o.pending) == 0 {
		o.pending = nil
		return n, p.Modify(fd, In)
	}
	return n, nil
}

// Drop discards queued bytes.
func (o *Outbox) Drop() { o.pending = nil }
