// Package gojs implements the host side of Go's js/wasm ABI (the `gojs`
// imports of $GOROOT/lib/wasm/wasm_exec.js) on wazero, over the JS world of
// package jsrt. It mirrors wasm_exec.js call for call, so a module built
// with GOOS=js GOARCH=wasm runs unchanged.
//
// The ABI is pinned to the Go version in go.mod: every import takes one i32
// stack pointer; arguments start at sp+8, 8-byte aligned; after any call that
// can run Go code again the stack may have moved, so results are written at
// a freshly read getsp().
package gojs

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/sys"

	"github.com/emojisearch/emojisearch/hostsim/internal/jsrt"
)

// Errors an Instance reports.
var (
	ErrExited    = errors.New("gojs: Go program has already exited")
	ErrBadMemory = errors.New("gojs: guest passed an out-of-bounds address")
)

const nanHead = 0x7FF80000

type instanceKey struct{}

// Instance is one running Go program and its references into a jsrt realm.
// All methods run on the realm's loop goroutine.
type Instance struct {
	rt    *jsrt.Runtime
	mod   api.Module
	mem   api.Memory
	getsp api.Function
	run   api.Function

	resumes []api.Function // one per nesting depth: a wazero function is not re-entrant
	depth   int
	ctx     context.Context

	values    []jsrt.Value
	refcounts []int // -1: pinned
	ids       map[jsrt.Value]uint32
	idPool    []uint32
	goObj     *jsrt.Object

	timeouts  map[int32]int
	nextTimer int32
	start     time.Time

	// Data is the embedder's own state for this instance (hostsim's isolate
	// keeps its protocol bookkeeping here).
	Data any

	exited   bool
	exitCode int
	exitErr  error
	onExit   []func(code int, err error)
}

// Export builds the `gojs` host module into r. Call once per wazero runtime.
func Export(ctx context.Context, r wazero.Runtime) error {
	b := r.NewHostModuleBuilder("gojs")
	for name, fn := range map[string]func(*Instance, uint32){
		"runtime.wasmExit":              (*Instance).wasmExit,
		"runtime.wasmWrite":             (*Instance).wasmWrite,
		"runtime.resetMemoryDataView":   func(*Instance, uint32) {},
		"runtime.nanotime1":             (*Instance).nanotime1,
		"runtime.walltime":              (*Instance).walltime,
		"runtime.scheduleTimeoutEvent":  (*Instance).scheduleTimeoutEvent,
		"runtime.clearTimeoutEvent":     (*Instance).clearTimeoutEvent,
		"runtime.getRandomData":         (*Instance).getRandomData,
		"syscall/js.finalizeRef":        (*Instance).finalizeRef,
		"syscall/js.stringVal":          (*Instance).stringVal,
		"syscall/js.valueGet":           (*Instance).valueGet,
		"syscall/js.valueSet":           (*Instance).valueSet,
		"syscall/js.valueDelete":        (*Instance).valueDelete,
		"syscall/js.valueIndex":         (*Instance).valueIndex,
		"syscall/js.valueSetIndex":      (*Instance).valueSetIndex,
		"syscall/js.valueCall":          (*Instance).valueCall,
		"syscall/js.valueInvoke":        (*Instance).valueInvoke,
		"syscall/js.valueNew":           (*Instance).valueNew,
		"syscall/js.valueLength":        (*Instance).valueLength,
		"syscall/js.valuePrepareString": (*Instance).valuePrepareString,
		"syscall/js.valueLoadString":    (*Instance).valueLoadString,
		"syscall/js.valueInstanceOf":    (*Instance).valueInstanceOf,
		"syscall/js.copyBytesToGo":      (*Instance).copyBytesToGo,
		"syscall/js.copyBytesToJS":      (*Instance).copyBytesToJS,
		"debug":                         func(*Instance, uint32) {},
	} {
		fn := fn
		b.NewFunctionBuilder().WithGoModuleFunction(api.GoModuleFunc(func(ctx context.Context, _ api.Module, stack []uint64) {
			inst, _ := ctx.Value(instanceKey{}).(*Instance)
			if inst == nil {
				panic("gojs: import called outside an Instance")
			}
			fn(inst, api.DecodeU32(stack[0]))
		}), []api.ValueType{api.ValueTypeI32}, nil).Export(name)
	}
	_, err := b.Instantiate(ctx)
	return err
}

