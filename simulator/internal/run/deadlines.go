package run

// deadlineQueue holds connect and login deadlines. All deadlines of a kind
// are the same length after the event that sets them, so they arrive in
// order and a FIFO replaces a heap. Entries whose device has moved on (its
// deadline changed) are skipped.
type deadlineQueue struct {
	items []deadlineItem
	head  int
}

type deadlineItem struct {
	d  *device
	at int64
}

// push sets d's deadline to at.
func (q *deadlineQueue) push(d *device, at int64) {
	d.deadline = at
	q.items = append(q.items, deadlineItem{d, at})
}

// pop returns the next device whose current deadline is at or before now.
func (q *deadlineQueue) pop(now int64) *device {
	for q.head < len(q.items) && q.items[q.head].at <= now {
		it := q.items[q.head]
		q.items[q.head] = deadlineItem{}
		q.head++
		if it.d.deadline == it.at {
			it.d.deadline = 0
			return it.d
		}
	}
	if q.head > 1024 && 2*q.head >= len(q.items) {
		n := copy(q.items, q.items[q.head:])
		q.items = q.items[:n]
		q.head = 0
	}
	return nil
}
