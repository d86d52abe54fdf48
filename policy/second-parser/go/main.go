// Command mvdan-sh-wasm exposes the bash parser of mvdan.cc/sh/v3/syntax to JavaScript for
// oikos's second, independent parse of every command (see ../second-parser.ts).
//
// The interface is shared memory and a bare resume, because a call through js.FuncOf costs
// ~20 µs (property reads by name, a finalizer per js.Value), about as much as the parse itself:
// JavaScript writes the UTF-8 source into inBuf and the request (length, node limit) into call,
// then resumes the Go program. The event handler installed in main parses it and writes one
// record of six int32 per syntax node into outBuf (type, start byte, end byte, parent record,
// extra, extra2) and the result into call: the number of records, or minus the length of an
// error message written into errBuf.
//
// Built by scripts/build-second-parser.sh (GOOS=js GOARCH=wasm, Go and mvdan.cc/sh from Debian).
package main

import (
	"bytes"
	"runtime"
	"runtime/debug"
	"syscall/js"
	"unsafe"

	"mvdan.cc/sh/v3/syntax"
)

const (
	maxInput   = 64 * 1024
	maxRecords = 64 * 1024
	fields     = 6
)

var (
	inBuf  = make([]byte, maxInput)
	outBuf = make([]int32, maxRecords*fields)
	// call: [0] set to 1 by JavaScript for a pending request, [1] input length, [2] node limit,
	// [3] the result.
	call   = make([]int32, 4)
	errBuf = make([]byte, 4096)
	parser = syntax.NewParser(syntax.KeepComments(true), syntax.Variant(syntax.LangBash))
)

// Node type codes; the same list, in this order, is typeNames in ../second-parser.ts.
var typeCodes = map[string]int32{}

var typeNames = []string{
	"File", "Stmt", "Comment", "CallExpr", "Word", "Lit", "Assign", "Redirect", "BinaryCmd",
	"Subshell", "Block", "IfClause", "WhileClause", "ForClause", "WordIter", "CStyleLoop",
	"CaseClause", "CaseItem", "FuncDecl", "ArithmCmd", "TestClause", "DeclClause", "LetClause",
	"TimeClause", "CoprocClause", "TestDecl", "SglQuoted", "DblQuoted", "CmdSubst", "ParamExp",
	"ArithmExp", "ProcSubst", "ExtGlob", "BraceExp", "ArrayExpr", "ArrayElem", "BinaryArithm",
	"UnaryArithm", "ParenArithm", "BinaryTest", "UnaryTest", "ParenTest", "Unknown",
}

func typeCode(node syntax.Node) int32 {
	switch node.(type) {
	case *syntax.File:
		return 0
	case *syntax.Stmt:
		return 1
	case *syntax.Comment:
		return 2
	case *syntax.CallExpr:
		return 3
	case *syntax.Word:
		return 4
	case *syntax.Lit:
		return 5
	case *syntax.Assign:
		return 6
	case *syntax.Redirect:
		return 7
	case *syntax.BinaryCmd:
		return 8
	case *syntax.Subshell:
		return 9
	case *syntax.Block:
		return 10
	case *syntax.IfClause:
		return 11
	case *syntax.WhileClause:
		return 12
	case *syntax.ForClause:
		return 13
	case *syntax.WordIter:
		return 14
	case *syntax.CStyleLoop:
		return 15
	case *syntax.CaseClause:
		return 16
	case *syntax.CaseItem:
		return 17
	case *syntax.FuncDecl:
		return 18
	case *syntax.ArithmCmd:
		return 19
	case *syntax.TestClause:
		return 20
	case *syntax.DeclClause:
		return 21
	case *syntax.LetClause:
		return 22
	case *syntax.TimeClause:
		return 23
	case *syntax.CoprocClause:
		return 24
	case *syntax.TestDecl:
		return 25
	case *syntax.SglQuoted:
		return 26
	case *syntax.DblQuoted:
		return 27
	case *syntax.CmdSubst:
		return 28
	case *syntax.ParamExp:
		return 29
	case *syntax.ArithmExp:
		return 30
	case *syntax.ProcSubst:
		return 31
	case *syntax.ExtGlob:
		return 32
	case *syntax.BraceExp:
		return 33
	case *syntax.ArrayExpr:
		return 34
	case *syntax.ArrayElem:
		return 35
	case *syntax.BinaryArithm:
		return 36
	case *syntax.UnaryArithm:
		return 37
	case *syntax.ParenArithm:
		return 38
	case *syntax.BinaryTest:
		return 39
	case *syntax.UnaryTest:
		return 40
	case *syntax.ParenTest:
		return 41
	}
	return 42
}

func bit(on bool, value int32) int32 {
	if on {
		return value
	}
	return 0
}

