// Command wasmsize shows what takes the Worker's space, by Go package: the
// code bytes of each package's functions and their gzip size (each
// package compressed alone, so the figures add up to a little more than
// the module's gzip), plus the data section as one line.
//
// Method: build the module as build.sh does but without -s -w, so the
// linker keeps the wasm "name" section; map every function body of the
// code section to its symbol name and the symbol to its package.
//
//	go run ./bench/cmd/wasmsize            builds ./worker for js/wasm and reports
//	go run ./bench/cmd/wasmsize -top 60 -wasm app.wasm   an unstripped module of your own
//	go run ./bench/cmd/wasmsize -prefix crypto/              only packages under a prefix
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	wasm := flag.String("wasm", "", "an unstripped module (default: build ./worker)")
	top := flag.Int("top", 40, "packages to list")
	prefix := flag.String("prefix", "", "only packages starting with this")
	flag.Parse()
	if err := run(*wasm, *top, *prefix); err != nil {
		fmt.Fprintln(os.Stderr, "wasmsize:", err)
		os.Exit(1)
	}
}

func run(path string, top int, prefix string) error {
	if path == "" {
		dir, err := os.MkdirTemp("", "wasmsize")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		path = filepath.Join(dir, "app.wasm")
		cmd := exec.Command("go", "build", "-trimpath", "-o", path, "./worker")
		cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			return err
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	m, err := parse(b)
	if err != nil {
		return err
	}
	if len(m.names) == 0 {
		return errors.New("the module has no name section: build it without -ldflags=-s")
	}
	type pkg struct {
		name       string
		code, gzip int
		funcs      int
		body       bytes.Buffer
	}
	pkgs := map[string]*pkg{}
	for i, body := range m.bodies {
		name := m.names[uint32(m.imported+i)]
		p := pkgOf(name)
		if pkgs[p] == nil {
			pkgs[p] = &pkg{name: p}
		}
		pkgs[p].code += len(body)
		pkgs[p].funcs++
		pkgs[p].body.Write(body)
	}
	var list []*pkg
	totalCode, totalGz := 0, 0
	for _, p := range pkgs {
		p.gzip = gzSize(p.body.Bytes())
		totalCode += p.code
		totalGz += p.gzip
		if strings.HasPrefix(p.name, prefix) {
			list = append(list, p)
		}
	}
	sort.Slice(list, func(i, j int) bool { return list[i].gzip > list[j].gzip })
	fmt.Printf("module %s: %d bytes, %d gzip -9\n", path, len(b), gzSize(b))
	fmt.Printf("code: %d bytes in %d functions, %d gzip summed by package; data: %d bytes, %d gzip\n\n",
		totalCode, len(m.bodies), totalGz, len(m.data), gzSize(m.data))
	fmt.Printf("%10s %10s %6s %6s  %s\n", "code", "gzip", "gz%", "funcs", "package")
	shown := 0
	for _, p := range list {
		if shown == top {
			break
		}
		fmt.Printf("%10d %10d %5.1f%% %6d  %s\n", p.code, p.gzip, 100*float64(p.gzip)/float64(totalGz), p.funcs, p.name)
		shown++
	}
	return nil
}

// pkgOf maps a function's name to its package. The Go linker writes names
// with "/" as "_" ("net_http.(*Client).Do", "github.com_syumai_workers.Ready"),
// so the package is the text up to the first "." after the module's domain,
// shown with "/" again.
func pkgOf(sym string) string {
	if sym == "" {
		return "(unnamed)"
	}
	start := 0
	if d := strings.Index(sym, "."); d > 0 {
		for _, tld := range []string{"com_", "org_", "io_", "dev_", "net_", "in_"} {
			if strings.HasPrefix(sym[d+1:], tld) {
				start = d + 1
			}
		}
	}
	end := len(sym)
	if dot := strings.Index(sym[start:], "."); dot >= 0 {
		end = start + dot
	}
	return strings.ReplaceAll(sym[:end], "_", "/")
}

func gzSize(b []byte) int {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	_, _ = w.Write(b)
	_ = w.Close()
	return buf.Len()
}

type module struct {
	imported int
	bodies   [][]byte
	names    map[uint32]string
	data     []byte
}

// parse reads the sections wasmsize needs: imports (to number functions),
// code, data and the function names of the "name" custom section.
func parse(b []byte) (*module, error) {
	if len(b) < 8 || string(b[:4]) != "\x00asm" {
		return nil, errors.New("not a wasm module")
	}
	m := &module{names: map[uint32]string{}}
	r := reader{b: b, i: 8}
	for r.i < len(b) {
		id := r.byte()
		size := int(r.u32())
		sec := reader{b: b[r.i : r.i+size]}
		r.i += size
		switch id {
		case 0:
			if sec.name() == "name" {
				parseNames(sec, m.names)
			}
		case 2: // imports: only functions take function indexes
			for n := sec.u32(); n > 0; n-- {
				sec.name()
				sec.name()
				switch kind := sec.byte(); kind {
				case 0:
					sec.u32()
					m.imported++
				case 1:
					sec.byte()
					sec.limits()
				case 2:
					sec.limits()
				case 3:
					sec.byte()
					sec.byte()
				}
			}
		case 10:
			for n := sec.u32(); n > 0; n-- {
				size := int(sec.u32())
				m.bodies = append(m.bodies, sec.b[sec.i:sec.i+size])
				sec.i += size
			}
		case 11:
			m.data = sec.b
		}
		if r.err != nil || sec.err != nil {
			return nil, errors.Join(r.err, sec.err)
		}
	}
	return m, nil
}

func parseNames(r reader, out map[uint32]string) {
	for r.i < len(r.b) && r.err == nil {
		id := r.byte()
		size := int(r.u32())
		end := r.i + size
		if id == 1 {
			for n := r.u32(); n > 0 && r.err == nil; n-- {
				idx := r.u32()
				out[idx] = r.name()
			}
		}
		r.i = end
	}
}

type reader struct {
	b   []byte
	i   int
	err error
}

func (r *reader) byte() byte {
	if r.i >= len(r.b) {
		r.err = errors.New("truncated")
		return 0
	}
	c := r.b[r.i]
	r.i++
	return c
}

func (r *reader) u32() uint32 {
	v, n := binary.Uvarint(r.b[min(r.i, len(r.b)):])
	if n <= 0 {
		r.err = errors.New("bad LEB128")
		return 0
	}
	r.i += n
	return uint32(v)
}

func (r *reader) name() string {
	n := int(r.u32())
	if r.i+n > len(r.b) {
		r.err = errors.New("truncated name")
		return ""
	}
	s := string(r.b[r.i : r.i+n])
	r.i += n
	return s
}

func (r *reader) limits() {
	if r.byte() == 1 {
		r.u32()
		r.u32()
		return
	}
	r.u32()
}
