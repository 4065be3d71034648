// Command devsim simulates many IoT devices speaking a binary framed protocol
// over TCP (devsim run) and provides a reference platform for them (devsim
// serve). See simulator/README.md.
package main

import (
	"os"

	"kneeboard/simulator/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