// WithInstance returns ctx carrying inst, which host imports of other
// modules (such as `workers.ready`) can read back with FromContext.
func WithInstance(ctx context.Context, inst *Instance) context.Context {
	return context.WithValue(ctx, instanceKey{}, inst)
}

// FromContext returns the Instance a host import was called for.
func FromContext(ctx context.Context) *Instance {
	inst, _ := ctx.Value(instanceKey{}).(*Instance)
	return inst
}

// New wraps an instantiated (not yet started) Go module.
func New(rt *jsrt.Runtime, mod api.Module) (*Instance, error) {
	inst := &Instance{
		rt:       rt,
		mod:      mod,
		mem:      mod.Memory(),
		getsp:    mod.ExportedFunction("getsp"),
		run:      mod.ExportedFunction("run"),
		ids:      map[jsrt.Value]uint32{},
		timeouts: map[int32]int{},
		start:    time.Now(),
	}
	if inst.mem == nil || inst.getsp == nil || inst.run == nil || mod.ExportedFunction("resume") == nil {
		return nil, errors.New("gojs: module lacks the js/wasm exports (mem, run, resume, getsp): was it built with GOOS=js GOARCH=wasm?")
	}
	inst.goObj = rt.NewObject()
	inst.goObj.Define("_pendingEvent", jsrt.Null)
	rt.Method(inst.goObj, "_makeFuncWrapper", func(_ jsrt.Value, args []jsrt.Value) (jsrt.Value, error) {
		return inst.makeFuncWrapper(jsrt.ToNumber(jsrt.Arg(args, 0))), nil
	})
	inst.values = []jsrt.Value{math.NaN(), 0.0, jsrt.Null, true, false, rt.Global, inst.goObj}
	inst.refcounts = []int{-1, -1, -1, -1, -1, -1, -1}
	inst.ids[rt.Global] = 5
	inst.ids[inst.goObj] = 6
	return inst, nil
}

// UseGlobal sets the object Go sees as its global (reference id 5) before
// Start: syumai's wasm_exec passes a Proxy of globalThis that adds the
// `context` property.
func (inst *Instance) UseGlobal(g *jsrt.Object) {
	delete(inst.ids, inst.values[5])
	inst.values[5] = g
	inst.ids[g] = 5
}

// LiveRefs counts the JS values Go holds references to: flat while a
// long-lived instance serves requests, or something leaks.
func (inst *Instance) LiveRefs() int { return len(inst.values) - len(inst.idPool) }

// Runtime returns the realm the instance lives in.
func (inst *Instance) Runtime() *jsrt.Runtime { return inst.rt }

// OnExit registers fn to run once when the program exits or traps.
func (inst *Instance) OnExit(fn func(code int, err error)) { inst.onExit = append(inst.onExit, fn) }

// Exited reports whether the program has stopped.
func (inst *Instance) Exited() bool { return inst.exited }

// Start runs the program's main until it blocks, as Go.run does (argv and
// environment are written at offset 4096). It returns an error if the
// program exits or traps before blocking.
func (inst *Instance) Start(ctx context.Context, argv []string, env map[string]string) error {
	argc, argvPtr, err := inst.writeArgs(argv, env)
	if err != nil {
		return err
	}
	if err := inst.enter(ctx, inst.run, uint64(argc), uint64(argvPtr)); err != nil {
		return err
	}
	if inst.exited {
		return inst.exitErr
	}
	return nil
}

