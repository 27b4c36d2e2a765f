package assets_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"

	"github.com/emojisearch/emojisearch/hostsim/internal/assets"
)

func ExampleServer_Lookup() {
	dir, _ := os.MkdirTemp("", "assets")
	defer os.RemoveAll(dir)
	_ = os.WriteFile(filepath.Join(dir, "about.html"), []byte("<h1>About</h1>"), 0o644)

	s, err := assets.New(dir, assets.Options{}.WithWorkerFirst("/api/*"))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, target := range []string{"/about", "/about.html?lang=fr", "/api/search", "/missing"} {
		r, ok := s.Lookup(http.MethodGet, target, http.Header{})
		switch {
		case !ok:
			fmt.Println(target, "-> Worker")
		case r.Status == http.StatusTemporaryRedirect:
			fmt.Println(target, "->", r.Status, r.Header.Get("Location"))
		default:
			fmt.Println(target, "->", r.Status, r.Header.Get("Content-Type"), string(r.Body))
		}
	}
	// Output:
	// /about -> 200 text/html; charset=utf-8 <h1>About</h1>
	// /about.html?lang=fr -> 307 /about?lang=fr
	// /api/search -> Worker
	// /missing -> Worker
}
