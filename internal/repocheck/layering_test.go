package repocheck

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const module = "github.com/emojisearch/emojisearch/"

// TestLayering keeps the arrows between the top-level folders pointing one
// way: engine/ is the foundation the pack build (packs/) sits on; hostsim's
// library knows only the platform (the local models that read our formats
// live in localai/, registered by cmd/hostsim); the pack build needs no
// simulator.
func TestLayering(t *testing.T) {
	tests := []struct {
		name     string
		args     []string // go list arguments
		excluded []string // package paths (module-relative prefixes) none may depend on
	}{
		{"engine, tests and commands included, imports nothing from packs", []string{"-test", "./engine/..."}, []string{"packs"}},
		{"hostsim's library imports nothing of the product", hostsimLibrary(t), []string{"engine", "service", "packs", "localai", "worker"}},
		{"packs builds without hostsim", []string{"./packs/..."}, []string{"hostsim"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			deps := goList(t, append([]string{"-deps"}, tc.args...)...)
			require.Greater(t, len(deps), 3, "go list found the packages")
			for _, dep := range deps {
				rel, ours := strings.CutPrefix(dep, module)
				if !ours {
					continue
				}
				for _, ex := range tc.excluded {
					assert.False(t, rel == ex || strings.HasPrefix(rel, ex+"/"), "depends on %s", dep)
				}
			}
		})
	}
}

// hostsimLibrary lists hostsim's packages without its command.
func hostsimLibrary(t *testing.T) []string {
	var out []string
	for _, p := range goList(t, "./hostsim/...") {
		if !strings.Contains(p, "/hostsim/cmd/") {
			out = append(out, p)
		}
	}
	return out
}

// goList runs go list in the repository and returns the package paths.
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list"}, args...)...)
	cmd.Dir = "../.."
	out, err := cmd.Output()
	require.NoError(t, err, "go list %v", args)
	return strings.Fields(string(out))
}
