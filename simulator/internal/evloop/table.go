package evloop

// Table maps file descriptors to the connection state a shard keeps for them.
type Table[T any] struct{ slots []*T }

// Put records v for fd.
func (t *Table[T]) Put(fd int, v *T) {
	if fd >= len(t.slots) {
		grown := make([]*T, max(fd+1, 2*len(t.slots), 64))
		copy(grown, t.slots)
		t.slots = grown
	}
	t.slots[fd] = v
}

// Get returns the state for fd, nil when there is none.
func (t *Table[T]) Get(fd int) *T {
	if fd < 0 || fd >= len(t.slots) {
		return nil
	}
	return t.slots[fd]
}

// Delete forgets fd.
func (t *Table[T]) Delete(fd int) {
	if fd >= 0 && fd < len(t.slots) {
		t.slots[fd] = nil
	}
}

// Each calls f for every recorded connection.
func (t *Table[T]) Each(f func(fd int, v *T)) {
	for fd, v := range t.slots {
		if v != nil {
			f(fd, v)
		}
	}
}
