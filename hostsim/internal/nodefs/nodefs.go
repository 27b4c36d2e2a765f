// Package nodefs gives a jsrt realm the slice of Node's `fs`, `path` and
// `process` that Go's syscall package uses on js/wasm, backed by the real
// file system. It is what lets `hostsim run` execute plain Go js/wasm
// programs such as test binaries (go test -exec); Workers never get it.
package nodefs

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"

	"github.com/emojisearch/emojisearch/hostsim/internal/jsrt"
)

// Linux open(2) flags, the values Node reports in fs.constants.
const (
	oWRONLY    = 0x1
	oRDWR      = 0x2
	oCREAT     = 0x40
	oEXCL      = 0x80
	oTRUNC     = 0x200
	oAPPEND    = 0x400
	oDIRECTORY = 0x10000
)

// FS is the open-file table of one program.
type FS struct {
	rt    *jsrt.Runtime
	mu    sync.Mutex
	files map[int]*os.File
	next  int
	stdin io.Reader
	out   jsrt.Console
}

// Install replaces the realm's fs, path and process cwd/chdir with real
// ones. stdin feeds fd 0; console receives fds 1 and 2.
func Install(rt *jsrt.Runtime, stdin io.Reader, console jsrt.Console) *FS {
	f := &FS{rt: rt, files: map[int]*os.File{}, next: 100, stdin: stdin, out: console}
	f.install()
	return f
}

// errorValue is a Node-style error with the errno name in code.
func (f *FS) errorValue(err error) jsrt.Value {
	code := "EIO"
	var errno syscall.Errno
	switch {
	case errors.As(err, &errno):
		code = errnoName(errno)
	case errors.Is(err, fs.ErrNotExist):
		code = "ENOENT"
	case errors.Is(err, fs.ErrExist):
		code = "EEXIST"
	case errors.Is(err, fs.ErrPermission):
		code = "EACCES"
	}
	e := f.rt.NewError(code + ": " + err.Error())
	e.Define("code", code)
	return e
}

func errnoName(e syscall.Errno) string {
	switch e {
	case syscall.ENOENT:
		return "ENOENT"
	case syscall.EEXIST:
		return "EEXIST"
	case syscall.ENOTDIR:
		return "ENOTDIR"
	case syscall.EISDIR:
		return "EISDIR"
	case syscall.EACCES, syscall.EPERM:
		return "EACCES"
	case syscall.EBADF:
		return "EBADF"
	case syscall.ENOTEMPTY:
		return "ENOTEMPTY"
	case syscall.EINVAL:
		return "EINVAL"
	}
	return "EIO"
}

// callback calls the last argument Node style: cb(err) or cb(null, value).
func (f *FS) callback(args []jsrt.Value, value jsrt.Value, err error) (jsrt.Value, error) {
	if len(args) == 0 {
		return jsrt.Undefined, nil
	}
	cb := args[len(args)-1]
	if err != nil {
		return f.rt.Call(cb, jsrt.Undefined, f.errorValue(err))
	}
	return f.rt.Call(cb, jsrt.Undefined, jsrt.Null, value)
}

func (f *FS) file(fd jsrt.Value) (*os.File, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	file, ok := f.files[int(jsrt.ToNumber(fd))]
	if !ok {
		return nil, syscall.EBADF
	}
	return file, nil
}

