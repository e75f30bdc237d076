// The tsc oracle's helper: the TypeScript checker's own binding of every call and
// construction a TypeScript / JavaScript tree writes, one truth site per JSON line.
//
// usage: node calls.js --modules DIR --root ROOT --files LIST --out OUT [--options JSON]
//                      [--configs CONFIGS]
//        node calls.js --modules DIR --version
//   DIR     the node_modules of oracles/tsc (the pinned typescript and @types/node);
//   LIST    a file of paths relative to ROOT, one a line (every TypeScript / JavaScript
//           file of the tree);
//   JSON    compiler options as a tsconfig writes them (paths relative to ROOT): over
//           every program's options;
//   CONFIGS a file of the tree's tsconfig.json / jsconfig.json paths relative to ROOT.
//
// The programs (the engine reads the same ones, engine/src/lang/typescript/project.rs):
// each config of CONFIGS and each config their `references` name, in path order, is
// a program: its own files and options (a jsconfig.json under allowJs), with JSON's
// options over them; then one program of the LIST files no config holds (a config
// holds the TypeScript files under its directory, and the JavaScript ones when it
// allows JavaScript) with the defaults below and JSON's options over them. A file is
// judged in the first program that reads it; a file a config holds and no program
// reads is left out by the build: none of its calls is a site.
//
// What a site is (oracles/src/tsc.rs documents the same for the truth's reader):
// - CallExpression, NewExpression, TaggedTemplateExpression, a Decorator that is not
//   itself a call (`@d`; `@d()` is the call `d()`), and a JSX element whose tag is a
//   component (capitalised or dotted; lowercase intrinsic tags are not calls);
// - named by the call's own name token (`b` in `a.b()`, `X` in `new ns.X()`, `super`
//   for `super(...)`, `Bar` in `<Foo.Bar/>`), at its line and 1-based BYTE column;
//   a callee without a name token (`f()()`, `a[k]()`) is `()` at its `(`, unjudged
//   `dynamic_callee`;
// - its targets: the declaration of the resolved signature (the overload chosen) and
//   the declaration of the callee's symbol (aliases followed), each by its name line
//   (`const f = () =>`: the const's name; a construction: the constructor when the
//   class declares one, else the class name), deduplicated; a name bound to a call's
//   result (`f = wrap(() => …)`) is acceptable beside the body the checker resolved;
//   in-tree targets only when
//   there is one, else `outside` for declarations in lib.*.d.ts, node_modules or
//   @types, or outside the root;
// - unjudged when the checker binds no declaration (`any`, an unresolved name:
//   `unresolved`), or when the call goes through a value whose declaration is a
//   function TYPE (a parameter, a property signature, a type literal or call
//   signature): `indirect`; when its only declarations are in a .d.ts file of the
//   tree (no body): `declaration_only`;
// - its caller: the innermost enclosing function, method, constructor, accessor or
//   lambda (by its name line as above; an anonymous lambda by its first line); a
//   class member initializer's caller is the class; top-level code has none.
"use strict";

const fs = require("fs");
const path = require("path");

function parseArgs(argv) {
  const args = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--version") args.version = true;
    else if (a.startsWith("--") && i + 1 < argv.length) args[a.slice(2)] = argv[++i];
    else throw new Error(`unexpected argument ${a}`);
  }
  return args;
}

const args = parseArgs(process.argv.slice(2));
if (!args.modules) {
  console.error("calls.js: --modules DIR is required");
  process.exit(2);
}
const modules = path.resolve(args.modules);
const ts = require(path.join(modules, "typescript"));

if (args.version) {
  const types = JSON.parse(fs.readFileSync(path.join(modules, "@types", "node", "package.json"), "utf8"));
  console.log(`typescript ${ts.version} (@types/node ${types.version}, node ${process.version})`);
  process.exit(0);
}
if (!args.root || !args.files || !args.out) {
  console.error("calls.js: --root, --files and --out are required");
  process.exit(2);
}

const root = fs.realpathSync(path.resolve(args.root));
const readList = (file) => fs.readFileSync(file, "utf8").split("\n").filter((l) => l.trim() !== "");
const relFiles = readList(args.files);
const relConfigs = args.configs ? readList(args.configs) : [];

