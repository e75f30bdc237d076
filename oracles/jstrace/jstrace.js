#!/usr/bin/env node
// The jstrace oracle's helper: runs a JavaScript program (a corpus's test runner)
// with every CommonJS module instrumented at compile time, and records, for every
// call executed at a call site of the tree, the site and each callee it reached.
//
//   node jstrace.js --modules HELPER_NODE_MODULES --root ROOT --out OUT.json [--main FILE] -- SCRIPT ARGS...
//
// `--main FILE` (relative to ROOT): what `require` of the root directory itself loads
// (`require('../')` from the tests), the package.json `main` the analysed view omits.
//
// How (oracles/src/jstrace.rs says what the truth means):
// - `Module.prototype._compile` parses each module with the pinned acorn and inserts
//   `__jst(N, new.target);` at the entry of every function (after its directive
//   prologue; an arrow with an expression body becomes `(__jst(N), body)`), and a
//   `static { __jsc(this, N) }` block into every class so that a construction
//   knows the class it built. N indexes the function's definition: its file and
//   the line of the name the engine indexes.
// - At entry, V8's structured stack (`Error.prepareStackTrace`) gives the caller
//   frame's file, line and column: the position V8 records for the call in progress
//   (the callee identifier, the property name of `a.b()`, the `(` of `a[k]()`, the
//   `new` keyword, the template of a tagged template). A table built from the syntax
//   tree maps that position to the site's name token (UTF-8 byte column) and
//   caller; a position no site has (a getter, an implicit conversion) is dropped.
// - A caller frame that is a builtin (`Array.prototype.forEach` calling back, a
//   promise job, an event emitter in node's own code) is not a site of the tree.
// - Insertions never add a line; columns of the instrumented text are mapped back
//   through the per-line list of insertions.
'use strict';

const fs = require('fs');
const path = require('path');
const Module = require('module');

function parseArgs(argv) {
  const opts = { rest: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') { opts.rest = argv.slice(i + 1); break; }
    if (a === '--modules' || a === '--root' || a === '--out' || a === '--main') { opts[a.slice(2)] = argv[++i]; continue; }
    throw new Error('unknown argument ' + a);
  }
  if (!opts.modules || !opts.root || !opts.out || opts.rest.length === 0) {
    throw new Error('usage: jstrace.js --modules DIR --root ROOT --out OUT -- SCRIPT ARGS...');
  }
  return opts;
}

const opts = parseArgs(process.argv.slice(2));
const acorn = require(path.join(path.resolve(opts.modules), 'acorn'));
const root = fs.realpathSync(opts.root) + path.sep;
const helperDir = path.resolve(opts.modules) + path.sep;

// Definitions: N -> {file, lines: [name line, ...], outside: symbol or null}.
const defs = [];
// Per file: Map "line:col" (V8, UTF-16, 1-based col) -> site {file, line, column, name, caller}.
const siteTables = new Map();
// Per file: Map line -> [[instrumented col0 where the insertion starts, length], ...].
const insertions = new Map();
// Observed: site key "file\0line\0col" -> {site, targets: Map key -> target}.
const observed = new Map();
const classes = new WeakMap();

function relativeInTree(filename) {
  if (!filename.startsWith(root)) return null;
  const rel = filename.slice(root.length);
  if (rel.split(path.sep).includes('node_modules')) return null;
  return rel.split(path.sep).join('/');
}

function outsideSymbol(filename, name) {
  const parts = filename.split(path.sep);
  const at = parts.lastIndexOf('node_modules');
  if (at >= 0 && at + 1 < parts.length) {
    const pkg = parts[at + 1].startsWith('@') ? parts[at + 1] + '/' + parts[at + 2] : parts[at + 1];
    return 'node_modules:' + pkg + ':' + name;
  }
  return filename + ':' + name;
}

// UTF-8 byte column (1-based) of a UTF-16 column (0-based) on a line.
function byteColumn(lineText, col16) {
  return Buffer.byteLength(lineText.slice(0, col16), 'utf8') + 1;
}