// enter calls into Go from the loop (not from inside an import).
func (inst *Instance) enter(ctx context.Context, fn api.Function, params ...uint64) error {
	if inst.exited {
		return ErrExited
	}
	// Wrap once: resume passes inst.ctx back in, and wrapping it again on
	// every event would grow a context chain that each import walks.
	if FromContext(ctx) != inst {
		ctx = WithInstance(ctx, inst)
	}
	inst.ctx = ctx
	inst.depth++
	_, err := fn.Call(inst.ctx, params...)
	inst.depth--
	if err != nil {
		inst.die(err)
		return inst.exitErr
	}
	return nil
}

// resume runs pending Go work; nested when called from inside an import.
func (inst *Instance) resume() error {
	if inst.exited {
		return ErrExited
	}
	for len(inst.resumes) <= inst.depth {
		inst.resumes = append(inst.resumes, inst.mod.ExportedFunction("resume"))
	}
	fn := inst.resumes[inst.depth]
	if inst.depth == 0 {
		ctx := inst.ctx
		if ctx == nil {
			ctx = context.Background()
		}
		return inst.enter(ctx, fn)
	}
	inst.depth++
	_, err := fn.Call(inst.ctx)
	inst.depth--
	if err != nil {
		// Go cannot go on below us: unwind the outer wasm frames too.
		panic(err)
	}
	return nil
}

func (inst *Instance) die(err error) {
	if inst.exited {
		return
	}
	inst.exited = true
	var exit *sys.ExitError
	if errors.As(err, &exit) {
		inst.exitCode = int(exit.ExitCode())
		inst.exitErr = fmt.Errorf("gojs: Go program exited with code %d", inst.exitCode)
	} else {
		inst.exitCode = -1
		inst.exitErr = fmt.Errorf("gojs: Go program trapped: %w", err)
	}
	for _, t := range inst.timeouts {
		inst.rt.ClearTimeout(t)
	}
	inst.values, inst.refcounts, inst.ids, inst.idPool = nil, nil, nil, nil
	_ = inst.mod.Close(context.Background())
	for _, fn := range inst.onExit {
		fn(inst.exitCode, inst.exitErr)
	}
}

func (inst *Instance) makeFuncWrapper(id float64) *jsrt.Object {
	return inst.rt.NewFunction("", func(this jsrt.Value, args []jsrt.Value) (jsrt.Value, error) {
		if inst.exited {
			return nil, inst.rt.ThrowError("Go program has already exited")
		}
		event := inst.rt.NewObject()
		event.Define("id", id)
		event.Define("this", this)
		event.Define("args", inst.rt.NewArray(args...))
		inst.goObj.Define("_pendingEvent", event)
		if err := inst.resume(); err != nil {
			return nil, inst.rt.ThrowError("%v", err)
		}
		return event.MustGet("result"), nil
	})
}

func (inst *Instance) writeArgs(argv []string, env map[string]string) (int, uint32, error) {
	offset := uint32(4096)
	strPtr := func(s string) (uint32, error) {
		ptr := offset
		b := append([]byte(s), 0)
		if !inst.mem.Write(offset, b) {
			return 0, ErrBadMemory
		}
		offset += uint32(len(b))
		if offset%8 != 0 {
			offset += 8 - offset%8
		}
		return ptr, nil
	}
	var ptrs []uint32
	for _, a := range argv {
		p, err := strPtr(a)
		if err != nil {
			return 0, 0, err
		}
		ptrs = append(ptrs, p)
	}
	ptrs = append(ptrs, 0)
	for _, k := range slices.Sorted(maps.Keys(env)) {
		p, err := strPtr(k + "=" + env[k])
		if err != nil {
			return 0, 0, err
		}
		ptrs = append(ptrs, p)
	}
	ptrs = append(ptrs, 0)
	argvPtr := offset
	for _, p := range ptrs {
		inst.mem.WriteUint64Le(offset, uint64(p))
		offset += 8
	}
	const wasmMinDataAddr = 4096 + 8192
	if offset >= wasmMinDataAddr {
		return 0, 0, errors.New("gojs: total length of command line and environment variables exceeds limit")
	}
	return len(argv), argvPtr, nil
}

