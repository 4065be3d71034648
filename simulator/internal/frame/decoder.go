package frame

// Handler receives each complete, checksum-valid frame a Decoder reassembles.
// The frame slice is only valid during the call. Returning an error stops decoding.
type Handler interface {
	HandleFrame(frame []byte) error
}

// Decoder reassembles frames from a TCP byte stream: frames split across reads
// are completed from later reads and several frames in one read are delivered
// one by one. Complete frames in the input are handed over without copying; only
// the tail of an incomplete frame (at most MaxFrame bytes) is kept.
type Decoder struct {
	framing *Framing
	pending []byte
}

// NewDecoder returns a Decoder for the given framing.
func NewDecoder(f *Framing) Decoder { return Decoder{framing: f} }

// Pending reports how many bytes of an incomplete frame are buffered.
func (d *Decoder) Pending() int { return len(d.pending) }

// Feed consumes data, calling h for each complete frame. It returns the first
// framing error (the stream is garbage from there on) or the handler's error.
func (d *Decoder) Feed(data []byte, h Handler) error {
	var err error
	if len(d.pending) > 0 {
		if data, err = d.completePending(data, h); err != nil || len(d.pending) > 0 {
			return err
		}
	}
	for len(data) > 0 {
		n, err := d.framing.Split(data)
		if err != nil {
			return err
		}
		if n == 0 {
			d.pending = append(d.pending[:0], data...)
			return nil
		}
		if err := h.HandleFrame(data[:n]); err != nil {
			return err
		}
		data = data[n:]
	}
	return nil
}

// completePending moves bytes from data into the pending frame until it is
// complete (then delivers it) or data runs out; it returns the unused data.
func (d *Decoder) completePending(data []byte, h Handler) ([]byte, error) {
	for {
		total, err := d.framing.Need(d.pending)
		if err != nil {
			d.pending = d.pending[:0]
			return nil, err
		}
		want := total
		if total == 0 {
			want = d.framing.HeaderLen()
		}
		take := min(want-len(d.pending), len(data))
		d.pending = append(d.pending, data[:take]...)
		data = data[take:]
		if len(d.pending) < want { // data ran out
			if total == 0 {
				if _, err := d.framing.Need(d.pending); err != nil {
					d.pending = d.pending[:0]
					return nil, err
				}
			}
			return nil, nil
		}
		if total == 0 {
			continue // header complete now: learn the frame length
		}
		err = d.framing.Check(d.pending)
		if err == nil {
			err = h.HandleFrame(d.pending)
		}
		d.pending = d.pending[:0]
		return data, err
	}
}