// Defaults: JavaScript read and checked, nothing emitted, the pinned @types/node as
// the only ambient package, libraries' own .d.ts not re-checked.
const defaults = {
  allowJs: true,
  checkJs: true,
  noEmit: true,
  skipLibCheck: true,
  target: "es2022",
  module: "esnext",
  moduleResolution: "bundler",
  jsx: "react-jsx",
  esModuleInterop: true,
  resolveJsonModule: true,
  types: ["node"],
};
const given = args.options ? JSON.parse(args.options) : {};
function converted(json) {
  const c = ts.convertCompilerOptionsFromJson(json, root);
  if (c.errors.length > 0) {
    for (const e of c.errors) console.error("calls.js: option:", ts.flattenDiagnosticMessageText(e.messageText, "\n"));
    process.exit(2);
  }
  return c.options;
}
const overrides = converted(given);
// What every program gets whatever its config says: nothing emitted, the pinned
// @types/node as the only ambient package, libraries' .d.ts not re-checked.
const operational = { noEmit: true, skipLibCheck: true, types: ["node"], typeRoots: [path.join(modules, "@types")] };

const started = Date.now();

// ---- the programs ----

const isJsFile = (f) => /\.(js|jsx|mjs|cjs)$/.test(f);

// A config the tree writes, parsed by tsc itself; null when it cannot be read.
function parseConfig(rel) {
  const abs = path.join(root, rel);
  const read = ts.readConfigFile(abs, ts.sys.readFile);
  if (read.error || !read.config) return null;
  const jsconfig = path.basename(rel).startsWith("jsconfig");
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, path.dirname(abs), jsconfig ? { allowJs: true } : {}, abs);
  return { rel, dir: path.posix.dirname(rel) === "." ? "" : path.posix.dirname(rel), parsed };
}

// Every config of the tree and those their `references` name (inside the root), in
// path order.
function projectConfigs() {
  const found = new Map();
  const queue = [...relConfigs];
  for (let depth = 0; queue.length > 0 && depth < 10000; depth++) {
    const rel = queue.shift();
    if (found.has(rel)) continue;
    const config = parseConfig(rel);
    found.set(rel, config);
    if (!config) continue;
    for (const ref of config.parsed.projectReferences || []) {
      let target = ref.path;
      if (!target.endsWith(".json")) target = path.join(target, "tsconfig.json");
      const r = relative(target);
      if (r !== null && fs.existsSync(target) && !found.has(r)) queue.push(r);
    }
  }
  return [...found.keys()].sort().map((rel) => found.get(rel)).filter((c) => c !== null);
}

function buildPrograms() {
  const out = [];
  const holders = [];
  for (const config of projectConfigs()) {
    const o = config.parsed.options;
    const allowJs = o.allowJs === undefined ? !!o.checkJs : o.allowJs;
    holders.push({ dir: config.dir, allowJs });
    const roots = config.parsed.fileNames.filter((f) => !f.endsWith(".json"));
    out.push({ name: config.rel, roots, options: { ...o, ...overrides, ...operational } });
  }
  const holds = (h, rel) => (h.dir === "" || rel.startsWith(h.dir + "/")) && (h.allowJs || !isJsFile(rel));
  const unheld = relFiles.filter((rel) => !holders.some((h) => holds(h, rel))).map((rel) => path.join(root, rel));
  out.push({ name: "(no config)", roots: unheld, options: { ...converted({ ...defaults, ...given }), ...operational } });
  return out;
}

let program;
let checker;

// ---- positions: lines by '\n' only (as the engine counts), columns in UTF-8 bytes ----

const lineStarts = new Map();
function newlineStarts(sf) {
  let starts = lineStarts.get(sf);
  if (!starts) {
    starts = [0];
    const text = sf.text;
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
    lineStarts.set(sf, starts);
  }
  return starts;
}

// 1-based line and 1-based byte column of a UTF-16 offset of `sf`.
function lineAndByteColumn(sf, pos) {
  const starts = newlineStarts(sf);
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= pos) lo = mid;
    else hi = mid - 1;
  }
  const column = Buffer.byteLength(sf.text.slice(starts[lo], pos), "utf8") + 1;
  return [lo + 1, column];
}

