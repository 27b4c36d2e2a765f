// Package bench holds the project's performance measurements (BENCHMARKS.md):
// the in-process hostsim benchmarks of this package (`go test -bench`), the
// commands under cmd/ and bench/run.sh, which builds and runs them.
package bench