func (f *FS) install() {
	rt := f.rt
	fsObj := rt.NewObject()
	constants := rt.NewObject()
	for k, v := range map[string]float64{"O_WRONLY": oWRONLY, "O_RDWR": oRDWR, "O_CREAT": oCREAT, "O_TRUNC": oTRUNC, "O_APPEND": oAPPEND, "O_EXCL": oEXCL, "O_DIRECTORY": oDIRECTORY} {
		constants.Define(k, v)
	}
	fsObj.Define("constants", constants)
	method := func(name string, fn func(args []jsrt.Value) (jsrt.Value, error)) {
		rt.Method(fsObj, name, func(_ jsrt.Value, args []jsrt.Value) (jsrt.Value, error) {
			v, err := fn(args)
			return f.callback(args, v, err)
		})
	}
	str := func(args []jsrt.Value, i int) string { return jsrt.ToString(jsrt.Arg(args, i)) }
	num := func(args []jsrt.Value, i int) int { return int(jsrt.ToNumber(jsrt.Arg(args, i))) }

	method("open", func(args []jsrt.Value) (jsrt.Value, error) {
		flags := num(args, 1)
		goFlags := os.O_RDONLY
		switch {
		case flags&oRDWR != 0:
			goFlags = os.O_RDWR
		case flags&oWRONLY != 0:
			goFlags = os.O_WRONLY
		}
		for bit, gf := range map[int]int{oCREAT: os.O_CREATE, oEXCL: os.O_EXCL, oTRUNC: os.O_TRUNC, oAPPEND: os.O_APPEND} {
			if flags&bit != 0 {
				goFlags |= gf
			}
		}
		file, err := os.OpenFile(str(args, 0), goFlags, fs.FileMode(num(args, 2)))
		if err != nil {
			return nil, err
		}
		f.mu.Lock()
		f.next++
		fd := f.next
		f.files[fd] = file
		f.mu.Unlock()
		return float64(fd), nil
	})
	method("close", func(args []jsrt.Value) (jsrt.Value, error) {
		file, err := f.file(jsrt.Arg(args, 0))
		if err != nil {
			return nil, err
		}
		f.mu.Lock()
		delete(f.files, int(jsrt.ToNumber(args[0])))
		f.mu.Unlock()
		return jsrt.Undefined, file.Close()
	})
	method("read", func(args []jsrt.Value) (jsrt.Value, error) {
		dst, err := window(args)
		if err != nil {
			return nil, err
		}
		var n int
		if num(args, 0) == 0 {
			if f.stdin == nil {
				return 0.0, nil
			}
			n, err = f.stdin.Read(dst)
		} else {
			file, ferr := f.file(jsrt.Arg(args, 0))
			if ferr != nil {
				return nil, ferr
			}
			if pos := jsrt.Arg(args, 4); !jsrt.IsNullish(pos) {
				n, err = file.ReadAt(dst, int64(jsrt.ToNumber(pos)))
			} else {
				n, err = file.Read(dst)
			}
		}
		if errors.Is(err, io.EOF) {
			err = nil
		}
		return float64(n), err
	})
	method("write", func(args []jsrt.Value) (jsrt.Value, error) {
		src, err := window(args)
		if err != nil {
			return nil, err
		}
		switch num(args, 0) {
		case 1:
			n, err := f.out.Stdout.Write(src)
			return float64(n), err
		case 2:
			n, err := f.out.Stderr.Write(src)
			return float64(n), err
		}
		file, err := f.file(jsrt.Arg(args, 0))
		if err != nil {
			return nil, err
		}
		var n int
		if pos := jsrt.Arg(args, 4); !jsrt.IsNullish(pos) {
			n, err = file.WriteAt(src, int64(jsrt.ToNumber(pos)))
		} else {
			n, err = file.Write(src)
		}
		return float64(n), err
	})
	rt.Method(fsObj, "writeSync", func(_ jsrt.Value, args []jsrt.Value) (jsrt.Value, error) {
		buf, ok := jsrt.Arg(args, 1).(*jsrt.Object)
		if !ok || !buf.IsBytes() {
			return nil, rt.ThrowTypeError("writeSync expects a Uint8Array")
		}
		w := f.out.Stdout
		if num(args, 0) == 2 {
			w = f.out.Stderr
		}
		n, err := w.Write(buf.Bytes())
		return float64(n), err
	})
	stat := func(fi os.FileInfo) jsrt.Value { return f.stats(fi) }
	method("fstat", func(args []jsrt.Value) (jsrt.Value, error) {
		fd := num(args, 0)
		if fd <= 2 {
			return f.stdStats(), nil
		}
		file, err := f.file(jsrt.Arg(args, 0))
		if err != nil {
			return nil, err
		}
		fi, err := file.Stat()
		if err != nil {
			return nil, err
		}
		return stat(fi), nil
	})
	method("stat", func(args []jsrt.Value) (jsrt.Value, error) {
		fi, err := os.Stat(str(args, 0))
		if err != nil {
			return nil, err
		}
		return stat(fi), nil
	})
	method("lstat", func(args []jsrt.Value) (jsrt.Value, error) {
		fi, err := os.Lstat(str(args, 0))
		if err != nil {
			return nil, err
		}
		return stat(fi), nil
	})
	method("readdir", func(args []jsrt.Value) (jsrt.Value, error) {
		entries, err := os.ReadDir(str(args, 0))
		if err != nil {
			return nil, err
		}
		names := make([]jsrt.Value, len(entries))
		for i, e := range entries {
			names[i] = e.Name()
		}
		return rt.NewArray(names...), nil
	})
	method("mkdir", func(args []jsrt.Value) (jsrt.Value, error) {
		return jsrt.Undefined, os.Mkdir(str(args, 0), fs.FileMode(num(args, 1)))
	})
	method("unlink", func(args []jsrt.Value) (jsrt.Value, error) { return jsrt.Undefined, syscall.Unlink(str(args, 0)) })
	method("rmdir", func(args []jsrt.Value) (jsrt.Value, error) { return jsrt.Undefined, syscall.Rmdir(str(args, 0)) })
	method("rename", func(args []jsrt.Value) (jsrt.Value, error) {
		return jsrt.Undefined, os.Rename(str(args, 0), str(args, 1))
	})
	method("chmod", func(args []jsrt.Value) (jsrt.Value, error) {
		return jsrt.Undefined, os.Chmod(str(args, 0), fs.FileMode(num(args, 1)))
	})
	method("truncate", func(args []jsrt.Value) (jsrt.Value, error) {
		return jsrt.Undefined, os.Truncate(str(args, 0), int64(num(args, 1)))
	})
	method("fsync", func([]jsrt.Value) (jsrt.Value, error) { return jsrt.Undefined, nil })
	method("readlink", func(args []jsrt.Value) (jsrt.Value, error) {
		dst, err := os.Readlink(str(args, 0))
		return dst, err
	})
	method("symlink", func(args []jsrt.Value) (jsrt.Value, error) {
		return jsrt.Undefined, os.Symlink(str(args, 0), str(args, 1))
	})
	method("utimes", func([]jsrt.Value) (jsrt.Value, error) { return jsrt.Undefined, nil })
	for _, name := range []string{"fchmod", "chown", "fchown", "lchown", "link", "ftruncate"} {
		method(name, func([]jsrt.Value) (jsrt.Value, error) { return nil, syscall.ENOSYS })
	}
	rt.Global.Define("fs", fsObj)

	pathObj := rt.NewObject()
	rt.Method(pathObj, "resolve", func(_ jsrt.Value, args []jsrt.Value) (jsrt.Value, error) {
		p := ""
		for _, a := range args {
			s := jsrt.ToString(a)
			if filepath.IsAbs(s) {
				p = s
			} else {
				p = filepath.Join(p, s)
			}
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, rt.ThrowError("%v", err)
		}
		return abs, nil
	})
	rt.Global.Define("path", pathObj)

	process := rt.Global.MustGet("process").(*jsrt.Object)
	rt.Method(process, "cwd", func(jsrt.Value, []jsrt.Value) (jsrt.Value, error) {
		wd, err := os.Getwd()
		if err != nil {
			return nil, &jsrt.Throw{Value: f.errorValue(err)}
		}
		return wd, nil
	})
	rt.Method(process, "chdir", func(_ jsrt.Value, args []jsrt.Value) (jsrt.Value, error) {
		if err := os.Chdir(jsrt.ToString(jsrt.Arg(args, 0))); err != nil {
			return nil, &jsrt.Throw{Value: f.errorValue(err)}
		}
		return jsrt.Undefined, nil
	})
	process.Define("pid", float64(os.Getpid()))
	process.Define("ppid", float64(os.Getppid()))
}