function relative(file) {
  const abs = path.resolve(file);
  if (!abs.startsWith(root + path.sep)) return null;
  return path.relative(root, abs).split(path.sep).join("/");
}

// Whether a declaration's file lies outside the analysed tree: the default libraries,
// anything under node_modules (packages, @types), anything not under the root.
function isOutsideFile(sf) {
  if (program.isSourceFileDefaultLibrary(sf)) return true;
  const rel = relative(sf.fileName);
  return rel === null || rel.split("/").includes("node_modules");
}

// ---- declarations as targets ----

function unwrap(e) {
  while (
    e &&
    (ts.isParenthesizedExpression(e) ||
      ts.isAsExpression(e) ||
      ts.isSatisfiesExpression(e) ||
      ts.isNonNullExpression(e) ||
      ts.isTypeAssertionExpression(e))
  )
    e = e.expression;
  return e;
}

const isFunctionValue = (e) => !!e && (ts.isArrowFunction(e) || ts.isFunctionExpression(e) || ts.isClassExpression(e));

const plainName = (name) => !!name && (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name));

// The name that holds a function or class expression: `const f = () => …`,
// `{f: function () {…}}`, a class field `f = () => …`, `x.f = function () {…}`.
function holderName(fn) {
  let n = fn;
  let p = n.parent;
  while (p && (ts.isParenthesizedExpression(p) || ts.isAsExpression(p) || ts.isSatisfiesExpression(p) || ts.isNonNullExpression(p) || ts.isTypeAssertionExpression(p))) {
    n = p;
    p = p.parent;
  }
  if (!p) return null;
  if ((ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) && p.initializer === n)
    return plainName(p.name) ? p.name : null;
  if (ts.isBinaryExpression(p) && p.operatorToken.kind === ts.SyntaxKind.EqualsToken && p.right === n) return assignedName(p.left);
  return null;
}

// The name token an assignment writes to: `f` in `x.f = …`, `f = …`, `x["f"] = …`.
function assignedName(left) {
  const l = unwrap(left);
  if (ts.isIdentifier(l)) return l;
  if (ts.isPropertyAccessExpression(l)) return l.name;
  if (ts.isElementAccessExpression(l) && ts.isStringLiteralLike(l.argumentExpression)) return l.argumentExpression;
  return null;
}

function constructorKeyword(ctor) {
  const sf = ctor.getSourceFile();
  for (const child of ctor.getChildren(sf)) if (child.kind === ts.SyntaxKind.ConstructorKeyword) return child;
  return ctor;
}

// The node whose first line names `decl` as a call target, or null when `decl` is not
// a body that runs (a parameter, a property of a function type, a type signature, a
// variable holding something other than a function).
function callableAnchor(decl) {
  if (!decl) return null;
  switch (decl.kind) {
    case ts.SyntaxKind.FunctionDeclaration:
    case ts.SyntaxKind.MethodDeclaration:
    case ts.SyntaxKind.MethodSignature:
    case ts.SyntaxKind.ClassDeclaration:
      return decl.name && plainName(decl.name) ? decl.name : decl;
    case ts.SyntaxKind.Constructor:
      return constructorKeyword(decl);
    case ts.SyntaxKind.ArrowFunction:
    case ts.SyntaxKind.FunctionExpression:
    case ts.SyntaxKind.ClassExpression:
      return holderName(decl) || decl.name || decl;
    case ts.SyntaxKind.VariableDeclaration:
    case ts.SyntaxKind.PropertyAssignment:
    case ts.SyntaxKind.PropertyDeclaration:
      return isFunctionValue(unwrap(decl.initializer)) && plainName(decl.name) ? decl.name : null;
    case ts.SyntaxKind.BinaryExpression:
      return decl.operatorToken.kind === ts.SyntaxKind.EqualsToken && isFunctionValue(unwrap(decl.right)) ? assignedName(decl.left) : null;
    case ts.SyntaxKind.PropertyAccessExpression:
    case ts.SyntaxKind.ElementAccessExpression: {
      const p = decl.parent;
      return p && ts.isBinaryExpression(p) && p.left === decl && p.operatorToken.kind === ts.SyntaxKind.EqualsToken && isFunctionValue(unwrap(p.right))
        ? assignedName(decl)
        : null;
    }
    default:
      return null;
  }
}

