// Package repocheck holds the tests that keep the repository's rules which
// no single package can check for itself: the layering between the
// top-level folders, and the copies of the locale registry and of the pack
// version outside Go source (JavaScript, wrangler.toml, docs), checked
// against their one Go source. It has no code of its own.
package repocheck
