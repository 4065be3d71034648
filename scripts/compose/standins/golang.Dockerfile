# Stand-in for the official golang image: the host's Go tree (the one the install step provides) at /usr/local/go.
ARG BASE
FROM ${BASE}
COPY . /usr/local/go
ENV PATH=/go/bin:/usr/local/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin GOPATH=/go