// Declarations that only state a function's type: a call through them reaches whatever
// value was passed or stored, which the checker does not know.
function isTypeOnlyCallable(decl) {
  if (!decl) return false;
  switch (decl.kind) {
    case ts.SyntaxKind.FunctionType:
    case ts.SyntaxKind.ConstructorType:
    case ts.SyntaxKind.CallSignature:
    case ts.SyntaxKind.ConstructSignature:
    case ts.SyntaxKind.PropertySignature:
    case ts.SyntaxKind.Parameter:
    case ts.SyntaxKind.BindingElement:
    case ts.SyntaxKind.JSDocSignature:
    case ts.SyntaxKind.JSDocFunctionType:
    case ts.SyntaxKind.JSDocCallbackTag:
      return true;
    case ts.SyntaxKind.VariableDeclaration:
    case ts.SyntaxKind.PropertyDeclaration:
      return !isFunctionValue(unwrap(decl.initializer)) && !!decl.type;
    default:
      return false;
  }
}

function containerNames(decl) {
  const names = [];
  for (let n = decl; n; n = n.parent) {
    if (n.name && plainName(n.name)) names.push(n.name.text);
    else if (ts.isConstructorDeclaration(n)) names.push("constructor");
    if (ts.isSourceFile(n)) break;
  }
  return names.reverse().join(".");
}

// The informative symbol of an outside declaration: `lib.es5.d.ts:Array.map`,
// `@types/node:NodeJS.Require`.
function outsideSymbol(decl) {
  const sf = decl.getSourceFile();
  const parts = path.resolve(sf.fileName).split(path.sep);
  const nm = parts.lastIndexOf("node_modules");
  let origin = parts[parts.length - 1];
  if (!program.isSourceFileDefaultLibrary(sf) && nm !== -1 && nm + 1 < parts.length) origin = parts[nm + 1].startsWith("@") ? `${parts[nm + 1]}/${parts[nm + 2]}` : parts[nm + 1];
  return `${origin}:${containerNames(decl)}`;
}

// A target of `decl`: {kind: in_tree, file, line} / {kind: outside, symbol} / null.
function targetOf(decl) {
  if (!decl) return null;
  const sf = decl.getSourceFile();
  if (isOutsideFile(sf)) return { kind: "outside", symbol: outsideSymbol(decl) };
  // A declaration file of the tree states a type, not a body that runs.
  if (sf.isDeclarationFile) return { kind: "declaration_only" };
  const anchor = callableAnchor(decl);
  if (!anchor) return null;
  return { kind: "in_tree", file: relative(sf.fileName), line: lineAndByteColumn(sf, anchor.getStart(sf))[0] };
}

// A name bound to what an expression returned (`x = wrap(() => …)`, a class field
// `f = debounce(…)`): when the checker resolved the call to a body in the tree (the
// function the expression hands back), the called name's own declaration is an
// acceptable target too, by its name line.
function valueHolderTarget(decl) {
  if (!decl || isOutsideFile(decl.getSourceFile()) || callableAnchor(decl)) return null;
  const holds = ts.isVariableDeclaration(decl) || ts.isPropertyDeclaration(decl) || ts.isPropertyAssignment(decl);
  if (!holds || !decl.initializer || !plainName(decl.name)) return null;
  const sf = decl.getSourceFile();
  return { kind: "in_tree", file: relative(sf.fileName), line: lineAndByteColumn(sf, decl.name.getStart(sf))[0] };
}

function resolvedSymbol(node) {
  if (!node) return undefined;
  let sym = checker.getSymbolAtLocation(node);
  for (let i = 0; sym && sym.flags & ts.SymbolFlags.Alias && i < 16; i++) {
    const next = checker.getAliasedSymbol(sym);
    // An import of a module the program cannot find binds nothing.
    if (!next || next === checker.unknownSymbol) return undefined;
    if (next === sym) break;
    sym = next;
  }
  return sym;
}

