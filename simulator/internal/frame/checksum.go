package frame

// Checksum names an integrity check appended after the frame body.
type Checksum string

// Checksum algorithms a profile may name.
const (
	CRC16Modbus Checksum = "crc16-modbus"
	Sum8        Checksum = "sum8"
	Xor8        Checksum = "xor8"
	NoChecksum  Checksum = "none"
)

var crc16ModbusTable = buildCRC16Table(0xA001)

func buildCRC16Table(reflectedPoly uint16) (t [256]uint16) {
	for i := range t {
		c := uint16(i)
		for range 8 {
			if c&1 != 0 {
				c = c>>1 ^ reflectedPoly
			} else {
				c >>= 1
			}
		}
		t[i] = c
	}
	return t
}

// CRC16ModbusOf computes CRC-16/MODBUS (poly 0x8005 reflected, init 0xFFFF, no final xor).
func CRC16ModbusOf(p []byte) uint16 {
	c := uint16(0xFFFF)
	for _, b := range p {
		c = c>>8 ^ crc16ModbusTable[byte(c)^b]
	}
	return c
}

// Width is the number of bytes the checksum occupies on the wire.
func (c Checksum) Width() int {
	switch c {
	case CRC16Modbus:
		return 2
	case Sum8, Xor8:
		return 1
	}
	return 0
}

// Valid reports whether c is a known algorithm.
func (c Checksum) Valid() bool {
	switch c {
	case CRC16Modbus, Sum8, Xor8, NoChecksum:
		return true
	}
	return false
}

// Compute returns the checksum of p under algorithm c.
func (c Checksum) Compute(p []byte) uint32 {
	switch c {
	case CRC16Modbus:
		return uint32(CRC16ModbusOf(p))
	case Sum8:
		var s byte
		for _, b := range p {
			s += b
		}
		return uint32(s)
	case Xor8:
		var s byte
		for _, b := range p {
			s ^= b
		}
		return uint32(s)
	}
	return 0
}

// String returns the profile name of the algorithm.
func (c Checksum) String() string { return string(c) }