function propertyName(node) {
  if (!node) return null;
  if (node.type === 'Identifier') return node.name;
  if (node.type === 'PrivateIdentifier') return '#' + node.name;
  if (node.type === 'Literal') return String(node.value);
  return null;
}

// The node whose line names a function: the declaration's id, the variable, the
// property key or the assigned member's property holding it.
function nameNodes(fn, parent) {
  const out = [];
  if (parent) {
    if (parent.type === 'VariableDeclarator' && parent.init === fn) out.push(parent.id);
    else if ((parent.type === 'Property' || parent.type === 'MethodDefinition' || parent.type === 'PropertyDefinition') && parent.value === fn) out.push(parent.key);
    else if (parent.type === 'AssignmentExpression' && parent.right === fn) {
      out.push(parent.left.type === 'MemberExpression' ? parent.left.property : parent.left);
    }
  }
  if (fn.id) out.push(fn.id);
  return out;
}

function functionName(fn, parent) {
  for (const n of nameNodes(fn, parent)) {
    const name = propertyName(n);
    if (name) return name;
  }
  return '<anonymous>';
}

// Where V8 places a call in progress, as "line:col" of the original text.
function v8Key(node, text, lineStarts) {
  const at = (offset) => {
    let lo = 0, hi = lineStarts.length - 1;
    while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (lineStarts[mid] <= offset) lo = mid; else hi = mid - 1; }
    return (lo + 1) + ':' + (offset - lineStarts[lo] + 1);
  };
  if (node.type === 'NewExpression') return at(node.start);
  if (node.type === 'TaggedTemplateExpression') return at(node.quasi.start);
  const callee = node.callee;
  if (callee.type === 'MemberExpression' && !callee.computed) return at(callee.property.start);
  if (callee.type === 'MemberExpression') {
    let i = callee.end;
    while (i < text.length && /[\s?.]/.test(text[i])) i++;
    return text[i] === '(' ? at(i) : null;
  }
  if (callee.type === 'Identifier' || callee.type === 'Super') return at(callee.start);
  return null;
}

// The site's name token: [name, node] or null for a dynamic callee.
function siteName(node) {
  let callee = node.type === 'TaggedTemplateExpression' ? node.tag : node.callee;
  if (callee.type === 'Super') return ['super', callee];
  if (callee.type === 'Identifier') return [callee.name, callee];
  if (callee.type === 'MemberExpression') {
    const name = (!callee.computed || callee.property.type === 'Literal') ? propertyName(callee.property) : null;
    return name === null ? null : [name, callee.property];
  }
  return null;
}

function isFunction(node) {
  return node.type === 'FunctionDeclaration' || node.type === 'FunctionExpression' || node.type === 'ArrowFunctionExpression';
}

