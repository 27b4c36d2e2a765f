package main

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"time"
)

// DefaultSetsDir is the local upstream of the hosted emoji sets, laid out
// by scripts/install-sets.sh from the pinned npm packages.
const DefaultSetsDir = "packs/.sets/upstream"

// setsUpstream decides SETS_UPSTREAM for serve: an explicit --var wins,
// then --sets-upstream URL; else a plain static file server of dir starts
// on a free local port, so /v1/sets/ runs its real fetch-then-cache path
// without the network. Without dir it says how to install it and leaves
// wrangler.toml's value.
func setsUpstream(dir, url string, vars varFlag) error {
	if _, set := vars["SETS_UPSTREAM"]; set {
		return nil
	}
	if url != "" {
		vars["SETS_UPSTREAM"] = url
		return nil
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		fmt.Fprintf(os.Stderr, "hostsim: no local emoji sets in %s (run scripts/install-sets.sh); /v1/sets/ uses wrangler.toml's SETS_UPSTREAM\n", dir)
		return nil
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: http.FileServer(http.Dir(dir)), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	vars["SETS_UPSTREAM"] = "http://" + ln.Addr().String() + "/"
	fmt.Fprintf(os.Stderr, "hostsim: emoji sets upstream %s serves %s\n", vars["SETS_UPSTREAM"], dir)
	return nil
}
