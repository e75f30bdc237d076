// gotypes: the Go oracle's helper. It loads every package under a root (tests
// included) with golang.org/x/tools/go/packages and prints, one JSON line per call
// expression, the object go/types binds the callee to and the position of its
// declaration's name. Interface method calls are bound to the interface's method;
// calls of predeclared functions are set apart as implicit; conversions are not
// calls and are not printed; a call of a variable (a func-valued parameter, local or
// field) or of a computed expression is printed unjudged.
//
// usage: gotypes ROOT > sites.jsonl
package main

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

type position struct {
	File string `json:"file"`
	Line int    `json:"line"`
}

type target struct {
	Kind   string `json:"kind"`
	File   string `json:"file,omitempty"`
	Line   int    `json:"line,omitempty"`
	Symbol string `json:"symbol,omitempty"`
}

type site struct {
	Kind     string    `json:"kind"`
	File     string    `json:"file"`
	Line     int       `json:"line"`
	Column   int       `json:"column"`
	Caller   *position `json:"caller,omitempty"`
	Name     string    `json:"name"`
	Targets  []target  `json:"targets"`
	Unjudged string    `json:"unjudged,omitempty"`
	Implicit string    `json:"implicit,omitempty"`
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gotypes ROOT")
		os.Exit(2)
	}
	root, err := filepath.Abs(os.Args[1])
	if err == nil {
		root, err = filepath.EvalSymlinks(root)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gotypes:", err)
		os.Exit(2)
	}
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax |
			packages.NeedTypes | packages.NeedTypesInfo | packages.NeedImports | packages.NeedDeps,
		Dir:   root,
		Tests: true,
	}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		fmt.Fprintln(os.Stderr, "gotypes: load:", err)
		os.Exit(1)
	}
	sort.Slice(pkgs, func(i, j int) bool { return pkgs[i].ID < pkgs[j].ID })
	errors := 0
	for _, p := range pkgs {
		errors += len(p.Errors)
		for _, e := range p.Errors {
			fmt.Fprintln(os.Stderr, "gotypes: package error:", e)
		}
	}
	seen := map[string]bool{}
	var out []site
	for _, p := range pkgs {
		if p.TypesInfo == nil {
			continue
		}
		for _, f := range p.Syntax {
			name := p.Fset.Position(f.FileStart).Filename
			rel, ok := relative(root, name)
			if !ok || seen[rel] {
				continue
			}
			seen[rel] = true
			out = append(out, fileSites(root, p, f)...)
		}
	}
	enc := json.NewEncoder(os.Stdout)
	for _, s := range out {
		if err := enc.Encode(s); err != nil {
			fmt.Fprintln(os.Stderr, "gotypes:", err)
			os.Exit(1)
		}
	}
	fmt.Fprintf(os.Stderr, "gotypes: %d packages, %d files, %d sites, %d package errors\n",
		len(pkgs), len(seen), len(out), errors)
}

// relative: the path under root, `/`-separated; false for a file outside it.
func relative(root, path string) (string, bool) {
	if resolved, err := filepath.EvalSymlinks(path); err == nil {
		path = resolved
	}
	rel, err := filepath.Rel(root, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

func fileSites(root string, p *packages.Package, f *ast.File) []site {
	var out []site
	for _, decl := range f.Decls {
		var caller *position
		if fd, ok := decl.(*ast.FuncDecl); ok {
			pos := p.Fset.Position(fd.Name.Pos())
			if rel, ok := relative(root, pos.Filename); ok {
				caller = &position{File: rel, Line: pos.Line}
			}
		}
		ast.Inspect(decl, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if s, ok := callSite(root, p, call, caller); ok {
				out = append(out, s)
			}
			return true
		})
	}
	return out
}

// callSite: what go/types binds one call expression's callee to.
func callSite(root string, p *packages.Package, call *ast.CallExpr, caller *position) (site, bool) {
	info := p.TypesInfo
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
		return site{}, false // a conversion is not a call
	}
	fun := ast.Unparen(call.Fun)
	switch x := fun.(type) {
	case *ast.IndexExpr:
		fun = x.X
	case *ast.IndexListExpr:
		fun = x.X
	}
	var ident *ast.Ident
	var obj types.Object
	switch x := fun.(type) {
	case *ast.Ident:
		ident = x
		obj = info.Uses[x]
	case *ast.SelectorExpr:
		ident = x.Sel
		if sel, ok := info.Selections[x]; ok {
			obj = sel.Obj()
		} else {
			obj = info.Uses[x.Sel]
		}
	}
	if ident == nil {
		pos := p.Fset.Position(call.Lparen)
		rel, _ := relative(root, pos.Filename)
		return site{Kind: "site", File: rel, Line: pos.Line, Column: pos.Column, Caller: caller,
			Name: "()", Targets: []target{}, Unjudged: "dynamic_callee"}, true
	}
	pos := p.Fset.Position(ident.Pos())
	rel, _ := relative(root, pos.Filename)
	s := site{Kind: "site", File: rel, Line: pos.Line, Column: pos.Column, Caller: caller,
		Name: ident.Name, Targets: []target{}}
	switch o := obj.(type) {
	case *types.Builtin:
		s.Implicit = "builtin"
	case *types.Func:
		s.Targets = []target{funcTarget(root, p.Fset, o.Origin())}
	case *types.Var:
		s.Unjudged = "dynamic_value"
	case *types.TypeName:
		return site{}, false // a conversion through an alias or a generic type
	default:
		s.Unjudged = "unresolved_symbol"
	}
	return s, true
}

func funcTarget(root string, fset *token.FileSet, fn *types.Func) target {
	pos := fset.Position(fn.Pos())
	if fn.Pkg() != nil && pos.IsValid() {
		if rel, ok := relative(root, pos.Filename); ok && !strings.Contains(rel, "/vendor/") {
			return target{Kind: "in_tree", File: rel, Line: pos.Line}
		}
	}
	return target{Kind: "outside", Symbol: symbol(fn)}
}

// symbol: `pkgpath.F`, `pkgpath.T.M`, `error.Error` for a predeclared type's method.
func symbol(fn *types.Func) string {
	name := fn.Name()
	if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil {
		t := sig.Recv().Type()
		if ptr, ok := t.(*types.Pointer); ok {
			t = ptr.Elem()
		}
		if named, ok := t.(*types.Named); ok {
			name = named.Obj().Name() + "." + name
		}
	}
	if fn.Pkg() == nil {
		return name
	}
	return fn.Pkg().Path() + "." + name
}