// --- memory helpers: the guest is never trusted ---

func (inst *Instance) u32(addr uint32) uint32 {
	v, ok := inst.mem.ReadUint32Le(addr)
	if !ok {
		panic(ErrBadMemory)
	}
	return v
}

func (inst *Instance) i64(addr uint32) int64 {
	v, ok := inst.mem.ReadUint64Le(addr)
	if !ok {
		panic(ErrBadMemory)
	}
	return int64(v)
}

func (inst *Instance) setU64(addr uint32, v uint64) {
	if !inst.mem.WriteUint64Le(addr, v) {
		panic(ErrBadMemory)
	}
}

func (inst *Instance) setU32(addr uint32, v uint32) {
	if !inst.mem.WriteUint32Le(addr, v) {
		panic(ErrBadMemory)
	}
}

func (inst *Instance) setU8(addr uint32, v byte) {
	if !inst.mem.WriteByte(addr, v) {
		panic(ErrBadMemory)
	}
}

func (inst *Instance) slice(addr uint32) []byte {
	ptr, n := inst.i64(addr), inst.i64(addr+8)
	if ptr < 0 || n < 0 || ptr > math.MaxUint32 || n > math.MaxUint32 {
		panic(ErrBadMemory)
	}
	b, ok := inst.mem.Read(uint32(ptr), uint32(n))
	if !ok {
		panic(ErrBadMemory)
	}
	return b
}

func (inst *Instance) loadString(addr uint32) string {
	return decodeUTF8(inst.slice(addr))
}

// decodeUTF8 replaces each invalid byte with U+FFFD, as TextDecoder does.
func decodeUTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	out := make([]rune, 0, len(b))
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		out = append(out, r)
		b = b[size:]
	}
	return string(out)
}

func (inst *Instance) loadValue(addr uint32) jsrt.Value {
	bits, ok := inst.mem.ReadUint64Le(addr)
	if !ok {
		panic(ErrBadMemory)
	}
	f := math.Float64frombits(bits)
	if f == 0 {
		return jsrt.Undefined
	}
	if !math.IsNaN(f) {
		return f
	}
	id := uint32(bits)
	if int(id) >= len(inst.values) {
		panic(ErrBadMemory)
	}
	return inst.values[id]
}

func (inst *Instance) loadValues(addr uint32) []jsrt.Value {
	ptr, n := inst.i64(addr), inst.i64(addr+8)
	if ptr < 0 || n < 0 || ptr+8*n > math.MaxUint32 {
		panic(ErrBadMemory)
	}
	out := make([]jsrt.Value, n)
	for i := range out {
		out[i] = inst.loadValue(uint32(ptr) + uint32(i)*8)
	}
	return out
}

func (inst *Instance) storeValue(addr uint32, v jsrt.Value) {
	if f, ok := v.(float64); ok && f != 0 {
		if math.IsNaN(f) {
			inst.setU64(addr, uint64(nanHead)<<32)
			return
		}
		inst.setU64(addr, math.Float64bits(f))
		return
	}
	if jsrt.IsUndefined(v) {
		inst.setU64(addr, 0)
		return
	}
	var id uint32
	switch x := v.(type) {
	case float64: // zero
		id = 1
	case bool:
		id = 4
		if x {
			id = 3
		}
	default:
		if v == jsrt.Null {
			id = 2
			break
		}
		var known bool
		id, known = inst.ids[v]
		if !known {
			if n := len(inst.idPool); n > 0 {
				id = inst.idPool[n-1]
				inst.idPool = inst.idPool[:n-1]
				inst.values[id] = v
				inst.refcounts[id] = 0
			} else {
				id = uint32(len(inst.values))
				inst.values = append(inst.values, v)
				inst.refcounts = append(inst.refcounts, 0)
			}
			inst.ids[v] = id
		}
		if inst.refcounts[id] >= 0 {
			inst.refcounts[id]++
		}
	}
	var flag uint32
	switch jsrt.TypeOf(v) {
	case "object":
		if v != jsrt.Null {
			flag = 1
		}
	case "string":
		flag = 2
	case "function":
		flag = 4
	}
	inst.setU64(addr, uint64(nanHead|flag)<<32|uint64(id))
}