function instrument(text, filename) {
  let ast;
  const options = { ecmaVersion: 'latest', sourceType: 'script', allowHashBang: true, allowReturnOutsideFunction: true, locations: true };
  try {
    ast = acorn.parse(text, options);
  } catch (e) {
    return text; // not JavaScript acorn reads: run it untouched (no site, no callee)
  }
  const rel = relativeInTree(filename);
  const lines = text.split('\n');
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
  const lineOf = (offset) => {
    let lo = 0, hi = lineStarts.length - 1;
    while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (lineStarts[mid] <= offset) lo = mid; else hi = mid - 1; }
    return lo;
  };
  const edits = []; // [offset, text]
  const table = new Map();

  function defineFunction(fn, parent, className) {
    const id = defs.length;
    const names = nameNodes(fn, parent);
    const linesOf = names.length ? names.map((n) => n.loc.start.line) : [fn.loc.start.line];
    if (className) linesOf.push(className.loc.start.line);
    const uniq = [...new Set(linesOf)].sort((a, b) => a - b);
    defs.push(rel !== null
      ? { file: rel, lines: uniq, outside: null }
      : { file: null, lines: uniq, outside: outsideSymbol(filename, functionName(fn, parent)) });
    return id;
  }

  function entryEdit(fn, id) {
    if (fn.generator) return; // its body runs at next(), not at the call
    if (fn.body.type !== 'BlockStatement') {
      edits.push([fn.body.start, '(__jst(' + id + '), ']);
      edits.push([fn.body.end, ')']);
      return;
    }
    let at = fn.body.start + 1;
    for (const stmt of fn.body.body) {
      if (stmt.type === 'ExpressionStatement' && stmt.directive !== undefined) at = stmt.end;
      else break;
    }
    const target = fn.type === 'ArrowFunctionExpression' ? '' : ', new.target';
    edits.push([at, '__jst(' + id + target + ');']);
  }

  // Iterative walk (bounded by the tree's size, no recursion on deep nesting).
  const stack = [{ node: ast, parent: null, fnDef: null, cls: null }];
  while (stack.length) {
    const { node, parent, fnDef, cls } = stack.pop();
    if (!node || typeof node.type !== 'string') continue;
    let here = fnDef;
    let classHere = cls;
    if (isFunction(node)) {
      const isAccessor = parent && (parent.kind === 'get' || parent.kind === 'set');
      const isCtor = parent && parent.type === 'MethodDefinition' && parent.kind === 'constructor';
      const id = defineFunction(node, parent, isCtor ? cls : null);
      if (!isAccessor) entryEdit(node, id);
      here = id;
    }
    if (node.type === 'ClassDeclaration' || node.type === 'ClassExpression') {
      const id = defs.length;
      const nameNode = node.id || (parent && parent.type === 'VariableDeclarator' ? parent.id : null);
      const line = (nameNode || node).loc.start.line;
      defs.push(rel !== null
        ? { file: rel, lines: [line], outside: null }
        : { file: null, lines: [line], outside: outsideSymbol(filename, nameNode && nameNode.name ? nameNode.name : '<class>') });
      edits.push([node.body.start + 1, 'static { __jsc(this, ' + id + '); }']);
      classHere = nameNode || node;
    }
    if (rel !== null && (node.type === 'CallExpression' || node.type === 'NewExpression' || node.type === 'TaggedTemplateExpression')) {
      const key = v8Key(node, text, lineStarts);
      const named = siteName(node);
      if (key && named) {
        const [name, token] = named;
        const line = token.loc.start.line;
        const caller = fnDef === null ? null : { file: rel, line: defs[fnDef].lines[0] };
        table.set(key, {
          file: rel,
          line,
          column: byteColumn(lines[line - 1], token.loc.start.column),
          name,
          caller,
          isNew: node.type === 'NewExpression',
          // `f.call(x)`, `f.apply(x, a)`, `Reflect.apply(f, ...)`: no frame for the
          // builtin, so the function it applies looks called at the site itself.
          implicit: node.type === 'CallExpression' && token !== node.callee && (name === 'call' || name === 'apply') ? 'via_call_apply' : null,
        });
      }
    }
    const children = [];
    for (const k of Object.keys(node)) {
      if (k === 'loc' || k === 'start' || k === 'end') continue;
      const v = node[k];
      if (Array.isArray(v)) { for (const c of v) if (c && typeof c.type === 'string') children.push(c); }
      else if (v && typeof v.type === 'string') children.push(v);
    }
    for (let i = children.length - 1; i >= 0; i--) {
      stack.push({ node: children[i], parent: node, fnDef: here, cls: classHere });
    }
  }

  if (rel !== null) siteTables.set(filename, table);
  edits.sort((a, b) => a[0] - b[0]);
  let out = '';
  let last = 0;
  const perLine = new Map();
  let shiftOnLine = 0;
  let currentLine = -1;
  for (const [offset, insert] of edits) {
    out += text.slice(last, offset) + insert;
    last = offset;
    const line = lineOf(offset);
    if (line !== currentLine) { currentLine = line; shiftOnLine = 0; }
    const col0 = offset - lineStarts[line] + shiftOnLine;
    if (!perLine.has(line + 1)) perLine.set(line + 1, []);
    perLine.get(line + 1).push([col0, insert.length]);
    shiftOnLine += insert.length;
  }
  out += text.slice(last);
  insertions.set(filename, perLine);
  return out;
}