// extras: operator tokens (their text is in the token table) and flag bits.
func extras(node syntax.Node) (int32, int32) {
	switch x := node.(type) {
	case *syntax.Redirect:
		fd := int32(-1)
		if x.N != nil {
			fd = 0
			for _, c := range x.N.Value {
				fd = fd*10 + int32(c-'0')
			}
		}
		return int32(x.Op), fd
	case *syntax.BinaryCmd:
		return int32(x.Op), 0
	case *syntax.Stmt:
		return bit(x.Negated, 1) | bit(x.Background, 2) | bit(x.Coprocess, 4), 0
	case *syntax.CmdSubst:
		return bit(x.Backquotes, 1) | bit(x.TempFile || x.ReplyVar, 2), 0
	case *syntax.ParamExp:
		var op int32
		if x.Exp != nil {
			op = int32(x.Exp.Op)
		}
		return bit(x.Short, 1) | bit(x.Excl, 2) | bit(x.Length, 4) | bit(x.Width, 8) |
			bit(x.Index != nil, 16) | bit(x.Slice != nil, 32) | bit(x.Repl != nil, 64) |
			bit(x.Names != 0, 128) | bit(x.Exp != nil, 256), op
	case *syntax.SglQuoted:
		return bit(x.Dollar, 1), 0
	case *syntax.DblQuoted:
		return bit(x.Dollar, 1), 0
	case *syntax.ProcSubst:
		return int32(x.Op), 0
	case *syntax.Assign:
		return bit(x.Append, 1) | bit(x.Naked, 2) | bit(x.Index != nil, 4) | bit(x.Array != nil, 8), 0
	case *syntax.UnaryTest:
		return int32(x.Op), 0
	case *syntax.BinaryTest:
		return int32(x.Op), 0
	case *syntax.UnaryArithm:
		return int32(x.Op), 0
	case *syntax.BinaryArithm:
		return int32(x.Op), 0
	}
	return 0, 0
}

type encoder struct {
	count int
	stack []int32
	over  bool
	limit int
}

// emitted: the node types the agreement check reads; the rest (literals, quotes, statements,
// lists) are walked through but not sent, and a record's parent is its nearest emitted ancestor.
func emitted(code int32) bool {
	switch code {
	case 2, 3, 4, 6, 7, 20, 21, 23, 28, 29, 30, 31:
		return true
	}
	return false
}

func (e *encoder) visit(node syntax.Node) bool {
	if node == nil {
		e.stack = e.stack[:len(e.stack)-1]
		return true
	}
	if e.count >= e.limit {
		e.over = true
		return false
	}
	code := typeCode(node)
	if !emitted(code) {
		// Not sent: its children keep the current parent.
		parent := int32(-1)
		if len(e.stack) > 0 {
			parent = e.stack[len(e.stack)-1]
		}
		e.stack = append(e.stack, parent)
		return true
	}
	parent := int32(-1)
	if len(e.stack) > 0 {
		parent = e.stack[len(e.stack)-1]
	}
	extra, extra2 := extras(node)
	at := e.count * fields
	outBuf[at] = code
	outBuf[at+1] = int32(node.Pos().Offset())
	outBuf[at+2] = int32(node.End().Offset())
	outBuf[at+3] = parent
	outBuf[at+4] = extra
	outBuf[at+5] = extra2
	e.stack = append(e.stack, int32(e.count))
	e.count++
	return true
}

func fail(message string) int {
	n := copy(errBuf, message)
	if n == 0 {
		errBuf[0] = '?'
		n = 1
	}
	return -n
}

var parses int

func parse(length, limit int) (result int) {
	parses++
	if parses%2000 == 0 {
		runtime.GC()
	}
	defer func() {
		if r := recover(); r != nil {
			result = fail("the second parser panicked")
		}
	}()
	if length < 0 || length > maxInput {
		return fail("the command is too long for the second parser")
	}
	if limit <= 0 || limit > maxRecords {
		limit = maxRecords
	}
	file, err := parser.Parse(bytes.NewReader(inBuf[:length]), "")
	if err != nil {
		return fail(err.Error())
	}
	e := &encoder{limit: limit, stack: make([]int32, 0, 32)}
	syntax.Walk(file, e.visit)
	if e.over {
		return fail("the syntax tree is larger than the node limit")
	}
	return e.count
}

func address(p unsafe.Pointer) int { return int(uintptr(p)) }

// setEventHandler is the runtime's hook for a resume from JavaScript (syscall/js installs its own
// at init, which serves js.FuncOf; nothing here uses js.FuncOf after start). Go 1.19's runtime
// provides it under this name; the empty linkname.s lets a body-less declaration compile.
//
//go:linkname setEventHandler syscall/js.setEventHandler
func setEventHandler(fn func())

// handleCall runs on every resume: a request when JavaScript set call[0], otherwise a timer.
func handleCall() {
	if call[0] == 0 {
		return
	}
	call[0] = 0
	call[3] = int32(parse(int(call[1]), int(call[2])))
}

func main() {
	// The syntax trees are garbage the moment they are encoded and the live heap is tiny, so a
	// collection every few thousand parses costs less than the collector's pacing.
	debug.SetGCPercent(-1)
	tokens := make([]any, 0, 160)
	for i := 0; i < 160; i++ {
		tokens = append(tokens, syntaxTokenString(i))
	}
	names := make([]any, len(typeNames))
	for i, name := range typeNames {
		names[i] = name
	}
	api := map[string]any{
		"inAddress":   address(unsafe.Pointer(&inBuf[0])),
		"inSize":      maxInput,
		"outAddress":  address(unsafe.Pointer(&outBuf[0])),
		"errAddress":  address(unsafe.Pointer(&errBuf[0])),
		"callAddress": address(unsafe.Pointer(&call[0])),
		"fields":      fields,
		"tokens":      tokens,
		"types":       names,
	}
	js.Global().Set("__oikosSecondParser", js.ValueOf(api))
	setEventHandler(handleCall)
	select {}
}

// Every operator type's String is the shared token table; RedirOperator reaches all of it.
func syntaxTokenString(i int) string { return syntax.RedirOperator(i).String() }