// sp re-reads Go's stack pointer after a call that may have run Go code.
func (inst *Instance) sp() uint32 {
	res, err := inst.getsp.Call(inst.ctx)
	if err != nil {
		panic(err)
	}
	return api.DecodeU32(res[0])
}

// --- runtime imports ---

func (inst *Instance) wasmExit(sp uint32) {
	code := int32(inst.u32(sp + 8))
	_ = inst.mod.CloseWithExitCode(inst.ctx, uint32(code))
	panic(sys.NewExitError(uint32(code)))
}

func (inst *Instance) wasmWrite(sp uint32) {
	fd := inst.i64(sp + 8)
	p := inst.i64(sp + 16)
	n := int32(inst.u32(sp + 24))
	b, ok := inst.mem.Read(uint32(p), uint32(n))
	if !ok {
		panic(ErrBadMemory)
	}
	fs := inst.rt.Global.MustGet("fs")
	_, _ = inst.rt.CallMethod(fs, "writeSync", float64(fd), inst.rt.NewBytes(append([]byte(nil), b...)))
}

func (inst *Instance) nanotime1(sp uint32) {
	inst.setU64(sp+8, uint64(inst.start.UnixNano()+int64(time.Since(inst.start))))
}

func (inst *Instance) walltime(sp uint32) {
	now := inst.rt.Now()
	ms := now.UnixMilli()
	inst.setU64(sp+8, uint64(ms/1000))
	inst.setU32(sp+16, uint32((ms%1000)*1_000_000))
}

func (inst *Instance) scheduleTimeoutEvent(sp uint32) {
	inst.nextTimer++
	id := inst.nextTimer
	delay := time.Duration(inst.i64(sp+8)) * time.Millisecond
	inst.timeouts[id] = inst.rt.SetTimeout(delay, func() {
		for tries := 0; !inst.exited; tries++ {
			if _, still := inst.timeouts[id]; !still || tries > 100 {
				break
			}
			if err := inst.resume(); err != nil {
				return
			}
		}
	})
	inst.setU32(sp+16, uint32(id))
}

func (inst *Instance) clearTimeoutEvent(sp uint32) {
	id := int32(inst.u32(sp + 8))
	if t, ok := inst.timeouts[id]; ok {
		inst.rt.ClearTimeout(t)
		delete(inst.timeouts, id)
	}
}

func (inst *Instance) getRandomData(sp uint32) {
	_, _ = rand.Read(inst.slice(sp + 8))
}

// --- syscall/js imports ---

func (inst *Instance) finalizeRef(sp uint32) {
	id := inst.u32(sp + 8)
	if int(id) >= len(inst.refcounts) || inst.refcounts[id] < 0 {
		return
	}
	inst.refcounts[id]--
	if inst.refcounts[id] == 0 {
		delete(inst.ids, inst.values[id])
		inst.values[id] = jsrt.Null
		inst.idPool = append(inst.idPool, id)
	}
}

func (inst *Instance) stringVal(sp uint32) {
	inst.storeValue(sp+24, inst.loadString(sp+8))
}

func (inst *Instance) valueGet(sp uint32) {
	v, err := inst.rt.Get(inst.loadValue(sp+8), inst.loadString(sp+16))
	if err != nil {
		inst.rt.OnUncaughtError(err)
		v = jsrt.Undefined
	}
	sp = inst.sp()
	inst.storeValue(sp+32, v)
}

func (inst *Instance) valueSet(sp uint32) {
	if err := inst.rt.Set(inst.loadValue(sp+8), inst.loadString(sp+16), inst.loadValue(sp+32)); err != nil {
		inst.rt.OnUncaughtError(err)
	}
}

func (inst *Instance) valueDelete(sp uint32) {
	if o, ok := inst.loadValue(sp + 8).(*jsrt.Object); ok {
		o.Delete(inst.loadString(sp + 16))
	}
}