function symbolDeclaration(sym) {
  if (!sym) return undefined;
  return sym.valueDeclaration || (sym.declarations || [])[0];
}

// ---- sites ----

// The callee's name token: `b` in `a.b`, `f` in `f`, `"k"` in `a["k"]`; null when none.
function nameToken(expr) {
  const e = unwrap(expr);
  if (!e) return null;
  if (ts.isIdentifier(e) || ts.isPrivateIdentifier(e)) return e;
  if (ts.isPropertyAccessExpression(e)) return e.name;
  if (ts.isElementAccessExpression(e) && ts.isStringLiteralLike(e.argumentExpression)) return e.argumentExpression;
  if (ts.isExpressionWithTypeArguments(e)) return nameToken(e.expression);
  if (e.kind === ts.SyntaxKind.SuperKeyword || e.kind === ts.SyntaxKind.ThisKeyword) return e;
  return null;
}

function tokenText(token) {
  if (ts.isStringLiteralLike(token)) return token.text;
  if (token.kind === ts.SyntaxKind.SuperKeyword) return "super";
  if (token.kind === ts.SyntaxKind.ThisKeyword) return "this";
  return token.text;
}

const isComponentTag = (tag) =>
  ts.isPropertyAccessExpression(tag) || (ts.isIdentifier(tag) && /^[A-Z_$]/.test(tag.text)) || tag.kind === ts.SyntaxKind.ThisKeyword;

// The declaration `super(...)` reaches when the class declares no constructor: the base
// class named in `extends`.
function baseClassSymbol(superCall) {
  for (let n = superCall.parent; n; n = n.parent) {
    if (ts.isClassLike(n)) {
      for (const clause of n.heritageClauses || [])
        if (clause.token === ts.SyntaxKind.ExtendsKeyword && clause.types.length > 0) return resolvedSymbol(nameToken(clause.types[0].expression));
      return undefined;
    }
  }
  return undefined;
}

function isFunctionLike(n) {
  return (
    ts.isFunctionDeclaration(n) ||
    ts.isMethodDeclaration(n) ||
    ts.isConstructorDeclaration(n) ||
    ts.isGetAccessorDeclaration(n) ||
    ts.isSetAccessorDeclaration(n) ||
    ts.isArrowFunction(n) ||
    ts.isFunctionExpression(n)
  );
}

// The caller's name line: the innermost function-like ancestor, else the class whose
// member initializer holds the site; top-level code has no caller.
function callerOf(node) {
  const sf = node.getSourceFile();
  for (let n = node.parent; n; n = n.parent) {
    let anchor = null;
    if (isFunctionLike(n)) {
      if (ts.isConstructorDeclaration(n)) anchor = constructorKeyword(n);
      else if (ts.isArrowFunction(n) || ts.isFunctionExpression(n)) anchor = holderName(n) || n.name || n;
      else anchor = n.name && plainName(n.name) ? n.name : n;
    } else if ((ts.isPropertyDeclaration(n) || ts.isClassStaticBlockDeclaration(n)) && ts.isClassLike(n.parent)) {
      const cls = n.parent;
      anchor = cls.name || holderName(cls) || cls;
    }
    if (anchor) return { file: relative(sf.fileName), line: lineAndByteColumn(sf, anchor.getStart(sf))[0] };
  }
  return undefined;
}

const counts = { sites: 0, in_tree: 0, outside: 0, unjudged: 0, indirect: 0, jsx: 0, jsx_in_tree: 0 };
const lines = [];