// The original 1-based column of an instrumented one.
function originalColumn(filename, line, col) {
  const list = insertions.get(filename) && insertions.get(filename).get(line);
  if (!list) return col;
  let shift = 0;
  for (const [start, len] of list) {
    if (col - 1 >= start + len) shift += len;
    else break;
  }
  return col - shift;
}

function structured(_, frames) { return frames; }

function callerFrame() {
  const holder = {};
  const savedPrepare = Error.prepareStackTrace;
  const savedLimit = Error.stackTraceLimit;
  Error.prepareStackTrace = structured;
  Error.stackTraceLimit = 2;
  Error.captureStackTrace(holder, __jst);
  const frames = holder.stack;
  Error.prepareStackTrace = savedPrepare;
  Error.stackTraceLimit = savedLimit;
  return Array.isArray(frames) && frames.length >= 2 ? frames[1] : null;
}

function record(site, def) {
  const key = site.file + '\0' + site.line + '\0' + site.column + '\0' + site.name;
  let entry = observed.get(key);
  if (!entry) { entry = { site, targets: new Map() }; observed.set(key, entry); }
  if (def.outside !== null) {
    entry.targets.set('o\0' + def.outside, { kind: 'outside', symbol: def.outside });
  } else {
    for (const line of def.lines) entry.targets.set('t\0' + def.file + '\0' + line, { kind: 'in_tree', file: def.file, line });
  }
}

let inside = false;
function __jst(id, newTarget) {
  if (inside) return;
  inside = true;
  try {
    const frame = callerFrame();
    if (!frame) return;
    const file = frame.getFileName();
    const table = file && siteTables.get(file);
    if (!table) return;
    const line = frame.getLineNumber();
    const key = line + ':' + originalColumn(file, line, frame.getColumnNumber());
    const site = table.get(key);
    if (!site) return;
    record(site, defs[id]);
    if (site.isNew && newTarget !== undefined && classes.has(newTarget)) record(site, defs[classes.get(newTarget)]);
  } finally {
    inside = false;
  }
}

function __jsc(cls, id) {
  classes.set(cls, id);
}

Object.defineProperty(globalThis, '__jst', { value: __jst, enumerable: false });
Object.defineProperty(globalThis, '__jsc', { value: __jsc, enumerable: false });

if (opts.main) {
  const rootDir = root.slice(0, -1);
  const main = path.join(rootDir, opts.main);
  const originalResolve = Module._resolveFilename;
  Module._resolveFilename = function resolve(request, parent, ...rest) {
    if (parent && parent.filename && (request.startsWith('.') || request.startsWith('/'))) {
      const target = path.resolve(path.dirname(parent.filename), request);
      if (target === rootDir) return main;
    }
    return originalResolve.call(this, request, parent, ...rest);
  };
}

const originalCompile = Module.prototype._compile;
Module.prototype._compile = function compile(content, filename) {
  const instrumented = filename.startsWith(helperDir) ? content : instrument(content, filename);
  return originalCompile.call(this, instrumented, filename);
};

function writeOut() {
  const sites = [];
  for (const { site, targets } of observed.values()) {
    const out = { file: site.file, line: site.line, column: site.column, name: site.name };
    if (site.caller) out.caller = site.caller;
    if (site.implicit) { out.implicit = site.implicit; out.targets = []; sites.push(out); continue; }
    out.targets = [...targets.values()].sort((a, b) => JSON.stringify(a) < JSON.stringify(b) ? -1 : 1);
    sites.push(out);
  }
  sites.sort((a, b) => a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  fs.writeFileSync(opts.out, JSON.stringify({ node: process.version, sites }));
}
process.on('exit', writeOut);

const script = path.resolve(opts.rest[0]);
process.argv = [process.argv[0], script, ...opts.rest.slice(1)];
Module.runMain();