func (inst *Instance) valueIndex(sp uint32) {
	v, err := inst.rt.Get(inst.loadValue(sp+8), fmt.Sprint(inst.i64(sp+16)))
	if err != nil {
		inst.rt.OnUncaughtError(err)
		v = jsrt.Undefined
	}
	inst.storeValue(sp+24, v)
}

func (inst *Instance) valueSetIndex(sp uint32) {
	if err := inst.rt.Set(inst.loadValue(sp+8), fmt.Sprint(inst.i64(sp+16)), inst.loadValue(sp+24)); err != nil {
		inst.rt.OnUncaughtError(err)
	}
}

// finishCall writes a call's result and success flag where Go expects them.
func (inst *Instance) finishCall(resultOff uint32, v jsrt.Value, err error) {
	sp := inst.sp()
	if err != nil {
		inst.storeValue(sp+resultOff, inst.rt.ThrowValue(err))
		inst.setU8(sp+resultOff+8, 0)
		return
	}
	inst.storeValue(sp+resultOff, v)
	inst.setU8(sp+resultOff+8, 1)
}

func (inst *Instance) valueCall(sp uint32) {
	this := inst.loadValue(sp + 8)
	name := inst.loadString(sp + 16)
	args := inst.loadValues(sp + 32)
	fn, err := inst.rt.Get(this, name)
	var res jsrt.Value
	if err == nil {
		res, err = inst.rt.Call(fn, this, args...)
	}
	inst.finishCall(56, res, err)
}

func (inst *Instance) valueInvoke(sp uint32) {
	fn := inst.loadValue(sp + 8)
	args := inst.loadValues(sp + 16)
	res, err := inst.rt.Call(fn, jsrt.Undefined, args...)
	inst.finishCall(40, res, err)
}

func (inst *Instance) valueNew(sp uint32) {
	ctor := inst.loadValue(sp + 8)
	args := inst.loadValues(sp + 16)
	res, err := inst.rt.Construct(ctor, args...)
	inst.finishCall(40, res, err)
}

func (inst *Instance) valueLength(sp uint32) {
	v, _ := inst.rt.Get(inst.loadValue(sp+8), "length")
	n := jsrt.ToNumber(v)
	if math.IsNaN(n) {
		n = 0
	}
	inst.setU64(sp+16, uint64(int64(n)))
}

func (inst *Instance) valuePrepareString(sp uint32) {
	b := []byte(jsrt.ToString(inst.loadValue(sp + 8)))
	inst.storeValue(sp+16, inst.rt.NewBytes(b))
	inst.setU64(sp+24, uint64(len(b)))
}

func (inst *Instance) valueLoadString(sp uint32) {
	src, _ := inst.loadValue(sp + 8).(*jsrt.Object)
	if src != nil {
		copy(inst.slice(sp+16), src.Bytes())
	}
}

func (inst *Instance) valueInstanceOf(sp uint32) {
	var b byte
	if inst.rt.InstanceOf(inst.loadValue(sp+8), inst.loadValue(sp+16)) {
		b = 1
	}
	inst.setU8(sp+24, b)
}

func (inst *Instance) copyBytesToGo(sp uint32) {
	dst := inst.slice(sp + 8)
	src, ok := inst.loadValue(sp + 32).(*jsrt.Object)
	if !ok || !src.IsBytes() {
		inst.setU8(sp+48, 0)
		return
	}
	n := copy(dst, src.Bytes())
	inst.setU64(sp+40, uint64(n))
	inst.setU8(sp+48, 1)
}

func (inst *Instance) copyBytesToJS(sp uint32) {
	dst, ok := inst.loadValue(sp + 8).(*jsrt.Object)
	src := inst.slice(sp + 16)
	if !ok || !dst.IsBytes() {
		inst.setU8(sp+48, 0)
		return
	}
	n := copy(dst.Bytes(), src)
	inst.setU64(sp+40, uint64(n))
	inst.setU8(sp+48, 1)
}
