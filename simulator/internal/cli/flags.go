package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"time"

	"kneeboard/simulator/internal/profile"
)

// command is one subcommand's flag set with its help text.
type command struct {
	fs   *flag.FlagSet
	help string
	set  map[string]bool // flags given explicitly
}

func newCommand(name, help string) *command {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return &command{fs: fs, help: help}
}

// parse parses args; it returns handled=true when --help was printed.
func (c *command) parse(args []string, stdout io.Writer) (handled bool, err error) {
	if err := c.fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, c.help)
			return true, nil
		}
		return false, badArgs("%v", err)
	}
	if c.fs.NArg() > 0 {
		return false, badArgs("unexpected argument %q", c.fs.Arg(0))
	}
	c.set = map[string]bool{}
	c.fs.Visit(func(f *flag.Flag) { c.set[f.Name] = true })
	return false, nil
}

// profileFlags selects a built-in profile or a profile file.
type profileFlags struct{ name, file string }

func (p *profileFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&p.name, "profile", "singlelight", "built-in profile")
	fs.StringVar(&p.file, "profile-file", "", "profile JSON file")
}

// load returns the chosen profile and the arguments that make a child process
// load the same one. An invalid profile is a usage error (exit 2).
func (p *profileFlags) load(set map[string]bool) (*profile.Profile, []string, error) {
	if set["profile"] && set["profile-file"] {
		return nil, nil, badArgs("give --profile or --profile-file, not both")
	}
	if p.file != "" {
		prof, err := profile.Load(p.file)
		if err != nil {
			return nil, nil, badArgs("--profile-file %s: %v", p.file, err)
		}
		return prof, []string{"--profile-file", p.file}, nil
	}
	prof, err := profile.Builtin(p.name)
	if err != nil {
		return nil, nil, badArgs("--profile: %v", err)
	}
	return prof, []string{"--profile", p.name}, nil
}

// hostPort resolves a HOST:PORT flag value to an IP and port.
func hostPort(flagName, value string, allowZeroPort bool) (net.IP, int, error) {
	if value == "" {
		return nil, 0, badArgs("--%s is required (HOST:PORT)", flagName)
	}
	host, portText, err := net.SplitHostPort(value)
	if err != nil {
		return nil, 0, badArgs("--%s %q: want HOST:PORT", flagName, value)
	}
	port, err := strconv.Atoi(portText)
	if err != nil || port < 0 || port > 65535 || (port == 0 && !allowZeroPort) {
		return nil, 0, badArgs("--%s %q: bad port", flagName, value)
	}
	if host == "" {
		return net.IPv4zero, port, nil
	}
	if ip := net.ParseIP(host); ip != nil {
		return ip, port, nil
	}
	addrs, err := net.LookupIP(host)
	if err != nil || len(addrs) == 0 {
		return nil, 0, badArgs("--%s %q: cannot resolve %s", flagName, value, host)
	}
	for _, a := range addrs {
		if a.To4() != nil {
			return a, port, nil
		}
	}
	return addrs[0], port, nil
}

// ipList parses a comma-separated list of IP addresses.
func ipList(flagName, value string) ([]net.IP, error) {
	var ips []net.IP
	for _, part := range strings.Split(value, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		ip := net.ParseIP(part)
		if ip == nil {
			return nil, badArgs("--%s: %q is not an IP address", flagName, part)
		}
		ips = append(ips, ip)
	}
	return ips, nil
}

func atLeast(flagName string, d, least time.Duration) error {
	if d < least {
		return badArgs("--%s %v: must be at least %v", flagName, d, least)
	}
	return nil
}

func procsInRange(p int) error {
	if p < 1 || p > 64 {
		return badArgs("--procs %d: want 1..64", p)
	}
	return nil
}
