package evloop

import "syscall"

// RaiseFileLimit lifts the soft open-file limit to the hard limit and returns
// the limit now in force.
func RaiseFileLimit() (uint64, error) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0, err
	}
	if lim.Cur < lim.Max {
		want := lim
		want.Cur = lim.Max
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &want); err != nil {
			return lim.Cur, err
		}
		lim = want
	}
	return lim.Cur, nil
}
