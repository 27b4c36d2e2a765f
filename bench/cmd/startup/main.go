//go:build linux

// Command startup measures hostsim's start-up: the time from exec of
// `build/bin/hostsim serve` until GET /v1/health first answers 200, with
// wazero's compilation cache warm (the state folder, and so the cache in
// <state>/wazero, is kept between runs). A first run on an emptied cache is
// reported apart as the cold figure.
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/emojisearch/emojisearch/bench/internal/benchkit"
)

func main() {
	runs := flag.Int("runs", 5, "timed runs with a warm cache")
	flag.Parse()
	if err := run(*runs); err != nil {
		fmt.Fprintln(os.Stderr, "startup:", err)
		os.Exit(1)
	}
}

func run(runs int) error {
	root, err := benchkit.Root()
	if err != nil {
		return err
	}
	state, err := os.MkdirTemp("", "bench-startup")
	if err != nil {
		return err
	}
	defer os.RemoveAll(state)
	cold, err := once(root, state)
	if err != nil {
		return err
	}
	fmt.Printf("cold (empty compilation cache, first migration): %s ms\n", benchkit.Ms(cold))
	var warm []time.Duration
	for i := range runs {
		d, err := once(root, state)
		if err != nil {
			return err
		}
		fmt.Printf("warm run %d: %s ms\n", i+1, benchkit.Ms(d))
		warm = append(warm, d)
	}
	fmt.Printf("warm median of %d: %s ms (min %s, max %s)\n", runs, benchkit.Ms(benchkit.Quantile(warm, 0.5)),
		benchkit.Ms(benchkit.Quantile(warm, 0)), benchkit.Ms(benchkit.Quantile(warm, 1)))
	return nil
}

// once starts hostsim, times the first 200 on /v1/health, and stops it.
func once(root, state string) (time.Duration, error) {
	port, err := benchkit.FreePort()
	if err != nil {
		return 0, err
	}
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	cmd := exec.Command(filepath.Join(root, "build", "bin", "hostsim"), "serve", "--port", strconv.Itoa(port),
		"--state", state, "--config", filepath.Join(root, "wrangler.toml"), "--no-crons", "--quiet")
	cmd.Dir = root
	log, err := os.Create(filepath.Join(state, "hostsim.log"))
	if err != nil {
		return 0, err
	}
	defer log.Close()
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// A client without keep-alive so every poll is a fresh connection.
	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	err = benchkit.WaitHealthy(ctx, client, base, 2*time.Millisecond)
	d := time.Since(start)
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
	_ = cmd.Wait()
	if err != nil {
		out, _ := os.ReadFile(log.Name())
		return 0, fmt.Errorf("hostsim did not answer: %w\n%s", err, out)
	}
	return d, nil
}