// stats builds a Node fs.Stats object from the host's stat data.
func (f *FS) stats(fi os.FileInfo) jsrt.Value {
	o := f.rt.NewObject()
	st, _ := fi.Sys().(*syscall.Stat_t)
	set := func(k string, v float64) { o.Define(k, v) }
	mode := float64(fi.Mode().Perm())
	if st != nil {
		mode = float64(st.Mode)
		set("dev", float64(st.Dev))
		set("ino", float64(st.Ino))
		set("nlink", float64(st.Nlink))
		set("uid", float64(st.Uid))
		set("gid", float64(st.Gid))
		set("rdev", float64(st.Rdev))
		set("blksize", float64(st.Blksize))
		set("blocks", float64(st.Blocks))
		set("atimeMs", float64(st.Atim.Sec*1000+st.Atim.Nsec/1e6))
		set("ctimeMs", float64(st.Ctim.Sec*1000+st.Ctim.Nsec/1e6))
	} else {
		for _, k := range []string{"dev", "ino", "nlink", "uid", "gid", "rdev", "blksize", "blocks", "atimeMs", "ctimeMs"} {
			set(k, 0)
		}
	}
	set("mode", mode)
	set("size", float64(fi.Size()))
	set("mtimeMs", float64(fi.ModTime().UnixMilli()))
	isDir := fi.IsDir()
	f.rt.Method(o, "isDirectory", func(jsrt.Value, []jsrt.Value) (jsrt.Value, error) { return isDir, nil })
	return o
}

// stdStats describes fds 0-2 as character devices.
func (f *FS) stdStats() jsrt.Value {
	o := f.rt.NewObject()
	for _, k := range []string{"dev", "ino", "nlink", "uid", "gid", "rdev", "blksize", "blocks", "atimeMs", "mtimeMs", "ctimeMs", "size"} {
		o.Define(k, 0.0)
	}
	o.Define("mode", float64(syscall.S_IFCHR|0o620))
	f.rt.Method(o, "isDirectory", func(jsrt.Value, []jsrt.Value) (jsrt.Value, error) { return false, nil })
	return o
}

// window is the buffer range of read/write(fd, buffer, offset, length, ...),
// bounds-checked: the guest is never trusted.
func window(args []jsrt.Value) ([]byte, error) {
	buf, ok := jsrt.Arg(args, 1).(*jsrt.Object)
	if !ok || !buf.IsBytes() {
		return nil, syscall.EINVAL
	}
	off, length := int(jsrt.ToNumber(jsrt.Arg(args, 2))), int(jsrt.ToNumber(jsrt.Arg(args, 3)))
	if off < 0 || length < 0 || off+length > len(buf.Bytes()) {
		return nil, syscall.EINVAL
	}
	return buf.Bytes()[off : off+length], nil
}
