"""The lab: local systems under test (DNS, HTTP, iperf3, devsim) on loopback or in a namespace."""