function emit(sf, node, token, kind) {
  const site = { kind: "site" };
  const caller = callerOf(node);
  let position;
  if (token) {
    position = lineAndByteColumn(sf, token.getStart(sf));
    site.name = tokenText(token);
  } else {
    // No name token: the site sits at its `(` (or the expression's start).
    const open = node.arguments && node.arguments.pos > 0 ? node.arguments.pos - 1 : node.getStart(sf);
    position = lineAndByteColumn(sf, open);
    site.name = "()";
  }
  site.file = relative(sf.fileName);
  [site.line, site.column] = position;
  if (caller) site.caller = caller;
  site.targets = [];
  if (!token) {
    site.unjudged = "dynamic_callee";
  } else {
    judge(node, token, kind, site);
  }
  counts.sites++;
  if (kind === "jsx") counts.jsx++;
  if (site.unjudged === "indirect") counts.indirect++;
  else if (site.unjudged) counts.unjudged++;
  else if (site.targets.some((t) => t.kind === "in_tree")) {
    counts.in_tree++;
    if (kind === "jsx") counts.jsx_in_tree++;
  } else counts.outside++;
  lines.push(JSON.stringify(site));
}

function judge(node, token, kind, site) {
  const signature = checker.getResolvedSignature(node);
  const sigDecl = signature && signature.declaration && signature.declaration.kind !== undefined ? signature.declaration : undefined;
  let sym;
  if (token.kind === ts.SyntaxKind.SuperKeyword) sym = baseClassSymbol(node);
  else sym = resolvedSymbol(token);
  const symDecl = symbolDeclaration(sym);

  const found = [];
  for (const decl of [sigDecl, symDecl]) {
    const t = targetOf(decl);
    if (t && !found.some((f) => JSON.stringify(f) === JSON.stringify(t))) found.push(t);
  }
  const inTree = found.filter((t) => t.kind === "in_tree");
  const declarationOnly = found.some((t) => t.kind === "declaration_only");
  const holder = valueHolderTarget(symDecl);
  if (inTree.length > 0 && holder && !inTree.some((t) => t.file === holder.file && t.line === holder.line)) inTree.push(holder);
  if (inTree.length > 0) {
    site.targets = inTree;
    return;
  }
  if (declarationOnly) {
    site.unjudged = "declaration_only";
    return;
  }
  const throughType = [sigDecl, symDecl].some((d) => d && !isOutsideFile(d.getSourceFile()) && isTypeOnlyCallable(d));
  if (throughType) {
    site.unjudged = "indirect";
    return;
  }
  if (found.length > 0) {
    site.targets = found;
    return;
  }
  site.unjudged = sym || sigDecl ? "no_declaration" : "unresolved";
}

const judged = new Set();
const programStats = [];
for (const p of buildPrograms()) {
  if (p.roots.length === 0) continue;
  program = ts.createProgram(p.roots, p.options);
  checker = program.getTypeChecker();
  let read = 0;
  for (const sf of program.getSourceFiles()) {
    if (sf.isDeclarationFile || isOutsideFile(sf)) continue;
    const rel = relative(sf.fileName);
    if (judged.has(rel)) continue;
    judged.add(rel);
    read++;
    visitFile(sf);
  }
  programStats.push({ program: p.name, files: read });
}

function visitFile(sf) {
  const visit = (n) => {
    if (ts.isCallExpression(n)) {
      // `import(...)` loads a module; it calls nothing the tree declares.
      if (n.expression.kind !== ts.SyntaxKind.ImportKeyword) emit(sf, n, nameToken(n.expression), "call");
    } else if (ts.isNewExpression(n)) {
      emit(sf, n, nameToken(n.expression), "new");
    } else if (ts.isTaggedTemplateExpression(n)) {
      emit(sf, n, nameToken(n.tag), "tagged");
    } else if (ts.isDecorator(n)) {
      // `@d()` is the call `d()`, a site of its own; `@d` calls d.
      if (!ts.isCallExpression(unwrap(n.expression))) emit(sf, n, nameToken(n.expression), "decorator");
    } else if ((ts.isJsxOpeningElement(n) || ts.isJsxSelfClosingElement(n)) && isComponentTag(n.tagName)) {
      emit(sf, n, nameToken(n.tagName), "jsx");
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
}

fs.writeFileSync(args.out, lines.length > 0 ? lines.join("\n") + "\n" : "");
counts.files = judged.size;
counts.programs = programStats;
counts.seconds = (Date.now() - started) / 1000;
counts.heap_mb = Math.round(process.memoryUsage().rss / 1048576);
console.error(JSON.stringify({ stats: counts }));
